// Rows of vault_files, file_uploads and blob_deletions. File queries are scoped by vault id
// (callers check that the vault is the user's first, files.service.ts); upload rows carry their
// owner, and uploads.routes.ts compares it on every tus request.
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
import type { Database, FileUploadsTable, VaultFilesTable } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

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

// ---- vault_files ----
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

// ---- file_uploads ----
export const insertUpload = (db: Q, row: FileUploadsTable) =>
  db.insertInto('file_uploads').values(row).execute();

export const findUpload = (db: Q, id: string) =>
  db.selectFrom('file_uploads').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Takes the claim on an upload to finish it: from the state and claim `from` that the caller read
 * (compare-and-swap, so of two racing requests one wins) to 'finishing' under `to`. A deferred
 * checksum given now is kept on the row, so that a later retry or the sweep can verify the bytes.
 */
export async function claimUpload(
  db: Q,
  id: string,
  from: { state: string; claim_id: string | null },
  to: { claim_id: string; claimed_at: string; checksum?: string },
): Promise<boolean> {
  let q = db
    .updateTable('file_uploads')
    .set({ state: 'finishing', ...to })
    .where('id', '=', id)
    .where('state', '=', from.state);
  q =
    from.claim_id === null
      ? q.where('claim_id', 'is', null)
      : q.where('claim_id', '=', from.claim_id);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Sets `values` on the upload if `claimId` still holds it; false when it lost the claim. */
export async function updateClaimed(
  db: Q,
  id: string,
  claimId: string,
  values: Partial<Pick<FileUploadsTable, 'state' | 'claim_id' | 'claimed_at' | 'blob_key'>>,
): Promise<boolean> {
  const res = await db
    .updateTable('file_uploads')
    .set(values)
    .where('id', '=', id)
    .where('claim_id', '=', claimId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes the upload if `claimId` still holds it. */
export const deleteClaimedUpload = (db: Q, id: string, claimId: string) =>
  db.deleteFrom('file_uploads').where('id', '=', id).where('claim_id', '=', claimId).execute();

/** Keeps a deferred checksum (the last PATCH's Upload-Final-Checksum) before its bytes arrive. */
export const keepDeferredChecksum = (db: Q, id: string, checksum: string) =>
  db
    .updateTable('file_uploads')
    .set({ checksum })
    .where('id', '=', id)
    .where('checksum', '=', '')
    .where('state', '=', 'receiving')
    .execute();

/** Unexpired uploads that may need finishing: 'finishing' ones, and 'receiving' ones with a checksum. */
export const uploadsToFinish = (db: Q, now: string) =>
  db
    .selectFrom('file_uploads')
    .selectAll()
    .where('expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'finishing'),
        eb.and([eb('state', '=', 'receiving'), eb('checksum', '!=', '')]),
      ]),
    )
    .execute();

/** How many unfinished, unexpired uploads the user has, and their declared bytes. */
export async function unfinishedUploadsOf(
  db: Q,
  userId: string,
  now: string,
): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('file_uploads')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('n'),
      eb.fn.sum<string | number | null>('upload_length').as('bytes'),
    ])
    .where('user_id', '=', userId)
    .where('state', '!=', 'done')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export const deleteUpload = (db: Q, id: string) =>
  db.deleteFrom('file_uploads').where('id', '=', id).execute();

export const expiredUploads = (db: Q, now: string) =>
  db
    .selectFrom('file_uploads')
    .select(['id', 'state', 'blob_key'])
    .where('expires_at', '<=', now)
    .execute();

/** Makes a vault's unfinished uploads expire now: refused from here on, and swept. */
export const expireUploadsOfVault = (db: Q, vaultId: string, now: string) =>
  db.updateTable('file_uploads').set({ expires_at: now }).where('vault_id', '=', vaultId).execute();

export async function uploadIds(db: Q, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('file_uploads').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

// ---- blob_deletions ----
export async function queueBlobDeletions(db: Q, keys: string[], deleteAfter: string) {
  if (keys.length === 0) return;
  await db
    .insertInto('blob_deletions')
    .values(keys.map((blob_key) => ({ blob_key, delete_after: deleteAfter })))
    .onConflict((oc) => oc.column('blob_key').doUpdateSet({ delete_after: deleteAfter }))
    .execute();
}

export async function unqueueBlobDeletions(db: Q, keys: string[]) {
  if (keys.length === 0) return;
  await db.deleteFrom('blob_deletions').where('blob_key', 'in', keys).execute();
}

/**
 * Drops queue entries whose blob a file record names: those blobs are in use, never deleted. A
 * purged record holds its blob no more (the trash purge queued it, files/trash.purge.ts).
 */
export async function dropReferencedDeletions(db: Q) {
  await db
    .deleteFrom('blob_deletions')
    .where(
      'blob_key',
      'in',
      db.selectFrom('vault_files').select('blob_key').where('purged_at', 'is', null),
    )
    .execute();
}

/** Queued keys due for deletion that no file record names (a record always wins, unless purged). */
export async function dueBlobDeletions(db: Q, now: string, keys?: string[]): Promise<string[]> {
  let q = db
    .selectFrom('blob_deletions as d')
    .select('d.blob_key')
    .where('d.delete_after', '<=', now)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('vault_files as f')
            .select('f.id')
            .whereRef('f.blob_key', '=', 'd.blob_key')
            .where('f.purged_at', 'is', null),
        ),
      ),
    )
    // nor an upload being finished (its bytes, verified and moved, waiting for the record)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('file_uploads as u')
            .select('u.id')
            .whereRef('u.blob_key', '=', 'd.blob_key')
            .where('u.state', '=', 'finishing'),
        ),
      ),
    );
  if (keys) {
    if (keys.length === 0) return [];
    q = q.where('d.blob_key', 'in', keys);
  }
  return (await q.execute()).map((r) => r.blob_key);
}
