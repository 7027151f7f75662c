// The Dropbox provider (issue 16; docs/product.md §7 "File-hosting service"): ciphertext blobs in the
// vault's folder of the user's Dropbox, called straight from the browser with the token of
// cloud/connections.ts. Blobs are named by their blob id, which is also their reference.
// - Uploads go through an upload session (start, append_v2, finish) in 8 MiB requests, so any
//   size works the same way; a lost connection retries the same piece, and Dropbox's
//   incorrect_offset answer (its correct_offset) says where to go on from.
// - Downloads and ranges: files/download with a Range header.
// - Dropbox's rules: arguments of content calls go in the Dropbox-API-Arg header as JSON with
//   every non-ASCII character escaped (\uXXXX); 409 answers carry an error_summary; 429 and 503
//   say how long to wait in Retry-After; an expired token is renewed once with the refresh token.
import { messages } from '@sealvault/protocol';
import { connections } from '../cloud/connections.ts';
import { folderOf } from '../cloud/folders.ts';
import type { HashlessProvider, PutResult } from '../hashing.ts';
import type { BlobInfo, Capabilities, PutOptions, Quota } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { piecesOf } from '../server/pieces.ts';
import { refreshDropbox, type DropboxSettings } from './auth.ts';

export const texts = {
  notConnected: 'Dropbox not connected',
  uploadFailed: 'Failed to upload to Dropbox',
  downloadFailed: 'Failed to download from Dropbox',
  full: 'Your Dropbox is full. Free some space there or choose another storage provider.',
  failed: 'Dropbox did not answer as expected. Please try again.',
};

/** Bytes per upload request: a multiple of 4 MiB, as Dropbox asks of session appends. */
export const PIECE_BYTES = 8 * 1024 * 1024;
const MAX_TRIES = 5;

/** JSON safe for an HTTP header: every character outside ASCII as \uXXXX (Dropbox's rule). */
export const headerJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A Dropbox answer that is not a success, with its error_summary where it has one. */
class DropboxError extends Error {
  constructor(
    readonly status: number,
    readonly summary: string,
    readonly body: Record<string, unknown>,
  ) {
    super(`Dropbox ${status}: ${summary}`);
  }
}

/** The correct_offset of an incorrect_offset error (409 lookup_failed), or null. */
function correctOffset(err: unknown): number | null {
  if (!(err instanceof DropboxError) || err.status !== 409) return null;
  const e = err.body.error as
    { correct_offset?: unknown; incorrect_offset?: { correct_offset?: unknown } } | undefined;
  const at = e?.correct_offset ?? e?.incorrect_offset?.correct_offset;
  return typeof at === 'number' ? at : null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason as Error);
    });
  });

