// Rows of blob_deletions: blobs queued for deletion in the transaction that lets go of them, and
// deleted once due (files.service.ts purgeBlobs, retried by uploads.sweep.ts; docs/adr/0004). A
// blob a live file record names, or an upload being finished holds, is never due. Split from
// files.repository.ts (vault_files).
import type { Q } from './files.repository.ts';

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
