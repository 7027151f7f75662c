// The share sweep (issue 29, [Note: share link data] in shares.repository.ts): a link past its
// expiry, a file link used up an hour ago (its last download token lives 10 minutes; the hour is
// the margin), and a secret or text link as soon as it is used up (its content went with the
// open) lose their data: the ciphertext columns are cleared, data_deleted_at is set and the blob
// is queued and deleted (the file sweep retries a deletion that fails, files/uploads.sweep.ts).
// The row stays SHARE_ROW_DAYS so its owner still sees the link as expired or used up, then goes.
//
// sweepShares is one pass at `now`, so tests call it directly; server.ts runs it as a periodic
// job (shareSweepJob) under its shared lock (jobs/periodic.ts). It logs counts only.
import type { PeriodicJob } from '../jobs/periodic.ts';
import { queueBlobDeletions } from '../files/blob-deletions.repository.ts';
import { purgeBlobs } from '../files/files.service.ts';
import type { SharesDeps } from './shares.service.ts';
import * as repo from './shares.repository.ts';

/** A used-up file link keeps its bytes this long (a download token's life, with margin). */
export const USED_UP_GRACE_MS = 3_600_000;
/** A link's row stays this long after its data went. */
export const SHARE_ROW_DAYS = 30;
export const SWEEP_BATCH_ROWS = 500;
export const SWEEP_MAX_BATCHES = 20;
const DAY_MS = 24 * 3_600_000;

/** Counts only: the pass's log line must not name a user or a link. */
export interface ShareSweepResult {
  /** Links whose data this pass deleted. */
  dataDeleted: number;
  /** Their blobs deleted now (a failure stays queued for the file sweep). */
  blobsDeleted: number;
  /** Rows removed SHARE_ROW_DAYS after their data. */
  rowsDeleted: number;
}

export async function sweepShares(
  deps: SharesDeps,
  now: Date = deps.now(),
  limits: { batch?: number; maxBatches?: number } = {},
): Promise<ShareSweepResult> {
  const batch = limits.batch ?? SWEEP_BATCH_ROWS;
  const maxBatches = limits.maxBatches ?? SWEEP_MAX_BATCHES;
  const db = deps.db.kysely;
  const at = now.toISOString();
  const usedUpCutoff = new Date(now.getTime() - USED_UP_GRACE_MS).toISOString();
  const result: ShareSweepResult = { dataDeleted: 0, blobsDeleted: 0, rowsDeleted: 0 };
  for (let round = 0; round < maxBatches; round += 1) {
    const ids = await repo.dueForDataDeletion(db, at, usedUpCutoff, batch);
    if (ids.length === 0) break;
    const keys = await db.transaction().execute(async (trx) => {
      const blobs = await repo.blobKeysOf(trx, ids);
      const cleared = await repo.clearData(trx, ids, at, usedUpCutoff);
      const keys = cleared.flatMap((id) => blobs.get(id) ?? []);
      await queueBlobDeletions(trx, keys, at);
      result.dataDeleted += cleared.length;
      return keys;
    });
    result.blobsDeleted += await purgeBlobs({ ...deps, now: () => now }, keys);
    if (ids.length < batch) break;
  }
  const rowCutoff = new Date(now.getTime() - SHARE_ROW_DAYS * DAY_MS).toISOString();
  result.rowsDeleted = await repo.deleteOldRows(db, rowCutoff);
  return result;
}

/** sweepShares as a periodic job (jobs/periodic.ts, started in server.ts beside the file sweep). */
export function shareSweepJob(
  deps: SharesDeps,
  intervalMs = 10 * 60_000,
): PeriodicJob<ShareSweepResult> {
  return {
    name: 'share sweep',
    intervalMs,
    run: () => sweepShares(deps, deps.now()),
    worthLogging: (result) => Object.values(result).some((n) => n > 0),
  };
}
