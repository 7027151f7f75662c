// The switch of a vault move ([Note: vault moves] in moves.service.ts; issue 27): in ONE
// transaction, once every item is copied and verified on the target, the vault's provider and
// folder, its file records' references, where its secrets live, and its next manifest (compare-
// and-swap, as PUT /manifest) all change together, and the move is forgotten. A failure anywhere
// leaves the vault as it was, on its old provider. On PostgreSQL the vault's row is locked first,
// as a file record, an upload's finish and a move's items take it (files.repository.ts lockVault),
// so no file can be added between the check that every file was copied and the commit.
import { sql } from 'kysely';
import type { Selectable, Transaction } from 'kysely';
import {
  isUnlimited,
  moveNotVerifiedMessage,
  storageQuotaMessage,
  type Manifest,
  type MoveItem,
  type OldCopy,
  type SwitchMoveRequest,
  type Vault,
} from '@sealvault/protocol';
import type { Database, VaultMoveItemsTable, VaultMovesTable, VaultsTable } from '../db/schema.ts';
import * as files from '../files/files.repository.ts';
import { queueBlobDeletions, unqueueBlobDeletions } from '../files/blob-deletions.repository.ts';
import { purgeBlobs, type FilesDeps } from '../files/files.service.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import { anyItemIdTaken, insertItems } from '../secrets/secrets.repository.ts';
import * as manifests from './manifest.repository.ts';
import { ManifestConflict } from './manifest.service.ts';
import * as repo from './moves.repository.ts';
import { assertNoPurgedFiles, lockVaultRow, noMove } from './moves.service.ts';
import { getVault } from './vaults.service.ts';

const BATCH = 500;
const MiB = 1024 * 1024;

const notVerified = (missing: number) =>
  new HttpError(409, 'not_verified', moveNotVerifiedMessage(missing));

interface Outcome {
  old: OldCopy[];
  unused: MoveItem[];
  /** Blobs of this server queued for deletion, purged after the commit. */
  queued: string[];
}

/** The new manifest names the move's target and folder, and the vault's own type. */
function checkManifestTarget(
  vault: Selectable<VaultsTable>,
  move: Selectable<VaultMovesTable>,
  manifest: Manifest,
) {
  if (manifest.vault.provider_type !== move.target_provider)
    throw badRequest("manifest.vault.provider_type: must be the move's target provider");
  if (manifest.vault.storage_folder !== (move.target_folder ?? ''))
    throw badRequest("manifest.vault.storage_folder: must be the move's target folder");
  if (manifest.vault.vault_type !== vault.vault_type)
    throw badRequest("manifest.vault.vault_type: must be the vault's type");
}

/** A files vault: every file has its verified copy; the records then name the copies. */
async function switchFiles(
  trx: Transaction<Database>,
  deps: FilesDeps,
  vault: Selectable<VaultsTable>,
  move: Selectable<VaultMovesTable>,
  items: Map<string, Selectable<VaultMoveItemsTable>>,
  now: Date,
): Promise<Outcome> {
  await assertNoPurgedFiles(trx, vault.id);
  const rows = await files.listFiles(trx, vault.id);
  const missing = rows.filter((f) => {
    const item = items.get(f.id);
    return (
      item?.kind !== 'file' ||
      item.checksum !== f.checksum ||
      Number(item.size) !== Number(f.ciphertext_size)
    );
  });
  if (missing.length) throw notVerified(missing.length);
  const toServer = move.target_provider === 'server';
  if (toServer) {
    const { max_storage_mb: quota } = await getLimits(trx, vault.user_id, deps.logger);
    const total = rows.reduce((n, f) => n + Number(f.ciphertext_size), 0);
    if (
      quota !== undefined &&
      !isUnlimited(quota) &&
      (await storageUsed(trx, vault.user_id)) + total > quota * MiB
    )
      throw new HttpError(413, 'payload_too_large', storageQuotaMessage(quota));
  }
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    const values = sql.join(
      batch.map((f) => {
        const ref = items.get(f.id)!.ref;
        return toServer
          ? sql`(${f.id}, ${ref}, cast(null as text))`
          : sql`(${f.id}, '', cast(${ref} as text))`;
      }),
    );
    await sql`
      with v (id, blob_key, storage_ref) as (values ${values})
      update vault_files
      set blob_key = v.blob_key, storage_ref = v.storage_ref
      from v
      where vault_files.vault_id = ${vault.id} and vault_files.id = v.id`.execute(trx);
  }
  const fileIds = new Set(rows.map((f) => f.id));
  const unused = [...items.values()].filter((i) => !fileIds.has(i.item_id));
  const queued: string[] = [];
  // Blobs on this server that no record names any more help nobody: deleted, always.
  const oldKeys = rows.flatMap((f) => files.blobKeyOf(f) ?? []);
  await queueBlobDeletions(trx, oldKeys, now.toISOString());
  queued.push(...oldKeys);
  if (toServer) {
    await unqueueBlobDeletions(
      trx,
      rows.map((f) => items.get(f.id)!.ref),
    );
    const stray = unused.filter((i) => i.kind === 'file').map((i) => i.ref);
    await queueBlobDeletions(trx, stray, now.toISOString());
    queued.push(...stray);
  }
  return {
    old: rows.map((f) => ({
      id: f.id,
      kind: 'file',
      ref: files.blobKeyOf(f) ?? f.storage_ref ?? '',
    })),
    unused: unused.map(repo.toItem),
    queued,
  };
}

