// Rows of vault_files, and the lock on a files vault that writing them takes. File queries are
// scoped by vault id (callers check that the vault is the user's first, files.service.ts). The
// tus uploads' rows are uploads.repository.ts's, the queue of blobs to delete
// blob-deletions.repository.ts's.
//
// [Note: provider-held files] A files vault whose provider is not our server (issue 14: 'local',
// later the cloud ones) keeps its ciphertext there; the server keeps only the record, with the
// provider's `storage_ref` and the content hash (files.records.ts). Such a row has no blob here:
// its blob_key is '' (0100_file_storage_ref). Code reads a row's blob only through blobKeyOf, so
// such a record is never served from the blob store, never queues a blob deletion (deleteFileRows)
// and never counts towards the storage quota, which is about this server's disk (storageUsed).
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { VaultFile } from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { prepared } from '../db/prepared.ts';
import type { Database, VaultFilesTable } from '../db/schema.ts';

export type Q = Kysely<Database> | Transaction<Database>;

export const toFile = (r: Selectable<VaultFilesTable>): VaultFile => ({
  id: r.id,
  enc_meta: r.enc_meta,
  name_lookup: r.name_lookup,
  wrapped_key: r.wrapped_key,
  ciphertext_size: Number(r.ciphertext_size),
  checksum: r.checksum,
  checksum_algorithm: r.checksum_algorithm,
  storage_ref: r.storage_ref,
  created_at: r.created_at,
  updated_at: r.updated_at,
  trashed_at: r.trashed_at,
  purged_at: r.purged_at,
});

/** The row's blob in our BlobStore, or null for a file its vault's provider holds. */
export const blobKeyOf = (r: Pick<Selectable<VaultFilesTable>, 'blob_key' | 'storage_ref'>) =>
  r.storage_ref === null && r.blob_key !== '' ? (r.blob_key as BlobKey) : null;

/** A unique-index violation on SQLite or PostgreSQL (a race the pre-checks could not see). */
export const isUniqueViolation = (err: unknown): boolean =>
  err instanceof Error &&
  ((err as { code?: unknown }).code === '23505' || /UNIQUE constraint failed/.test(err.message));

export const listFiles = (db: Q, vaultId: string) =>
  db
    .selectFrom('vault_files')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const findFile = (db: Q, vaultId: string, fileId: string) =>
  db
    .selectFrom('vault_files')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('id', '=', fileId)
    .executeTakeFirst();

export async function fileIdTaken(db: Q, fileId: string): Promise<boolean> {
  const row = await db
    .selectFrom('vault_files')
    .select('id')
    .where('id', '=', fileId)
    .executeTakeFirst();
  return row !== undefined;
}

/** True when another file of the vault already uses this name look-up. */
export async function lookupTaken(
  db: Q,
  vaultId: string,
  lookup: string,
  exceptFileId?: string,
): Promise<boolean> {
  let q = db
    .selectFrom('vault_files')
    .select('id')
    .where('vault_id', '=', vaultId)
    .where('name_lookup', '=', lookup);
  if (exceptFileId) q = q.where('id', '!=', exceptFileId);
  return (await q.executeTakeFirst()) !== undefined;
}

export const insertFile = (db: Q, row: Insertable<VaultFilesTable>) =>
  db.insertInto('vault_files').values(row).execute();

export async function renameFile(
  db: Q,
  vaultId: string,
  fileId: string,
  values: Pick<VaultFilesTable, 'enc_meta' | 'name_lookup' | 'updated_at'>,
): Promise<boolean> {
  const res = await db
    .updateTable('vault_files')
    .set(values)
    .where('vault_id', '=', vaultId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Deletes the file rows (one, or all of the vault). Returns how many, and the blob keys of those
 * stored here: a provider-held file has none ([Note: provider-held files]), nor a purged one (the
 * trash purge deleted or queued its blob, files/trash.purge.ts).
 */
export async function deleteFileRows(
  db: Q,
  vaultId: string,
  fileId?: string,
): Promise<{ count: number; blobKeys: BlobKey[] }> {
  let sel = db
    .selectFrom('vault_files')
    .select(['blob_key', 'storage_ref', 'purged_at'])
    .where('vault_id', '=', vaultId);
  let del = db.deleteFrom('vault_files').where('vault_id', '=', vaultId);
  if (fileId) {
    sel = sel.where('id', '=', fileId);
    del = del.where('id', '=', fileId);
  }
  const rows = await sel.execute();
  if (rows.length) await del.execute();
  const held = rows.filter((r) => r.purged_at === null);
  return { count: rows.length, blobKeys: held.flatMap((r) => blobKeyOf(r) ?? []) };
}

/**
 * file_count and total_size (ciphertext bytes) per vault, in one grouped query. A purged file of
 * our server is left out (its bytes are gone); a trashed one, or a purged one a provider still
 * holds until the browser deletes it, counts ([Note: trash] in the protocol's files.ts).
 */
// Built once per number of vaults ([Note: prepared queries] in db/prepared.ts): every vault list
// runs it.
const fileStats = prepared((db, a: { vaultIds: string[] }) =>
  db
    .selectFrom('vault_files')
    .select((eb) => [
      'vault_id',
      eb.fn.countAll<string | number>().as('n'),
      eb.fn.sum<string | number>('ciphertext_size').as('bytes'),
    ])
    .where('vault_id', 'in', a.vaultIds)
    .where((eb) => eb.or([eb('purged_at', 'is', null), eb('storage_ref', 'is not', null)]))
    .groupBy('vault_id'),
);

export async function fileStatsByVault(
  db: Q,
  vaultIds: string[],
): Promise<Map<string, { file_count: number; total_size: number }>> {
  if (vaultIds.length === 0) return new Map();
  const rows = await fileStats(db, { vaultIds });
  return new Map(
    rows.map((r) => [r.vault_id, { file_count: Number(r.n), total_size: Number(r.bytes) }]),
  );
}

/**
 * The user's files vault on this server, locked until the transaction ends on PostgreSQL (SQLite
 * write transactions are already exclusive), so a vault deleted meanwhile cannot gain a file.
 */
// Built once per kind ([Note: prepared queries] in db/prepared.ts): every record write runs it.
const lockVaultBy = (kind: 'sqlite' | 'postgres') =>
  prepared((db, a: { userId: string; vaultId: string }) => {
    const q = db
      .selectFrom('vaults')
      .select(['id', 'vault_type', 'provider_type', 'key_revision'])
      .where('id', '=', a.vaultId)
      .where('user_id', '=', a.userId);
    return kind === 'postgres' ? q.forUpdate() : q;
  });
const lockVaultOn = { sqlite: lockVaultBy('sqlite'), postgres: lockVaultBy('postgres') };

export async function lockVault(
  db: Q,
  kind: 'sqlite' | 'postgres',
  userId: string,
  vaultId: string,
) {
  return (await lockVaultOn[kind](db, { userId, vaultId }))[0];
}