export function createDropboxProvider(settings: () => DropboxSettings | null): HashlessProvider {
  const cfg = (): DropboxSettings => {
    const s = settings();
    if (!s) throw new StorageError('unavailable', 'Dropbox is not set up on this server.');
    return s;
  };

  async function accessToken(): Promise<string> {
    const t = connections.token('dropbox');
    if (!t) throw new StorageError('unavailable', texts.notConnected);
    if (t.expiresAt - 60_000 > Date.now()) return t.accessToken;
    const renewed = await refreshDropbox(cfg());
    if (renewed) return renewed.accessToken;
    if (t.expiresAt > Date.now()) return t.accessToken;
    connections.clear('dropbox');
    throw new StorageError('unavailable', texts.notConnected);
  }

  /**
   * One call with its retries: a 401 for an expired token renews it once; 429 and 5xx wait as
   * Dropbox says (Retry-After) or back off; a lost connection is retried, telling onRetrying.
   */
  async function call(
    url: string,
    init: (token: string) => RequestInit,
    opts: { signal?: AbortSignal; onRetrying?: (r: boolean) => void } = {},
  ): Promise<Response> {
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const token = await accessToken();
      let res: Response;
      try {
        res = await fetch(url, { ...init(token), signal: opts.signal ?? null });
      } catch (err) {
        if (opts.signal?.aborted)
          throw new StorageError('aborted', 'Upload cancelled', { cause: err });
        if (attempt >= MAX_TRIES)
          throw new StorageError('unavailable', texts.failed, { cause: err });
        opts.onRetrying?.(true);
        await sleep(Math.min(500 * 2 ** attempt, 8000), opts.signal);
        continue;
      }
      if (res.ok || res.status === 206) {
        if (attempt > 1) opts.onRetrying?.(false);
        return res;
      }
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // a text answer (400s)
      }
      const summary = typeof body.error_summary === 'string' ? body.error_summary : text;
      if (res.status === 401) {
        if (!renewed && summary.startsWith('expired_access_token')) {
          renewed = true;
          if (await refreshDropbox(cfg())) continue;
        }
        connections.clear('dropbox');
        throw new StorageError('unavailable', texts.notConnected);
      }
      if ((res.status === 429 || res.status >= 500) && attempt < MAX_TRIES) {
        const after = Number(res.headers.get('retry-after'));
        opts.onRetrying?.(true);
        await sleep(after > 0 ? Math.min(after, 60) * 1000 : 500 * 2 ** attempt, opts.signal);
        continue;
      }
      throw new DropboxError(res.status, summary, body);
    }
  }

  const rpc = async <T>(path: string, args: unknown, signal?: AbortSignal): Promise<T> => {
    const res = await call(
      `${cfg().api_url}/2/${path}`,
      (token) => ({
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      }),
      signal ? { signal } : {},
    );
    return (await res.json()) as T;
  };

  const content = (
    path: string,
    args: unknown,
    body: Uint8Array<ArrayBuffer> | null,
    opts: { signal?: AbortSignal; onRetrying?: (r: boolean) => void; range?: string } = {},
  ) =>
    call(
      `${cfg().content_url}/2/${path}`,
      (token) => ({
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'dropbox-api-arg': headerJson(args),
          ...(body ? { 'content-type': 'application/octet-stream' } : {}),
          ...(opts.range ? { range: opts.range } : {}),
        },
        body,
      }),
      opts,
    );

  const isNotFound = (err: unknown) =>
    err instanceof DropboxError && err.status === 409 && /not_found/.test(err.summary);
  const pathOf = (vaultId: string, ref: string) => `${folderOf(vaultId)}/${ref}`;
  const nameOf = (ref: string) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(ref))
      throw new StorageError('failed', `Not a blob name: ${ref}`);
    return ref;
  };
  const fail = (err: unknown, message: string): never => {
    if (err instanceof StorageError) throw err;
    if (err instanceof DropboxError && /insufficient_space/.test(err.summary))
      throw new StorageError('no_space', texts.full, { cause: err });
    throw new StorageError('failed', message, { cause: err });
  };

  interface FileMetadata {
    '.tag': string;
    name: string;
    size?: number;
    content_hash?: string;
  }

  async function put(
    vaultId: string,
    blobId: string,
    length: number,
    source: ReadableStream<Uint8Array>,
    options: PutOptions = {},
  ): Promise<PutResult> {
    const { signal, onProgress, onRetrying } = options;
    const path = pathOf(vaultId, nameOf(blobId));
    const retryOpts = { ...(signal ? { signal } : {}), ...(onRetrying ? { onRetrying } : {}) };
    const none = new Uint8Array(0);
    const pieces = piecesOf(source.getReader(), PIECE_BYTES, length, {
      digest: (bytes) => Promise.resolve({ bytes, digest: none }),
      onEnd: () => Promise.resolve(),
    });
    try {
      let sessionId = '';
      let offset = 0; // bytes of the blob Dropbox holds in the session
      for (let piece = await pieces.read(); ;) {
        signal?.throwIfAborted();
        const next = piece && offset + piece.bytes.length < length ? await pieces.read() : null;
        const bytes = piece?.bytes ?? none;
        const last = next === null;
        let sent = 0; // of this piece
        for (;;) {
          const body = bytes.subarray(sent);
          try {
            if (!sessionId) {
              const r = await content(
                'files/upload_session/start',
                { close: false },
                last ? none : body,
                retryOpts,
              );
              sessionId = ((await r.json()) as { session_id: string }).session_id;
              if (last) continue; // the whole blob goes with finish
            } else if (!last) {
              await content(
                'files/upload_session/append_v2',
                { cursor: { session_id: sessionId, offset: offset + sent }, close: false },
                body,
                retryOpts,
              );
            } else {
              const r = await content(
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
                await rpc('files/delete_v2', { path }).catch(() => undefined);
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
            // The answer to a request Dropbox did get was lost, and the retry was refused: its
            // incorrect_offset error says how much it holds; go on from there.
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
        piece = next;
      }
    } catch (err) {
      await pieces.cancel().catch(() => undefined);
      if (signal?.aborted || (err instanceof StorageError && err.code === 'aborted'))
        throw new StorageError('aborted', 'Upload cancelled', { cause: err });
      return fail(err, texts.uploadFailed);
    }
  }

  const capabilities: Capabilities = {
    ranges: true,
    resumable: true,
    maxBlobBytes: 350 * 1000 ** 3, // Dropbox's limit for an upload session
    deviceOnly: false,
  };

  return {
    type: 'dropbox',
    capabilities,
    async makeFolder(name) {
      // autorename: a taken name becomes "name (1)"; the answer says which path it got.
      try {
        const r = await rpc<{ metadata: { path_display: string } }>('files/create_folder_v2', {
          path: `/${name}`,
          autorename: true,
        });
        return r.metadata.path_display;
      } catch (err) {
        return fail(err, 'Failed to create Dropbox folder. Please try again.');
      }
    },
    async prepare(vaultId) {
      try {
        await rpc('files/create_folder_v2', { path: folderOf(vaultId), autorename: false });
      } catch (err) {
        if (err instanceof DropboxError && err.status === 409 && /conflict/.test(err.summary))
          return;
        fail(err, 'Failed to create Dropbox folder. Please try again.');
      }
    },
    put,
    async get(vaultId, ref, range, signal) {
      if (range && range.end <= range.start) return new ReadableStream({ start: (c) => c.close() });
      try {
        const res = await content('files/download', { path: pathOf(vaultId, nameOf(ref)) }, null, {
          ...(signal ? { signal } : {}),
          ...(range ? { range: `bytes=${range.start}-${range.end - 1}` } : {}),
        });
        if (range && res.status !== 206 && range.start > 0)
          throw new StorageError('failed', texts.downloadFailed);
        return res.body ?? new ReadableStream({ start: (c) => c.close() });
      } catch (err) {
        // A 409 on a download means the file is not there (docs/product.md §7).
        if (err instanceof DropboxError && err.status === 409)
          throw new StorageError('not_found', messages.files.dataNotFound, { cause: err });
        return fail(err, texts.downloadFailed);
      }
    },
    async stat(vaultId, ref) {
      try {
        const meta = await rpc<FileMetadata>('files/get_metadata', {
          path: pathOf(vaultId, nameOf(ref)),
        });
        return meta['.tag'] === 'file' ? { ref, size: meta.size ?? 0 } : null;
      } catch (err) {
        if (isNotFound(err)) return null;
        return fail(err, texts.failed);
      }
    },
    async list(vaultId) {
      const out: BlobInfo[] = [];
      try {
        let page = await rpc<{ entries: FileMetadata[]; cursor: string; has_more: boolean }>(
          'files/list_folder',
          { path: folderOf(vaultId), recursive: false, limit: 1000 },
        );
        for (;;) {
          for (const e of page.entries)
            if (e['.tag'] === 'file') out.push({ ref: e.name, size: e.size ?? 0 });
          if (!page.has_more) break;
          page = await rpc('files/list_folder/continue', { cursor: page.cursor });
        }
      } catch (err) {
        if (isNotFound(err)) return [];
        return fail(err, 'Failed to retrieve vault files');
      }
      return out;
    },
    async delete(vaultId, ref) {
      try {
        await rpc('files/delete_v2', { path: pathOf(vaultId, nameOf(ref)) });
      } catch (err) {
        if (isNotFound(err)) return;
        fail(err, 'Failed to delete file');
      }
    },
    async removeContainer(vaultId) {
      try {
        await rpc('files/delete_v2', { path: folderOf(vaultId) });
      } catch (err) {
        if (isNotFound(err)) return;
        fail(err, 'Failed to delete vault');
      }
    },
    async quota(): Promise<Quota> {
      const u = await rpc<{ used: number; allocation: { allocated?: number } }>(
        'users/get_space_usage',
        null,
      );
      return { usedBytes: u.used, totalBytes: u.allocation.allocated ?? null };
    },
  };
}