/** A secrets vault: its items follow it (segments verified on the target, or handed to us). */
async function switchSecrets(
  trx: Transaction<Database>,
  deps: FilesDeps,
  vault: Selectable<VaultsTable>,
  move: Selectable<VaultMovesTable>,
  items: Map<string, Selectable<VaultMoveItemsTable>>,
  input: SwitchMoveRequest,
  previous: Manifest | null,
): Promise<Outcome> {
  const { manifest } = input;
  const oldSegments: OldCopy[] = (previous?.segments ?? []).map(([id]) => ({
    id,
    kind: 'segment',
    ref: id,
  }));
  if (move.target_provider !== 'server') {
    // ADR 0008: a manifest without `segments` says the items are on this server.
    if (!manifest.segments)
      throw badRequest('manifest.segments: a secrets vault on this provider pins its segments');
    const missing = manifest.segments.filter(([id, digest]) => {
      const item = items.get(id);
      return item?.kind !== 'segment' || item.checksum !== digest;
    });
    if (missing.length) throw notVerified(missing.length);
    if (vault.provider_type === 'server')
      await trx.deleteFrom('secret_items').where('vault_id', '=', vault.id).execute();
    const pinned = new Set(manifest.segments.map(([id]) => id));
    return {
      old: oldSegments,
      unused: [...items.values()].filter((i) => !pinned.has(i.item_id)).map(repo.toItem),
      queued: [],
    };
  }
  const secrets = input.secrets;
  if (!secrets)
    throw badRequest('secrets: a secrets vault moving to this server hands over its items');
  if (manifest.segments?.length)
    throw badRequest('manifest.segments: a secrets vault on this server pins no segments');
  const entries = new Map(manifest.secrets.map(([id, revision]) => [id, revision]));
  if (
    new Set(secrets.map((s) => s.id)).size !== secrets.length ||
    secrets.length !== entries.size ||
    secrets.some((s) => entries.get(s.id) !== s.revision)
  )
    throw badRequest("secrets: must be exactly the manifest's entries, at their revisions");
  // Copies kept here from before ADR 0008 are replaced by what the vault holds now.
  await trx.deleteFrom('secret_items').where('vault_id', '=', vault.id).execute();
  for (let at = 0; at < secrets.length; at += BATCH) {
    const batch = secrets.slice(at, at + BATCH);
    if (
      await anyItemIdTaken(
        trx,
        batch.map((s) => s.id),
      )
    )
      throw new HttpError(409, 'conflict', 'A secret with this id already exists.');
    await insertItems(
      trx,
      batch.map((s) => ({ vault_id: vault.id, ...s })),
    );
  }
  return { old: oldSegments, unused: [...items.values()].map(repo.toItem), queued: [] };
}

export async function switchMove(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  input: SwitchMoveRequest,
): Promise<{ vault: Vault; manifest: Manifest; old: OldCopy[]; unused: MoveItem[] }> {
  const outcome = await deps.db.kysely.transaction().execute(async (trx) => {
    const vault = await lockVaultRow(trx, deps.db.kind, userId, vaultId);
    const move = await repo.findMove(trx, vaultId);
    if (!move) throw noMove();
    checkManifestTarget(vault, move, input.manifest);
    const items = new Map((await repo.listItems(trx, vaultId)).map((i) => [i.item_id, i]));
    const previous = await manifests.findManifest(trx, vaultId);
    const now = deps.now();
    const result =
      vault.vault_type === 'files'
        ? await switchFiles(trx, deps, vault, move, items, now)
        : await switchSecrets(trx, deps, vault, move, items, input, previous);
    if (
      !(await manifests.writeManifest(
        trx,
        vaultId,
        input.expected_version,
        input.manifest,
        now.toISOString(),
      ))
    )
      throw new ManifestConflict(previous);
    await trx
      .updateTable('vaults')
      .set({
        provider_type: move.target_provider,
        storage_folder: move.target_folder,
        updated_at: now.toISOString(),
      })
      .where('id', '=', vaultId)
      .execute();
    // Uploads begun for the old provider (or the move) would finish into the wrong place.
    await trx
      .updateTable('file_uploads')
      .set({ expires_at: now.toISOString() })
      .where('vault_id', '=', vaultId)
      .where('state', '!=', 'done')
      .execute();
    await repo.deleteMove(trx, vaultId);
    return result;
  });
  await purgeBlobs(deps, outcome.queued);
  return {
    vault: await getVault(deps, userId, vaultId),
    manifest: input.manifest,
    old: outcome.old,
    unused: outcome.unused,
  };
}
