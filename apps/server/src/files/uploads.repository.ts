// Rows of file_uploads: one per tus upload, from its creation to its file record (uploads.ts,
// uploads.finish.ts) or its expiry (uploads.sweep.ts). Upload rows carry their owner, and
// uploads.routes.ts compares it on every tus request; a finish takes the row's claim first, so
// that of two attempts one goes on (claimUpload). Split from files.repository.ts (vault_files).
import type { FileUploadsTable } from '../db/schema.ts';
import type { Q } from './files.repository.ts';

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
