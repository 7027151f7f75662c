// Secrets of a secrets vault, for its owner (docs/product.md §5 "Secrets": update and delete need the
// secret to exist). A stale update is refused with 409 and the stored version, so the browser can
// show the newer secret and nothing is silently overwritten.
import {
  messages,
  SECRETS_IN_PROVIDER_MESSAGE,
  SECRETS_NOT_MOVED_MESSAGE,
  type CreateSecretRequest,
  type ImportSecretsRequest,
  type Manifest,
  type SecretRecord,
  type UpdateSecretRequest,
} from '@sealvault/protocol';
import { isUniqueViolation } from '../files/files.repository.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import type { AppDeps, WithUser } from '../http/context.ts';
import { assertVaultWritable, whose } from '../plans/read-only.ts';
import { findManifest, writeManifest } from '../vaults/manifest.repository.ts';
import { ManifestConflict } from '../vaults/manifest.service.ts';
import { assertCurrentKey } from '../vaults/key-revision.ts';
import { findVault } from '../vaults/vaults.repository.ts';
import * as repo from './secrets.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'now'> & WithUser;

export const SECRET_NOT_FOUND = 'Secret not found';

export class SecretConflict extends HttpError {
  constructor(readonly current: SecretRecord) {
    super(
      409,
      'conflict',
      'This secret was changed in another tab or device. Its newer version is shown.',
    );
  }
}

export const SECRET_ID_TAKEN = 'A secret with this id already exists.';

/**
 * The user's secrets vault. `write`: a new or changed item, which only a vault whose items are on
 * this server takes ([Note: secrets in their provider]), and not a read-only one.
 */
async function secretsVault(
  deps: Deps,
  userId: string,
  vaultId: string,
  write = false,
  db: repo.Q = deps.db.kysely,
) {
  const vault = await findVault(db, userId, vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  if (vault.vault_type !== 'secrets')
    throw new HttpError(400, 'bad_request', 'This vault does not hold secrets.');
  if (write && vault.provider_type !== 'server')
    throw new HttpError(409, 'secrets_in_provider', SECRETS_IN_PROVIDER_MESSAGE);
  // [Note: read-only after a trial] in the protocol's trials.ts.
  if (write) await assertVaultWritable(db, whose(deps, userId), vaultId);
  return vault;
}

// [Note: secrets in their provider] ADR 0008: a secrets vault on any provider but ours keeps its
// items there, as immutable segments its manifest pins. This server keeps its key slots and its
// manifest, never an item: creates, updates and imports are refused (409 secrets_in_provider).
// Its items kept here from before (a vault made when secrets stayed on this server) are read by
// the device that moves them, and deleted here, all at once, once the manifest pins segments.

/** The manifest's `segments` list is there: the vault's items live in its provider. */
const pinsSegments = (manifest: Manifest | null): boolean => Array.isArray(manifest?.segments);

/**
 * Deletes every item this server still holds of a vault whose items moved to its provider
 * (ADR 0008, "Existing vaults"); refused while the manifest pins no segments, as the items would
 * then be lost. Deleting none is not an error: a second device may have finished first.
 */
export async function removeMovedSecrets(
  deps: Deps,
  userId: string,
  vaultId: string,
): Promise<number> {
  const vault = await secretsVault(deps, userId, vaultId);
  return deps.db.kysely.transaction().execute(async (trx) => {
    if (vault.provider_type === 'server' || !pinsSegments(await findManifest(trx, vaultId)))
      throw new HttpError(409, 'not_moved', SECRETS_NOT_MOVED_MESSAGE);
    const res = await trx.deleteFrom('secret_items').where('vault_id', '=', vaultId).execute();
    return res.reduce((n, r) => n + Number(r.numDeletedRows), 0);
  });
}

/**
 * A vault's secrets as JSON text (built by SQLite there: [Note: secrets list as SQLite JSON] in
 * the repository) and its vault's items tag ([Note: conditional secrets list] in
 * secrets.routes.ts). The tag is read before the items: a write between the two reads leaves an
 * older tag beside newer items, which costs one more download later, never a stale list.
 * `unchanged(tag)`: the caller's cached list is current, so the items are not read at all.
 */
export async function listSecretsJson(
  deps: Deps,
  userId: string,
  vaultId: string,
  unchanged: (tag: string | null) => boolean = () => false,
): Promise<{ tag: string | null; body: string | null }> {
  const { items_tag: tag } = await secretsVault(deps, userId, vaultId);
  if (unchanged(tag)) return { tag, body: null };
  const body =
    deps.db.kind === 'sqlite'
      ? `{"secrets":${await repo.listItemsJsonSqlite(deps.db.kysely, vaultId)}}`
      : JSON.stringify({
          secrets: (await repo.listItems(deps.db.kysely, vaultId)).map(repo.toRecord),
        });
  return { tag, body };
}

export async function createSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: CreateSecretRequest,
): Promise<SecretRecord> {
  await secretsVault(deps, userId, vaultId, true);
  const now = deps.now().toISOString();
  const row = {
    id: input.id,
    vault_id: vaultId,
    data: input.data,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    // [Note: key revision of a write]
    await assertCurrentKey(trx, deps.db.kind, userId, vaultId, input.key_revision);
    // Ids are unique across the table: one taken in any vault is the insert's unique violation.
    await repo.insertItem(trx, row).catch((err: unknown) => {
      throw isUniqueViolation(err) ? new HttpError(409, 'conflict', SECRET_ID_TAKEN) : err;
    });
  });
  return repo.toRecord(row);
}

