// Finishing an upload: its last byte has arrived, so verify its content hash, move the bytes into
// the BlobStore and create the vault_files row (ADR 0004). [Note: recoverable finish] The process
// may stop at any point of it (kill -9, a full disk), and the upload must then neither answer 409
// forever nor lose a file that was complete. Every step leaves its progress on the file_uploads
// row, so that the next attempt resumes from it:
//   receiving --claim--> finishing --bytes verified: blob_key, then moved--> done (record exists)
// - The claim (claim_id, claimed_at) is a compare-and-swap, so one request finishes an upload at
//   a time; the deferred checksum [Note: deferred checksum in uploads.ts] is kept on the row with it.
// - A claim may be taken over when no request of this process holds it and it was made by
//   another process (one that stopped: the tus lock is in memory, so one process serves an upload,
//   ADR 0004) or is older than FINISH_LEASE_MS. The client's retry (HEAD or PATCH, uploads.routes.ts)
//   and the sweep (uploads.sweep.ts, also at start-up) do so and resume.
// - Once the bytes are verified, the blob's key is chosen (BlobStore.newKey) and written to the row
//   as blob_key (with a queued deletion, in case the upload fails for good) BEFORE the bytes move
//   under it, so a stop at any point leaves them findable: a resumed attempt finds the blob under
//   blob_key and skips to the record, or finds the bytes still in the tus store, verifies them
//   again and moves them under the same key. (Naming the key after the move lost complete
//   uploads to a kill -9 in between, and left their blobs with no row naming them: the fault
//   tier, apps/server/faults/kill.test.ts, hit it every round.) Only bytes gone from both places
//   fail the upload (410).
// - The record's transaction also marks the row 'done'; the row stays until its expiry, so a retry
//   of the last request (whose answer was lost) is told that the upload is complete.
// - A definite failure (checksum, vault gone, duplicate, bytes lost) removes the row, the blob and
//   the tus files; any other error (I/O, the database) releases the claim and keeps the progress.
// - On a full disk the release itself may not reach the database: the claim is then marked
//   abandoned in this process (FileStorage.abandonedClaims), so that the next HEAD, PATCH, DELETE
//   or sweep may take it at once rather than after FINISH_LEASE_MS or a restart, and the finishing
//   is tried again in the background (retryAfterFullDisk) until it succeeds or fails for good; a
//   DELETE of an upload left so cancels it (cancelFinishing).
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { BlobKey } from '../blobs/blob-store.ts';
import type { FileUploadsTable } from '../db/schema.ts';
import { contentHashOfStream } from './content-hash.ts';
import { queueBlobDeletions, unqueueBlobDeletions } from './blob-deletions.repository.ts';
import {
  claimUpload,
  deleteClaimedUpload,
  findUpload,
  updateClaimed,
} from './uploads.repository.ts';
import type { FilesDeps } from './files.service.ts';
import { recordMoveCopy, sha256Of } from './uploads.move.ts';
import { recordFile } from './uploads.record.ts';
import { isDiskFull } from '../http/disk-full.ts';
import { CHECKSUM_MISMATCH_STATUS, texts, TusHttpError } from './uploads.errors.ts';
import type { FileStorage, UploadScope } from './uploads.ts';

/** A claim older than this may be taken over even from this process (it lost track of it). */
export const FINISH_LEASE_MS = 10 * 60_000;
const HEX64 = /^[0-9a-f]{64}$/;

type UploadRow = Selectable<FileUploadsTable>;

/** The claim was taken over by another attempt: leave the upload to it. */
class LostClaim extends Error {
  override name = 'LostClaim';
}
const busy = () => new TusHttpError(423, 'conflict', texts.busy);
const lost = () => new TusHttpError(410, 'not_found', texts.uploadLost);

/** Whether this process may take the claim on `row` now [Note: recoverable finish]. */
export function mayClaim(row: UploadRow, storage: FileStorage, now: Date): boolean {
  if (row.state === 'receiving') return true;
  if (row.state !== 'finishing' || storage.finishing.has(row.id)) return false;
  if (!row.claim_id || !row.claimed_at) return true; // released after a failure
  if (storage.abandonedClaims.has(row.claim_id)) return true; // its release met a full disk
  if (!row.claim_id.startsWith(`${storage.instance}.`)) return true; // a process that stopped
  return new Date(row.claimed_at).getTime() <= now.getTime() - FINISH_LEASE_MS;
}

