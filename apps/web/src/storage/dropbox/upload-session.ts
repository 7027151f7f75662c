// Putting a blob into a Dropbox vault folder through an upload session (start, append_v2,
// finish) in 8 MiB requests, so any size works the same way. A lost connection retries the same
// piece (cloud/http.ts), and when the answer to a request Dropbox did get was lost, its
// incorrect_offset error (correct_offset) says where to go on from.
import { blobName, CloudError, plainPieces } from '../cloud/http.ts';
import { readerOf } from '../server/pieces.ts';
import { folderOf } from '../cloud/folders.ts';
import type { PutResult } from '../hashing.ts';
import type { PutOptions } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, texts, type DropboxApi } from './api.ts';
import { msg } from '../../i18n/i18n.ts';

/** Bytes per upload request: a multiple of 4 MiB, as Dropbox asks of session appends. */
export const PIECE_BYTES = 8 * 1024 * 1024;

export interface FileMetadata {
  '.tag': string;
  name: string;
  size?: number;
  content_hash?: string;
}

/** The correct_offset of an incorrect_offset error (409 lookup_failed), or null. */
export function correctOffset(err: unknown): number | null {
  if (!(err instanceof CloudError) || err.status !== 409) return null;
  const e = err.body.error as
    { correct_offset?: unknown; incorrect_offset?: { correct_offset?: unknown } } | undefined;
  const at = e?.correct_offset ?? e?.incorrect_offset?.correct_offset;
  return typeof at === 'number' ? at : null;
}

export async function putBlob(
  api: DropboxApi,
  vaultId: string,
  blobId: string,
  length: number,
  source: ReadableStream<Uint8Array>,
  options: PutOptions = {},
): Promise<PutResult> {
  const { signal, onProgress, onRetrying, contentTap } = options;
  const retryOpts = { ...(signal ? { signal } : {}), ...(onRetrying ? { onRetrying } : {}) };
  const none = new Uint8Array(0);
  // The pieces read the next one while this one is sent; the last one is known by the length.
  const pieces = plainPieces(readerOf(source), PIECE_BYTES, length, contentTap);
  try {
    const path = `${folderOf(vaultId)}/${blobName(blobId)}`;
    let sessionId = '';
    let offset = 0; // bytes of the blob Dropbox holds in the session
    for (let piece = await pieces.read(); ;) {
      signal?.throwIfAborted();
      const bytes = piece?.bytes ?? none;
      const last = offset + bytes.length >= length;
      let sent = 0; // of this piece
      for (;;) {
        const body = bytes.subarray(sent);
        try {
          if (!sessionId) {
            const r = await api.content(
              'files/upload_session/start',
              { close: false },
              last ? none : body,
              retryOpts,
            );
            sessionId = ((await r.json()) as { session_id: string }).session_id;
            if (last) continue; // the whole blob goes with finish
          } else if (!last) {
            await api.content(
              'files/upload_session/append_v2',
              { cursor: { session_id: sessionId, offset: offset + sent }, close: false },
              body,
              retryOpts,
            );
          } else {
            const r = await api.content(
              'files/upload_session/finish',
              {
                cursor: { session_id: sessionId, offset: offset + sent },
                commit: { path, mode: 'add', autorename: false, mute: true },
              },
              body,
              retryOpts,
            );
            const meta = (await r.json()) as FileMetadata;
            onProgress?.(length);
            if (meta.size !== length) {
              await api.rpc('files/delete_v2', { path }).catch(() => undefined);
              throw new StorageError('failed', `${texts.uploadFailed}: the stored size differs`);
            }
            return {
              ref: blobId,
              size: length,
              ...(meta.content_hash ? { providerHash: meta.content_hash } : {}),
            };
          }
          break;
        } catch (err) {
          const at = correctOffset(err);
          if (at !== null && at >= offset + sent && at <= offset + bytes.length) {
            sent = at - offset;
            if (sent === bytes.length && !last) break; // Dropbox has all of this piece
            continue;
          }
          throw err;
        }
      }
      offset += bytes.length;
      onProgress?.(offset);
      piece = await pieces.read();
    }
  } catch (err) {
    await pieces.cancel().catch(() => undefined);
    if (signal?.aborted || (err instanceof StorageError && err.code === 'aborted'))
      throw new StorageError('aborted', msg('Upload cancelled'), { cause: err });
    return fail(err, texts.uploadFailed);
  }
}