export async function updateSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  secretId: string,
  input: UpdateSecretRequest,
): Promise<SecretRecord> {
  await secretsVault(deps, userId, vaultId, true);
  const db = deps.db.kysely;
  const ok = await db.transaction().execute(async (trx) => {
    // [Note: key revision of a write]
    await assertCurrentKey(trx, deps.db.kind, userId, vaultId, input.key_revision);
    return repo.updateItem(
      trx,
      vaultId,
      secretId,
      input.expected_revision,
      input.data,
      deps.now().toISOString(),
    );
  });
  const row = await repo.findItem(db, vaultId, secretId);
  if (!row) throw notFound(SECRET_NOT_FOUND);
  if (!ok) throw new SecretConflict(repo.toRecord(row));
  return repo.toRecord(row);
}

export async function deleteSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  secretId: string,
): Promise<void> {
  await secretsVault(deps, userId, vaultId, true);
  if (!(await repo.deleteItem(deps.db.kysely, vaultId, secretId))) throw notFound(SECRET_NOT_FOUND);
}

/**
 * A bulk import (issue 20): every secret inserted at revision 1 and the vault's next manifest
 * written by compare-and-swap (manifest.repository.ts, the manifest write's own), in one
 * transaction. Anything refused (an id taken or sent twice, a read-only vault, a lost manifest
 * race) rolls all of it back. The manifest goes first: a lost race costs no inserts, and on
 * PostgreSQL its row lock orders this import after any other write of the same manifest.
 */
export async function importSecrets(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: ImportSecretsRequest,
): Promise<{ imported: number; manifest: Manifest }> {
  if (new Set(input.secrets.map((s) => s.id)).size !== input.secrets.length)
    throw badRequest('secrets: a secret appears twice');
  const now = deps.now().toISOString();
  const { expected_version, manifest } = input.manifest;
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      await secretsVault(deps, userId, vaultId, true, trx);
      // [Note: key revision of a write]; the vault's row first, as a rotation takes it.
      await assertCurrentKey(trx, deps.db.kind, userId, vaultId, input.key_revision);
      if (!(await writeManifest(trx, vaultId, expected_version, manifest, now)))
        throw new ManifestConflict(await findManifest(trx, vaultId));
      for (let at = 0; at < input.secrets.length; at += IMPORT_BATCH_ROWS) {
        const batch = input.secrets.slice(at, at + IMPORT_BATCH_ROWS);
        if (
          await repo.anyItemIdTaken(
            trx,
            batch.map((s) => s.id),
          )
        )
          throw new HttpError(409, 'conflict', SECRET_ID_TAKEN);
        await repo.insertItems(
          trx,
          batch.map((s) => ({
            id: s.id,
            vault_id: vaultId,
            data: s.data,
            revision: 1,
            created_at: now,
            updated_at: now,
          })),
        );
      }
    });
  } catch (err) {
    // Another request took one of the ids between the check and the insert.
    if (isUniqueViolation(err)) throw new HttpError(409, 'conflict', SECRET_ID_TAKEN);
    throw err;
  }
  return { imported: input.secrets.length, manifest };
}

/** Rows inserted per statement: 6 parameters each, well under SQLite's and PostgreSQL's caps. */
export const IMPORT_BATCH_ROWS = 1000;
