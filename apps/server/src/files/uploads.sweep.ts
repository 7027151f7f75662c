// The periodic file sweep (issue 6: abandoned uploads expire and are swept). It finishes uploads
// that a stopped process left half finished ([Note: recoverable finish] in uploads.finish.ts),
// removes uploads past their expiry (bytes, tus info, row and a half-finished one's blob), stray tus files without a row, queued blob
// deletions that are due, and interrupted blob writes. sweepFiles is one pass with the deps'
// clock, so tests call it directly; server.ts runs it as a periodic job (fileSweepJob).
import fsp from 'node:fs/promises';
import * as repo from './files.repository.ts';
import { purgeBlobs, type FilesDeps } from './files.service.ts';
import { finishStuckUploads } from './uploads.finish.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';

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

const TUS_FILE = /^([0-9a-f]{32})(?:\.json)?$/;

export async function sweepFiles(deps: FilesDeps): Promise<SweepResult> {
  const now = deps.now();
  const db = deps.db.kysely;
  const storage = deps.files;
  const cutoff = new Date(now.getTime() - deps.config.uploadExpiryHours * 3_600_000);

  const finished = await finishStuckUploads(deps, storage);

  const expired = await repo.expiredUploads(db, now.toISOString());
  for (const { id, state, blob_key } of expired) {
    // A half-finished upload's blob is no file's: due for deletion with the row gone.
    if (state === 'finishing' && blob_key) {
      await repo.queueBlobDeletions(db, [blob_key], now.toISOString());
    }
    await storage.uploads.discard(id);
    await repo.deleteUpload(db, id);
  }

  // tus files whose row is gone (a crash between two steps), once older than the expiry.
  const names = await fsp.readdir(storage.uploads.directory).catch(() => [] as string[]);
  const ids = [...new Set(names.flatMap((n) => TUS_FILE.exec(n)?.[1] ?? []))];
  const known = await repo.uploadIds(db, ids);
  let strayUploads = 0;
  for (const id of ids) {
    if (known.has(id)) continue;
    const path = storage.uploads.dataPath(id);
    const stats = await Promise.all(
      [fsp.stat(path), fsp.stat(`${path}.json`)].map((p) => p.catch(() => null)),
    );
    if (stats.every((s) => !s || s.mtime < cutoff)) {
      await storage.uploads.discard(id);
      strayUploads += 1;
    }
  }

  await repo.dropReferencedDeletions(db);
  return {
    finishedUploads: finished.finished,
    failedUploads: finished.failed,
    expiredUploads: expired.length,
    strayUploads,
    blobsDeleted: await purgeBlobs(deps),
    tempFiles: await storage.blobs.removeStaleTemp(cutoff),
  };
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
