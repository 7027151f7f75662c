// The trash purge (issue 28, [Note: trash] in the protocol's files.ts): the data of every record
// trashed TRASH_DAYS days ago goes for good. A record whose blob is on this server loses it and
// gets `purged_at`; a record a vault's provider holds only gets `purged_at`, and the browser
// deletes the provider's copy and the record the next time the vault is open (the server never
// reaches a provider). A row's blob is here exactly when its vault's provider is our server
// ([Note: provider-held files] in files.repository.ts); the row says so as it is marked, so a
// move's switch cannot slip between the look-up and the deletion. No record is ever deleted
// here: the browser deletes it, so the vault's manifest stays its own.
//
// Each batch is marked in one transaction that also queues the blobs (as a file's deletion
// does), and the blobs are deleted after it commits; a deletion that fails stays queued for the
// file sweep (uploads.sweep.ts), which no longer counts a purged record as holding its blob. A
// record taken out of the trash meanwhile is not marked (markPurged checks again). purgeTrash is
// one pass at `now`, so tests call it directly; server.ts runs it as a periodic job
// (trashPurgeJob) under its shared lock (jobs/periodic.ts).
import { TRASH_DAYS } from '@sealvault/protocol';
import type { PeriodicJob } from '../jobs/periodic.ts';
import * as repo from './files.repository.ts';
import { queueBlobDeletions } from './blob-deletions.repository.ts';
import { purgeBlobs, type FilesDeps } from './files.service.ts';
import * as trash from './trash.repository.ts';

/** Records marked in one transaction. */
export const PURGE_BATCH_ROWS = 500;
/** Batches in one pass at most, so that a long backlog does not hold the job's lock for long. */
export const PURGE_MAX_BATCHES = 20;
const DAY_MS = 24 * 3_600_000;

/** Counts only: the pass's log line must not name a user or a file. */
export interface TrashPurgeResult {
  /** Records of this server whose blob went (deleted now, or queued for the sweep). */
  purged: number;
  /** Records a vault's provider holds: marked for the browser to delete. */
  marked: number;
  /** Blobs this pass deleted. */
  blobsDeleted: number;
}

export async function purgeTrash(
  deps: FilesDeps,
  now: Date = deps.now(),
  limits: { batch?: number; maxBatches?: number } = {},
): Promise<TrashPurgeResult> {
  const batch = limits.batch ?? PURGE_BATCH_ROWS;
  const maxBatches = limits.maxBatches ?? PURGE_MAX_BATCHES;
  const db = deps.db.kysely;
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - TRASH_DAYS * DAY_MS).toISOString();
  const atNow: FilesDeps = { ...deps, now: () => now };
  const result: TrashPurgeResult = { purged: 0, marked: 0, blobsDeleted: 0 };
  for (let round = 0; round < maxBatches; round += 1) {
    const ids = await trash.dueForPurge(db, cutoff, batch);
    if (ids.length === 0) break;
    const { count, keys } = await db.transaction().execute(async (trx) => {
      const rows = await trash.markPurged(trx, ids, cutoff, at);
      const keys = rows.flatMap((r) => repo.blobKeyOf(r) ?? []);
      await queueBlobDeletions(trx, keys, at);
      return { count: rows.length, keys };
    });
    result.purged += keys.length;
    result.marked += count - keys.length;
    result.blobsDeleted += await purgeBlobs(atNow, keys);
    if (ids.length < batch) break;
  }
  return result;
}

/** purgeTrash as a periodic job (jobs/periodic.ts, started in server.ts beside the file sweep). */
export function trashPurgeJob(
  deps: FilesDeps,
  intervalMs = 10 * 60_000,
): PeriodicJob<TrashPurgeResult> {
  return {
    name: 'trash purge',
    intervalMs,
    run: () => purgeTrash(deps, deps.now()),
    worthLogging: (result) => Object.values(result).some((n) => n > 0),
  };
}
