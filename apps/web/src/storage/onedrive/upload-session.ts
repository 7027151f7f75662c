// Putting a blob into a OneDrive vault folder through an upload session (Graph's
// driveItem: createUploadSession, "Upload large files with an upload session"): the session is
// made on Graph with the token, and the bytes go to its pre-authenticated upload URL on a content
// host without it, in fragments of whole 320 KiB units (OneDrive's rule for every fragment but the
// last), in order, each with Content-Range. OneDrive answers 202 with nextExpectedRanges until the
// last byte, then the item. After a lost connection, a 5xx, a 429 or a refused range, the session's
// status (GET on the upload URL) says what OneDrive holds, and the upload goes on from there.
// The quickXorHash of what was sent (quickxor.ts) must be the item's, or the copy is removed and
// the put fails. A 0-byte blob, which a session cannot carry, is one PUT of /content.
import {
  backoff,
  blobName,
  cancelled,
  CloudError,
  ConnectionLost,
  MAX_TRIES,
  plainPieces,
  sleep,
} from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import { contentHashMismatch, type PutResult } from '../hashing.ts';
import type { PutOptions } from '../provider.ts';
import { StorageError } from '../provider.ts';
import type { PieceReader } from '../server/pieces.ts';
import { fail, texts, type OneDriveApi } from './api.ts';
import { itemOf, itemPath, removeItem, type DriveItem } from './files.ts';
import { QuickXorHash } from './quickxor.ts';
import { msg } from '../../i18n/i18n.ts';

/** OneDrive's unit: every fragment but the last is a multiple of 320 KiB. */
export const FRAGMENT_UNIT = 320 * 1024;
/** Bytes per fragment: 12 units (3.75 MiB), well under the 60 MiB a fragment may hold. */
export const FRAGMENT_BYTES = 12 * FRAGMENT_UNIT;
/** OneDrive's limit for one file (250 GB). */
export const ONEDRIVE_MAX_BYTES = 250 * 1000 ** 3;

/** The first byte OneDrive still expects ("12345-" or "12345-67890"), or null when none. */
export function nextOffset(ranges: unknown): number | null {
  if (!Array.isArray(ranges) || ranges.length === 0) return null;
  const m = /^(\d+)-(\d*)$/.exec(String(ranges[0]));
  return m ? Number(m[1]) : null;
}

/** The Content-Range of bytes [from, to) of a `total`-byte upload. */
export const contentRange = (from: number, to: number, total: number) =>
  `bytes ${from}-${to - 1}/${total}`;

/** What one PUT or status query answered: the item once complete, else the next offset. */
type Answer = { item: DriveItem } | { at: number };

async function answerOf(res: Response): Promise<Answer> {
  const body = (await res.json()) as DriveItem & { nextExpectedRanges?: unknown };
  if (res.status === 200 || res.status === 201) {
    if (typeof body.id === 'string' && body.file) return { item: body };
  }
  const at = nextOffset(body.nextExpectedRanges);
  if (at === null) throw new Error(`OneDrive answered ${res.status} without a next range`);
  return { at };
}

/**
 * Whether a failed fragment is worth asking the session about: a lost connection, a refused range,
 * 429 or a 5xx; not a refusal of the upload, nor a full drive (507 quotaLimitReached).
 */
const recoverable = (err: unknown) =>
  err instanceof ConnectionLost ||
  (err instanceof CloudError &&
    err.status !== 507 &&
    (err.status === 416 || err.status === 429 || err.status >= 500));