/** Whether every declared byte of a 'receiving' upload is in the tus store. */
export async function bytesComplete(storage: FileStorage, row: UploadRow): Promise<boolean> {
  const received = await storage.uploads.received(row.id);
  return received?.size === Number(row.upload_length);
}

/**
 * Finishes upload `id` (the tus onUploadFinish hook, a retry, the sweep): resolves once its file
 * record exists, at once if it already does. Throws a TusHttpError with the client's answer: 423
 * while another request finishes it, or a definite failure, after which nothing of it is left.
 */
export async function finishUpload(
  scope: UploadScope,
  id: string,
  finalChecksum: string | null = null,
): Promise<void> {
  const { deps, storage } = scope;
  const db = deps.db.kysely;
  // Every byte is in: nothing more to reserve [Note: space reservations in reservations.ts].
  storage.reservations.release(id);
  const row = await findUpload(db, id);
  if (!row) throw new TusHttpError(404, 'not_found', texts.uploadNotFound);
  if (row.state === 'done') return;
  if (!mayClaim(row, storage, deps.now())) throw busy();
  const claimId = `${storage.instance}.${randomBytes(8).toString('hex')}`;
  const keep = !row.checksum && finalChecksum !== null && HEX64.test(finalChecksum);
  const claimed = await claimUpload(db, id, row, {
    claim_id: claimId,
    claimed_at: deps.now().toISOString(),
    ...(keep ? { checksum: finalChecksum } : {}),
  }).catch((err: unknown) => {
    if (isDiskFull(err)) retryAfterFullDisk(scope, id);
    throw err;
  });
  if (!claimed) throw busy();
  if (row.claim_id) storage.abandonedClaims.delete(row.claim_id);
  storage.finishing.add(id);

  const expected = row.checksum || finalChecksum;
  let key = row.blob_key as BlobKey | null;
  const size = Number(row.upload_length);
  try {
    const blob = key ? await storage.blobs.stat(key) : null;
    if (key && blob) {
      // Verified and moved by an attempt that stopped: the blob must be whole.
      if (blob.size !== size) throw lost();
    } else {
      // Not moved yet (or the stop came before the move): the bytes are in the tus store.
      const disagree = !!row.checksum && finalChecksum !== null && finalChecksum !== row.checksum;
      const digest =
        row.mode === 'move-sha256'
          ? await sha256Of(storage, id)
          : await contentHashOf(storage, id, size);
      if (!expected || disagree || digest !== expected) {
        throw new TusHttpError(CHECKSUM_MISMATCH_STATUS, 'bad_request', texts.checksumMismatch);
      }
      key ??= await nameBlob(deps, id, claimId, storage.blobs.newKey());
      await storage.uploads.moveToBlob(id, storage.blobs, key);
    }
    // The record, in one transaction with the row's move to 'done' (only under our claim).
    const claimDone = async (trx: Parameters<typeof updateClaimed>[0]) => {
      const done = { state: 'done', claim_id: null, claimed_at: null, blob_key: key };
      if (!(await updateClaimed(trx, row.id, claimId, done))) throw new LostClaim();
    };
    // Issue 27: the copy of an existing file, recorded as its vault's move item (uploads.move.ts).
    if (row.mode) await recordMoveCopy(deps, row, claimDone, key, size, expected ?? '');
    else await recordFile(deps, row, claimDone, key, size, expected ?? '');
  } catch (err) {
    storage.finishing.delete(id);
    if (err instanceof LostClaim) throw busy();
    if (err instanceof TusHttpError) {
      await failUpload(deps, storage, id, claimId, key);
      throw err;
    }
    const released = await updateClaimed(db, id, claimId, {
      claim_id: null,
      claimed_at: null,
    }).catch(() => false);
    if (!released) storage.abandonedClaims.add(claimId);
    if (isDiskFull(err)) retryAfterFullDisk(scope, id);
    throw err;
  }
  storage.finishing.delete(id);
  storage.finishRetries.delete(id);
  deps.metrics?.uploadFinished(size);
  // The tus info file; the bytes belong to the blob now. Left behind, the sweep removes it.
  await storage.uploads.discard(id).catch(() => undefined);
}

/**
 * Writes the key the bytes are about to move under to the row (still under our claim), with its
 * deletion queued an hour ahead: should the upload fail for good or its row expire, the queue
 * removes the blob; the record unqueues it.
 */
