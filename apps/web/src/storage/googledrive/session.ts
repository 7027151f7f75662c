// A resumable upload session of Drive ("Upload file data", resumable upload), for drive.ts: the
// blob goes in chunks of whole 256 KiB units (Drive keeps the bytes of a non-final chunk only in
// such units), each PUT with Content-Range. Drive answers 308 with Range (what it holds) until
// the last byte, then the file. After a lost connection or a 5xx, a status query (Content-Range:
// bytes */total, no body) says what Drive holds, and the upload goes on from there rather than
// from the start of the chunk.
import type { PutOptions } from '../provider.ts';
import type { PieceReader } from '../server/pieces.ts';
import { backoff, cancelled, DriveError, driveError, MAX_TRIES, sleep, transient } from './api.ts';

/** The file resource Drive answers (fields=id,size,md5Checksum on an upload). */
export interface DriveFile {
  id: string;
  name?: string;
  size?: string;
  md5Checksum?: string;
}

/**
 * One PUT to a session URI (the URI is the credential: no token): a chunk, or a status query
 * when `bytes` is null. Answers the file once Drive has every byte, else how many it holds.
 */
async function sessionPut(
  uri: string,
  range: string,
  bytes: Uint8Array<ArrayBuffer> | null,
  signal?: AbortSignal,
): Promise<{ file: DriveFile } | { held: number }> {
  const res = await fetch(uri, {
    method: 'PUT',
    headers: { 'content-range': range },
    body: bytes,
    signal: signal ?? null,
  });
  if (res.status === 200 || res.status === 201) return { file: (await res.json()) as DriveFile };
  if (res.status !== 308) throw await driveError(res);
  const held = /^bytes=0-(\d+)$/.exec(res.headers.get('range') ?? '');
  return { held: held ? Number(held[1]) + 1 : 0 };
}

/** Sends every piece through the session, going on from what Drive holds after a failure. */
export async function sendChunks(
  uri: string,
  pieces: PieceReader,
  length: number,
  { signal, onProgress, onRetrying }: PutOptions,
): Promise<DriveFile> {
  let offset = 0; // bytes Drive holds
  let lost = false; // the last request failed: ask what Drive holds before sending more
  let failures = 0; // since Drive last took bytes
  for (let piece = await pieces.read(); piece; piece = await pieces.read()) {
    const start = offset;
    const end = start + piece.bytes.length;
    while (offset < end || lost) {
      signal?.throwIfAborted();
      let answer: Awaited<ReturnType<typeof sessionPut>>;
      try {
        answer = lost
          ? await sessionPut(uri, `bytes */${length}`, null, signal)
          : await sessionPut(
              uri,
              `bytes ${offset}-${end - 1}/${length}`,
              piece.bytes.subarray(offset - start),
              signal,
            );
      } catch (err) {
        if (signal?.aborted) throw cancelled(err);
        const lostConnection = err instanceof TypeError; // fetch's network error
        if ((!lostConnection && !transient(err)) || ++failures >= MAX_TRIES) throw err;
        lost = true;
        onRetrying?.(true);
        await sleep((err instanceof DriveError && err.waitMs) || backoff(failures), signal);
        continue;
      }
      if (lost) onRetrying?.(false);
      lost = false;
      if ('file' in answer) {
        if (end !== length) throw new Error('Drive finished the upload before its last chunk');
        return answer.file;
      }
      // Bytes before this piece are no longer in hand; Drive cannot hold more than was sent.
      if (answer.held < start || answer.held > end)
        throw new Error(`Drive holds ${answer.held} bytes, the upload is at ${start}..${end}`);
      if (answer.held > offset) failures = 0;
      offset = answer.held;
    }
    if (end < length) onProgress?.(end);
  }
  const last = await sessionPut(uri, `bytes */${length}`, null, signal);
  if ('file' in last) return last.file;
  throw new Error(`Drive holds ${last.held} of ${length} bytes after the last chunk`);
}
