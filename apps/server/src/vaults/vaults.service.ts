// Vault operations for the signed-in owner. Creation checks the plan's max_vaults inside the
// same write transaction as the insert, so parallel requests cannot pass the limit: SQLite write
// transactions begin IMMEDIATE (one writer at a time), PostgreSQL takes a per-user advisory lock.
import { sql } from 'kysely';
import {
  canCreateVault,
  canCreateVaultOfType,
  FREE_PLAN_ONE_OF_EACH,
  isVaultNameTaken,
  messages,
  type CreateVaultRequest,
  type ReplaceVaultKeyRequest,
  type Vault,
} from '@sealvault/protocol';
import { HttpError, notFound } from '../http/errors.ts';
import type { AppDeps, WithUser } from '../http/context.ts';
import { getLimits } from '../plans/limits.service.ts';
import { assertVaultWritable, readOnlyVaults, whose } from '../plans/read-only.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import * as repo from './vaults.repository.ts';
import { checkFolderChange, checkProviderOffered, checkStorageFolder } from './providers.ts';
import { statsByVault } from './vaults.stats.ts';
import { deleteMoveOfVault } from './moves.service.ts';
import { deleteItemsOfVault } from '../secrets/secrets.repository.ts';
import { deleteFilesOfVault, freeBlobsOfVault, purgeBlobs } from '../files/files.service.ts';
import { deleteOnFullDisk } from '../files/storage-guard.ts';
import { deleteSharesOfVault } from '../shares/shares.service.ts';

type Deps = Pick<AppDeps, 'db' | 'now' | 'logger'> & WithUser;

const vaultNotFound = () => notFound(messages.vaults.notFound);