/** Sends every piece to the upload URL, going on from what OneDrive holds after a failure. */
export async function sendFragments(
  api: OneDriveApi,
  uploadUrl: string,
  pieces: PieceReader,
  length: number,
  hash: QuickXorHash,
  { signal, onProgress, onRetrying }: PutOptions,
): Promise<DriveItem | 'gone'> {
  const once = { ...(signal ? { signal } : {}), retryLost: false, tries: 1 };
  let offset = 0; // bytes OneDrive holds
  let failures = 0; // since OneDrive last took bytes
  let lost = false; // ask the session's status before sending more
  for (let piece = await pieces.read(); piece; piece = await pieces.read()) {
    hash.update(piece.bytes);
    const start = offset;
    const end = start + piece.bytes.length;
    while (offset < end || lost) {
      signal?.throwIfAborted();
      let answer: Answer;
      try {
        const res = lost
          ? await api.content(uploadUrl, {}, once)
          : await api.content(
              uploadUrl,
              {
                method: 'PUT',
                headers: { 'content-range': contentRange(offset, end, length) },
                body: piece.bytes.subarray(offset - start),
              },
              once,
            );
        answer = await answerOf(res);
      } catch (err) {
        if (signal?.aborted) throw cancelled(err);
        // The session is gone after a lost answer to the last fragment: it may have completed.
        if (lost && err instanceof CloudError && err.status === 404 && end === length)
          return 'gone';
        if (!recoverable(err) || ++failures >= MAX_TRIES) throw err;
        lost = true;
        onRetrying?.(true);
        await sleep((err instanceof CloudError && err.waitMs) || backoff(failures), signal);
        continue;
      }
      if (lost) onRetrying?.(false);
      lost = false;
      if ('item' in answer) {
        if (end !== length) throw new Error('OneDrive completed the upload before its last byte');
        return answer.item;
      }
      // Bytes before this piece are no longer in hand; OneDrive cannot hold more than was sent.
      if (answer.at < start || answer.at > end)
        throw new Error(`OneDrive expects byte ${answer.at}, the upload is at ${start}..${end}`);
      if (answer.at > offset) failures = 0;
      offset = answer.at;
    }
    if (end < length) onProgress?.(end);
  }
  throw new Error('OneDrive did not complete the upload after its last byte');
}

export async function putBlob(
  api: OneDriveApi,
  vaultId: string,
  blobId: string,
  length: number,
  source: ReadableStream<Uint8Array>,
  options: PutOptions = {},
): Promise<PutResult> {
  const { signal } = options;
  const opts = signal ? { signal } : {};
  const reader = source.getReader();
  const pieces = plainPieces(reader, FRAGMENT_BYTES, length);
  const hash = new QuickXorHash();
  let path = '';
  let uploadUrl: string | null = null;
  let mayExist = false; // a request that can make the file was sent
  try {
    path = itemPath(folderOf(vaultId), blobName(blobId));
    if (!Number.isSafeInteger(length) || length < 0 || length > ONEDRIVE_MAX_BYTES)
      throw new Error(`Not a blob length: ${length}`);
    let item: DriveItem | null;
    if (length === 0) {
      if (!(await reader.read()).done)
        throw new Error('The stream is longer than its declared length');
      mayExist = true;
      item = await api.json<DriveItem>(
        `${path}/content?@microsoft.graph.conflictBehavior=fail`,
        {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: new Uint8Array(0),
        },
        { ...opts, retryLost: false },
      );
    } else {
      const session = await api.json<{ uploadUrl?: string }>(
        `${path}/createUploadSession`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // A blob name is never reused: a second file of the name is refused, not replaced.
          body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'fail' } }),
        },
        opts, // a retried create after a lost answer leaves at most an unused session
      );
      if (!session.uploadUrl) throw new Error('OneDrive answered no upload URL');
      uploadUrl = session.uploadUrl;
      mayExist = true;
      const sent = await sendFragments(api, uploadUrl, pieces, length, hash, options);
      uploadUrl = null; // complete (or gone): nothing to cancel
      item = sent === 'gone' ? await itemOf(api, folderOf(vaultId), blobId, signal) : sent;
    }
    if (!item) throw new Error('The upload ended without the file');
    if (item.size !== length)
      throw new Error(`OneDrive holds ${item.size ?? '?'} bytes of ${length}`);
    // [Note: content hash] is ours; OneDrive's own hash of the same bytes must agree too.
    const theirs = item.file?.hashes?.quickXorHash;
    if (theirs !== undefined && theirs !== hash.base64())
      throw new StorageError('failed', contentHashMismatch);
    options.onProgress?.(length);
    signal?.throwIfAborted(); // aborted from onProgress: the put still leaves nothing
    return { ref: blobId, size: length };
  } catch (err) {
    await pieces.cancel().catch(() => undefined);
    // Leaves nothing behind, with a short patience: the put has failed already.
    if (uploadUrl)
      await api.content(uploadUrl, { method: 'DELETE' }, { tries: 1 }).catch(() => undefined);
    // A 409 is a file of that name made by someone else: it is not ours to remove.
    const conflict = err instanceof CloudError && err.status === 409;
    if (mayExist && path && !conflict)
      await removeItem(api, path, { tries: 2 }).catch(() => undefined);
    if (signal?.aborted || (err instanceof StorageError && err.code === 'aborted'))
      throw new StorageError('aborted', msg('Upload cancelled'), { cause: err });
    return fail(err, texts.uploadFailed);
  }
}