async function nameBlob(
  deps: FilesDeps,
  id: string,
  claimId: string,
  key: BlobKey,
): Promise<BlobKey> {
  const inAnHour = new Date(deps.now().getTime() + 3_600_000).toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (!(await updateClaimed(trx, id, claimId, { blob_key: key }))) throw new LostClaim();
    await queueBlobDeletions(trx, [key], inAnHour);
  });
  return key;
}

/** [Note: running hash]: the block hashes of the PATCHes, else the stored file read again. */
async function contentHashOf(storage: FileStorage, id: string, size: number): Promise<string> {
  const running = storage.uploads.takeContentHash(id, size);
  if (running) return running;
  const received = await storage.uploads.received(id);
  if (received?.size !== size) throw lost(); // gone from the tus store and not under the blob's key
  return contentHashOfStream(storage.uploads.bytesOf(id));
}

/** A definite failure: the row (if still ours), then its blob and tus files. */
async function failUpload(
  deps: FilesDeps,
  storage: FileStorage,
  id: string,
  claimId: string,
  key: BlobKey | null,
): Promise<void> {
  const db = deps.db.kysely;
  const [res] = await deleteClaimedUpload(db, id, claimId);
  if (Number(res?.numDeletedRows ?? 0) === 0) return; // another attempt has it now
  storage.reservations.release(id);
  storage.finishRetries.delete(id);
  if (key) {
    await storage.blobs.delete(key);
    await unqueueBlobDeletions(db, [key]);
  }
  await storage.uploads.discard(id);
}

/**
 * A DELETE of an upload left 'finishing' that no attempt holds (its finishing failed, or a process
 * stopped): takes the claim and removes the upload as a definite failure does (row, named blob,
 * tus files). False if an attempt holds it: the caller answers 409 as for any upload being
 * completed.
 */
export async function cancelFinishing(
  deps: FilesDeps,
  storage: FileStorage,
  row: UploadRow,
): Promise<boolean> {
  if (row.state !== 'finishing' || !mayClaim(row, storage, deps.now())) return false;
  const claimId = `${storage.instance}.${randomBytes(8).toString('hex')}`;
  const to = { claim_id: claimId, claimed_at: deps.now().toISOString() };
  if (!(await claimUpload(deps.db.kysely, row.id, row, to))) return false;
  if (row.claim_id) storage.abandonedClaims.delete(row.claim_id);
  await failUpload(deps, storage, row.id, claimId, row.blob_key as BlobKey | null);
  return true;
}

/** The delays between background attempts to finish an upload after a full disk, then the last. */
const FULL_DISK_RETRY_MS = [5_000, 10_000, 20_000, 30_000];
/** Background attempts after a full disk before leaving the upload to the sweep (about an hour). */
const FULL_DISK_RETRIES = 120;

/**
 * [Note: recoverable finish] An attempt met a full disk: try again in the background, backing off
 * to every 30 s, so that the file appears soon after space returns even if the client gave up.
 * One timer per upload; it stops once the upload is finished, gone, or failed for good, or held by
 * another attempt, and after FULL_DISK_RETRIES (the sweep goes on from there). The timer does not
 * keep the process alive.
 */
function retryAfterFullDisk(scope: UploadScope, id: string): void {
  const { storage } = scope;
  const retry = storage.finishRetries.get(id) ?? { failures: 0, timer: null };
  retry.failures += 1;
  storage.finishRetries.set(id, retry);
  if (retry.timer) return; // an attempt is already waiting
  if (retry.failures > FULL_DISK_RETRIES) {
    storage.finishRetries.delete(id);
    return;
  }
  const delay = FULL_DISK_RETRY_MS[Math.min(retry.failures, FULL_DISK_RETRY_MS.length) - 1];
  retry.timer = setTimeout(() => {
    retry.timer = null;
    if (storage.finishRetries.get(id) !== retry) return; // finished or cancelled meanwhile
    finishUpload(scope, id).then(
      () => storage.finishRetries.delete(id),
      (err: unknown) => {
        if (isDiskFull(err)) return; // the failed attempt has scheduled the next one
        storage.finishRetries.delete(id);
        if (!(err instanceof TusHttpError)) {
          scope.deps.logger.warn(
            { err: err instanceof Error ? err.message : 'unknown' },
            'finishing an upload failed',
          );
        }
      },
    );
  }, delay);
  retry.timer.unref();
}
