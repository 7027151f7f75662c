// Putting a blob into a Drive vault folder ("Upload file data"): up to 5 MiB in one multipart
// request; larger ones through a resumable session in 8 MiB chunks (session.ts), which goes on
// from what Drive holds after a lost connection. A put refuses a name already in the folder
// rather than make a second file of that name, holds Drive's md5Checksum to the MD5 of what it
// sent (md5.ts), and leaves nothing behind when it fails.
import { blobName, sleep, backoff, ConnectionLost, MAX_TRIES, plainPieces } from '../cloud/http.ts';
import type { CallOptions } from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import { contentHashMismatch, type PutResult } from '../hashing.ts';
import type { PutOptions } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, texts } from './api.ts';
import { BLOB_MIME, idsOf, type DriveContext } from './context.ts';
import { named, remove } from './files.ts';
import { md5Tap } from './md5.ts';
import { sendChunks, type DriveFile } from './session.ts';
import { msg } from '../../i18n/i18n.ts';

/** The largest blob sent in one multipart request ("Upload file data": 5 MB or less). */
export const MULTIPART_MAX = 5 * 1024 * 1024;
/** Bytes per resumable chunk: a multiple of 256 KiB. */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** Drive's limit for one file. */
export const DRIVE_MAX_BYTES = 5 * 1024 ** 4;

/** What an upload's answer names: the file, its size and Drive's MD5 of its bytes. */
const FILE_FIELDS = 'id,size,md5Checksum';

interface Metadata {
  name: string;
  parents: string[];
  mimeType: string;
}

/** One multipart request; after a lost connection, a file the lost request made is taken. */
async function multipart(
  ctx: DriveContext,
  meta: Metadata,
  bytes: Uint8Array<ArrayBuffer>,
  opts: CallOptions,
) {
  const boundary = `sealvault-${crypto.randomUUID()}`;
  const body = new Blob([
    `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n`,
    JSON.stringify(meta),
    `\r\n--${boundary}\r\nContent-Type: ${BLOB_MIME}\r\n\r\n`,
    bytes,
    `\r\n--${boundary}--\r\n`,
  ]);
  const url = ctx.uploadUrl(`uploadType=multipart&fields=${FILE_FIELDS}`);
  const headers = { 'content-type': `multipart/related; boundary=${boundary}` };
  for (let attempt = 1; ; attempt++) {
    try {
      const init = { method: 'POST', headers, body };
      return await ctx.api.json<DriveFile>(url, init, { ...opts, retryLost: false });
    } catch (err) {
      if (!(err instanceof ConnectionLost) || attempt >= MAX_TRIES) throw err;
      opts.onRetrying?.(true);
      await sleep(backoff(attempt), opts.signal);
      const [made] = await named(ctx, meta.parents[0]!, meta.name, opts);
      if (made) {
        opts.onRetrying?.(false);
        return made;
      }
    }
  }
}

async function startSession(ctx: DriveContext, meta: Metadata, length: number, opts: CallOptions) {
  const res = await ctx.api.call(
    ctx.uploadUrl(`uploadType=resumable&fields=${FILE_FIELDS}`),
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-type': BLOB_MIME,
        'x-upload-content-length': String(length),
      },
      body: JSON.stringify(meta),
    },
    opts, // a retried start after a lost answer leaves at most an unused session
  );
  const uri = res.headers.get('location');
  if (!uri) throw new Error('Drive answered no upload session URI');
  return uri;
}

export async function putBlob(
  ctx: DriveContext,
  vaultId: string,
  blobId: string,
  length: number,
  source: ReadableStream<Uint8Array>,
  options: PutOptions = {},
): Promise<PutResult> {
  const { signal, onProgress, onRetrying } = options;
  const opts: CallOptions = {
    ...(signal ? { signal } : {}),
    ...(onRetrying ? { onRetrying } : {}),
  };
  const md5 = await md5Tap(source);
  const reader = md5.stream.getReader();
  const none = new Uint8Array(0);
  const pieces = plainPieces(reader, CHUNK_BYTES, length);
  let folder = '';
  let session: string | null = null;
  let file: DriveFile | null = null;
  let mayExist = false; // a request that can make the file was sent
  try {
    const name = blobName(blobId);
    folder = folderOf(vaultId);
    if (!Number.isSafeInteger(length) || length < 0 || length > DRIVE_MAX_BYTES)
      throw new Error(`Not a blob length: ${length}`);
    if ((await named(ctx, folder, name, opts)).length > 0)
      throw new Error(`A file named ${name} is already in the vault folder`);
    const meta: Metadata = { name, parents: [folder], mimeType: BLOB_MIME };
    if (length <= MULTIPART_MAX) {
      // piecesOf checks the source's length, except for 0 bytes: then it reads nothing.
      if (length === 0 && !(await reader.read()).done)
        throw new Error('The stream is longer than its declared length');
      const bytes = (await pieces.read())?.bytes ?? none;
      mayExist = true;
      file = await multipart(ctx, meta, bytes, opts);
    } else {
      session = await startSession(ctx, meta, length, opts);
      mayExist = true;
      file = await sendChunks(session, pieces, length, options);
    }
    if (Number(file.size) !== length)
      throw new Error(`Drive holds ${file.size ?? '?'} bytes of ${length}`);
    // The pieces read the source to its end (pieces.ts), so the MD5 is of every byte sent.
    if (file.md5Checksum !== md5.digest()) throw new StorageError('failed', contentHashMismatch);
    onProgress?.(length);
    signal?.throwIfAborted(); // aborted from onProgress: the put still leaves nothing
    idsOf(ctx, folder).set(name, file.id);
    return { ref: blobId, size: length };
  } catch (err) {
    await pieces.cancel();
    // Leaves nothing behind, with a short patience: the put has failed already.
    const quiet: CallOptions = { tries: 2 };
    if (session) await fetch(session, { method: 'DELETE' }).catch(() => undefined);
    if (file) await remove(ctx, file.id, quiet).catch(() => undefined);
    else if (mayExist) {
      const made = await named(ctx, folder, blobId, quiet).catch(() => []);
      for (const f of made) await remove(ctx, f.id, quiet).catch(() => undefined);
    }
    if (signal?.aborted || (err instanceof StorageError && err.code === 'aborted'))
      throw new StorageError('aborted', msg('Upload cancelled'), { cause: err });
    return fail(err, texts.uploadFailed);
  }
}
