// The periodic file sweep (issue 6: abandoned uploads expire and are swept). It finishes uploads
// that a stopped process left half finished ([Note: recoverable finish] in uploads.finish.ts),
// removes uploads past their expiry (bytes, tus info, row and a half-finished one's blob), stray tus files without a row, queued blob
// deletions that are due, and interrupted blob writes. sweepFiles is one pass with the deps'
// clock, so tests call it directly; server.ts runs it as a periodic job (fileSweepJob).
import { dropReferencedDeletions, queueBlobDeletions } from './blob-deletions.repository.ts';
import { deleteUpload, expiredUploads, uploadIds, uploadsToFinish } from './uploads.repository.ts';
import { purgeBlobs, type FilesDeps } from './files.service.ts';
import { finishUpload, mayClaim } from './uploads.finish.ts';
import { TusHttpError } from './uploads.errors.ts';
import type { FileStorage } from './uploads.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';

/** The sweep finishes a complete 'receiving' upload only once its bytes are this old. */
const SWEEP_QUIET_MS = 60_000;

export interface SweepResult {
  /** Uploads a stopped process left unfinished, now files. */
  finishedUploads: number;
  /** Such uploads that could not become files (checksum, vault gone, bytes lost): removed. */
  failedUploads: number;
  expiredUploads: number;
  strayUploads: number;
  blobsDeleted: number;
  tempFiles: number;
}

export async function sweepFiles(deps: FilesDeps): Promise<SweepResult> {
  const now = deps.now();
  const db = deps.db.kysely;
  const storage = deps.files;
  const cutoff = new Date(now.getTime() - deps.config.uploadExpiryHours * 3_600_000);

  const finished = await finishStuckUploads(deps, storage);

  const expired = await expiredUploads(db, now.toISOString());
  for (const { id, state, blob_key } of expired) {
    // A half-finished upload's blob is no file's: due for deletion with the row gone.
    if (state === 'finishing' && blob_key) {
      await queueBlobDeletions(db, [blob_key], now.toISOString());
    }
    await storage.uploads.discard(id);
    await deleteUpload(db, id);
    storage.reservations.release(id); // [Note: space reservations] in reservations.ts
    storage.finishRetries.delete(id);
  }

  // Uploads in the tus store whose row is gone (a crash between two steps), once older than the
  // expiry.
  const held = await storage.uploads.held();
  const known = await uploadIds(
    db,
    held.map((h) => h.id),
  );
  let strayUploads = 0;
  for (const { id, mtime } of held) {
    if (known.has(id) || mtime >= cutoff) continue;
    await storage.uploads.discard(id);
    strayUploads += 1;
  }

  await dropReferencedDeletions(db);
  return {
    finishedUploads: finished.finished,
    failedUploads: finished.failed,
    expiredUploads: expired.length,
    strayUploads,
    blobsDeleted: await purgeBlobs(deps),
    tempFiles: await storage.blobs.removeStaleTemp(cutoff),
  };
}

/**
 * The sweep's part [Note: recoverable finish]: finishes uploads that a stopped process left
 * 'finishing', and complete 'receiving' ones whose last request ended before it claimed them.
 * Returns how many became files and how many failed for good.
 */
async function finishStuckUploads(
  deps: FilesDeps,
  storage: FileStorage,
): Promise<{ finished: number; failed: number }> {
  const now = deps.now();
  const result = { finished: 0, failed: 0 };
  for (const row of await uploadsToFinish(deps.db.kysely, now.toISOString())) {
    if (!mayClaim(row, storage, now)) continue;
    if (row.state === 'receiving') {
      const received = await storage.uploads.received(row.id);
      const quiet = received && received.mtime.getTime() <= now.getTime() - SWEEP_QUIET_MS;
      if (!quiet || received.size !== Number(row.upload_length)) continue;
    }
    try {
      await finishUpload({ deps, storage, userId: row.user_id }, row.id);
      result.finished += 1;
    } catch (err) {
      if (err instanceof TusHttpError && err.status_code !== 423) result.failed += 1;
      else {
        deps.logger.warn(
          { err: err instanceof Error ? err.message : 'unknown' },
          'finishing an upload failed',
        );
      }
    }
  }
  return result;
}

/** sweepFiles as a periodic job (jobs/periodic.ts, started in server.ts). */
export function fileSweepJob(deps: FilesDeps, intervalMs = 10 * 60_000): PeriodicJob<SweepResult> {
  return {
    name: 'file sweep',
    intervalMs,
    run: () => sweepFiles(deps),
    worthLogging: (result) => Object.values(result).some((n) => n > 0),
  };
}