/** One user's vault writes, one at a time: SQLite's IMMEDIATE transactions already are. */
async function lockUserVaults(deps: Deps, trx: Transaction<Database>, userId: string) {
  if (deps.db.kind === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`vaults:${userId}`}))`.execute(trx);
  }
}

/** Issue 25: two vaults of one account may not share a name (protocol vaultNames.ts). */
function assertNameFree(
  vaults: readonly { id: string; name: string }[],
  name: string,
  id?: string,
) {
  if (isVaultNameTaken(vaults, name, id)) {
    throw new HttpError(409, 'conflict', messages.vaults.duplicateName);
  }
}

export async function createVault(
  deps: Deps & Pick<AppDeps, 'config'>,
  userId: string,
  input: CreateVaultRequest,
): Promise<Vault> {
  checkProviderOffered(deps.config, input.provider_type);
  const storageFolder = checkStorageFolder(input);
  const now = deps.now().toISOString();
  return deps.db.kysely.transaction().execute(async (trx) => {
    await lockUserVaults(deps, trx, userId);
    if (await repo.vaultExists(trx, input.id)) {
      throw new HttpError(409, 'conflict', 'A vault with this id already exists.');
    }
    const limits = await getLimits(trx, userId, deps.logger);
    const existing = await repo.listVaults(trx, userId);
    if (!canCreateVault(existing.length, limits.max_vaults)) {
      throw new HttpError(403, 'limit_reached', messages.vaults.limitReached);
    }
    // Spec §9: Free's two vaults are one of each type.
    if (!canCreateVaultOfType(limits, existing, input.vault_type)) {
      throw new HttpError(403, 'limit_reached', FREE_PLAN_ONE_OF_EACH);
    }
    assertNameFree(existing, input.name);
    const row = {
      id: input.id,
      user_id: userId,
      name: input.name,
      description: input.description || null,
      vault_type: input.vault_type,
      provider_type: input.provider_type,
      storage_folder: storageFolder,
      key_json: JSON.stringify(input.key),
      key_revision: 0,
      items_tag: null,
      is_hidden: 0,
      last_accessed: null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertVault(trx, row);
    return repo.toVault(row);
  });
}

export async function getVault(deps: Deps, userId: string, vaultId: string): Promise<Vault> {
  const row = await repo.findVault(deps.db.kysely, userId, vaultId);
  if (!row) throw vaultNotFound();
  const stats = await statsByVault(deps.db.kysely, [row]);
  const readOnly = await readOnlyVaults(deps.db.kysely, whose(deps, userId), deps.logger);
  return {
    ...repo.toVault(row, stats.get(row.id)),
    read_only: readOnly.some((v) => v.id === row.id),
  };
}

export async function listVaults(deps: Deps, userId: string): Promise<Vault[]> {
  const rows = await repo.listVaults(deps.db.kysely, userId);
  const stats = await statsByVault(deps.db.kysely, rows);
  const readOnly = new Set(
    (await readOnlyVaults(deps.db.kysely, whose(deps, userId), deps.logger)).map((v) => v.id),
  );
  return rows.map((r) => ({ ...repo.toVault(r, stats.get(r.id)), read_only: readOnly.has(r.id) }));
}

export async function updateVault(
  deps: Deps,
  userId: string,
  vaultId: string,
  values: {
    name?: string | undefined;
    description?: string | undefined;
    storage_folder?: string | undefined;
  },
): Promise<Vault> {
  const set: {
    name?: string;
    description?: string | null;
    storage_folder?: string;
    updated_at: string;
  } = {
    updated_at: deps.now().toISOString(),
  };
  if (values.name !== undefined) set.name = values.name;
  if (values.description !== undefined) set.description = values.description || null;
  if (values.storage_folder !== undefined) set.storage_folder = values.storage_folder;
  // A read-only vault keeps its name too ([Note: read-only after a trial], protocol trials.ts).
  await assertVaultWritable(deps.db.kysely, whose(deps, userId), vaultId, deps.logger);
  const updated = await deps.db.kysely.transaction().execute(async (trx) => {
    await lockUserVaults(deps, trx, userId);
    const mine = await repo.listVaults(trx, userId);
    if (!mine.some((v) => v.id === vaultId)) return false; // another user's: 404, not 409
    if (set.name !== undefined) assertNameFree(mine, set.name, vaultId);
    if (set.storage_folder !== undefined) checkFolderChange(mine.find((v) => v.id === vaultId)!);
    return repo.updateVault(trx, userId, vaultId, set);
  });
  if (!updated) throw vaultNotFound();
  return getVault(deps, userId, vaultId);
}

/** Password change or recovery slot: the slots are replaced; no data is re-encrypted. */
export async function replaceKey(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: ReplaceVaultKeyRequest,
): Promise<Vault> {
  const now = deps.now().toISOString();
  const ok = await repo.replaceKey(
    deps.db.kysely,
    userId,
    vaultId,
    input.expected_revision,
    input.key,
    now,
  );
  if (!ok) {
    await getVault(deps, userId, vaultId); // 404 when it is not the user's vault
    throw new HttpError(
      409,
      'conflict',
      'The vault key was changed on another device. Reload and try again.',
    );
  }
  return getVault(deps, userId, vaultId);
}

/**
 * Deletes a vault's rows with its secrets, files, move (issue 27: the blobs a move staged on
 * this server are queued with the files') and share links (issue 29, with their blobs); returns
 * the blob keys now to purge.
 */
async function removeVaultRows(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  userId: string,
  vaultId: string,
  now: Date,
) {
  if (!(await repo.findVault(trx, userId, vaultId))) throw vaultNotFound();
  const shared = await deleteSharesOfVault(trx, kind, vaultId, now);
  const staged = [...shared, ...(await deleteMoveOfVault(trx, vaultId, now))];
  if (!(await repo.deleteVaultRow(trx, userId, vaultId))) throw vaultNotFound();
  await deleteItemsOfVault(trx, vaultId);
  return [...staged, ...(await deleteFilesOfVault(trx, vaultId, now))];
}

/** Removes the vault with its secrets (and, through their module, its files and blobs). */
export async function deleteVault(
  deps: Deps & Pick<AppDeps, 'config' | 'files'>,
  userId: string,
  vaultId: string,
): Promise<void> {
  // 404 before anything is freed
  if (!(await repo.findVault(deps.db.kysely, userId, vaultId))) throw vaultNotFound();
  const blobKeys = await deleteOnFullDisk(
    () =>
      deps.db.kysely
        .transaction()
        .execute((trx) => removeVaultRows(trx, deps.db.kind, userId, vaultId, deps.now())),
    () => freeBlobsOfVault(deps, vaultId),
  );
  await purgeBlobs(deps, blobKeys); // after the commit; the sweep retries any that fail
}

// [Note: user deletion hooks] A deleted account takes its vaults along, with their secrets and
// files; the blobs stay queued for deletion and the upload sweep removes them.
export const deleteVaultsOfUser: UserDeletedHook = async ({ db, userId }) => {
  for (const vault of await repo.listVaults(db.kysely, userId)) {
    await db.kysely
      .transaction()
      .execute((trx) => removeVaultRows(trx, db.kind, userId, vault.id, new Date()));
  }
};
