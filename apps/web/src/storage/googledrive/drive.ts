// The Google Drive provider (issue 16; docs/product.md §7 "Cloud drive service"): ciphertext blobs in the
// vault's folder of the user's Drive (storage_folder, a folder id), called straight from the
// browser (Drive v3 REST) with the token of cloud/connections.ts. With the drive.file scope the
// app sees only what it made.
// - A blob is a file named by its blob id inside the vault folder; the blob id is its reference.
//   Drive addresses files by id and lets two files share a name, so a blob is found by searching
//   its folder for its name (docs/product.md §7, "Search for files and folders"), remembered per folder, and
//   a put refuses a name that is already there rather than make a second file of that name.
// - Uploads ("Upload file data"): up to 5 MiB in one multipart request; larger ones through a
//   resumable session in 8 MiB chunks (session.ts), which goes on from what Drive holds after a
//   lost connection.
// - Calls, retries and Google's errors: api.ts.
import { messages } from '@sealvault/protocol';
import { folderOf } from '../cloud/folders.ts';
import type { HashlessProvider, PutResult } from '../hashing.ts';
import type { BlobInfo, Capabilities, PutOptions, Quota } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { piecesOf } from '../server/pieces.ts';
import {
  backoff,
  ConnectionLost,
  createDriveApi,
  fail,
  isMissing,
  MAX_TRIES,
  sleep,
  texts,
  type CallOptions,
} from './api.ts';
import type { DriveSettings } from './auth.ts';
import { sendChunks, type DriveFile } from './session.ts';

export { texts };

const FOLDER_MIME = 'application/vnd.google-apps.folder';
const BLOB_MIME = 'application/octet-stream';
/** The largest blob sent in one multipart request ("Upload file data": 5 MB or less). */
export const MULTIPART_MAX = 5 * 1024 * 1024;
/** Bytes per resumable chunk: a multiple of 256 KiB. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** A string literal of Drive's query language: ' and \ escaped ("Search for files and folders"). */
const quoted = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const emptyStream = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });

interface Metadata {
  name: string;
  parents: string[];
  mimeType: string;
}

export function createDriveProvider(
  settings: () => DriveSettings | null,
  /** For tests: files.list's page size (Drive's largest, 1000, as the spec says, otherwise). */
  options: { pageSize?: number } = {},
): HashlessProvider {
  const pageSize = options.pageSize ?? 1000;
  const cfg = (): DriveSettings => {
    const s = settings();
    if (!s) throw new StorageError('unavailable', 'Google Drive is not set up on this server.');
    return s;
  };
  const api = (path: string) => `${cfg().api_url}/drive/v3/${path}`;
  const fileUrl = (id: string, query = '') => api(`files/${encodeURIComponent(id)}${query}`);

  const { call, json } = createDriveApi(cfg);

  const nameOf = (ref: string) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(ref))
      throw new StorageError('failed', `Not a blob name: ${ref}`);
    return ref;
  };

  // File ids by folder and name: a blob read after it was listed or stored costs one request.
  const ids = new Map<string, Map<string, string>>();
  const idsOf = (folder: string) => {
    let m = ids.get(folder);
    if (!m) ids.set(folder, (m = new Map<string, string>()));
    return m;
  };

  /** The files named `name` in `folder`; several if someone else made a second one. */
  async function named(folder: string, name: string, opts?: CallOptions): Promise<DriveFile[]> {
    const q = `${quoted(folder)} in parents and name = ${quoted(name)} and trashed = false`;
    const query = new URLSearchParams({ q, fields: 'files(id,name,size)', pageSize: '1000' });
    try {
      const r = await json<{ files: DriveFile[] }>(api(`files?${query}`), {}, opts);
      return r.files.filter((f) => f.size !== undefined); // not a folder
    } catch (err) {
      if (isMissing(err)) return []; // the folder is gone
      throw err;
    }
  }

  async function idOf(folder: string, name: string, fresh: boolean): Promise<string | null> {
    const known = fresh ? undefined : idsOf(folder).get(name);
    if (known) return known;
    const id = (await named(folder, name))[0]?.id;
    if (id) idsOf(folder).set(name, id);
    return id ?? null;
  }

  async function remove(id: string, opts?: CallOptions): Promise<void> {
    try {
      await call(fileUrl(id), { method: 'DELETE' }, opts);
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  /** One multipart request; after a lost connection, a file the lost request made is taken. */
  async function multipart(meta: Metadata, bytes: Uint8Array<ArrayBuffer>, opts: CallOptions) {
    const boundary = `sealvault-${crypto.randomUUID()}`;
    const body = new Blob([
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n`,
      JSON.stringify(meta),
      `\r\n--${boundary}\r\nContent-Type: ${BLOB_MIME}\r\n\r\n`,
      bytes,
      `\r\n--${boundary}--\r\n`,
    ]);
    const url = `${cfg().api_url}/upload/drive/v3/files?uploadType=multipart&fields=id,size`;
    const headers = { 'content-type': `multipart/related; boundary=${boundary}` };
    for (let attempt = 1; ; attempt++) {
      try {
        const init = { method: 'POST', headers, body };
        return await json<DriveFile>(url, init, { ...opts, retryLost: false });
      } catch (err) {
        if (!(err instanceof ConnectionLost) || attempt >= MAX_TRIES) throw err;
        opts.onRetrying?.(true);
        await sleep(backoff(attempt), opts.signal);
        const [made] = await named(meta.parents[0]!, meta.name, opts);
        if (made) {
          opts.onRetrying?.(false);
          return made;
        }
      }
    }
  }

  async function startSession(meta: Metadata, length: number, opts: CallOptions) {
    const res = await call(
      `${cfg().api_url}/upload/drive/v3/files?uploadType=resumable&fields=id,size`,
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

  async function put(
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
    const reader = source.getReader();
    const none = new Uint8Array(0);
    const pieces = piecesOf(reader, CHUNK_BYTES, length, {
      digest: (bytes) => Promise.resolve({ bytes, digest: none }),
      onEnd: () => Promise.resolve(),
    });
    let folder = '';
    let session: string | null = null;
    let file: DriveFile | null = null;
    let mayExist = false; // a request that can make the file was sent
    try {
      const name = nameOf(blobId);
      folder = folderOf(vaultId);
      if (!Number.isSafeInteger(length) || length < 0 || length > capabilities.maxBlobBytes!)
        throw new Error(`Not a blob length: ${length}`);
      if ((await named(folder, name, opts)).length > 0)
        throw new Error(`A file named ${name} is already in the vault folder`);
      const meta: Metadata = { name, parents: [folder], mimeType: BLOB_MIME };
      if (length <= MULTIPART_MAX) {
        // piecesOf checks the source's length, except for 0 bytes: then it reads nothing.
        if (length === 0 && !(await reader.read()).done)
          throw new Error('The stream is longer than its declared length');
        const bytes = (await pieces.read())?.bytes ?? none;
        mayExist = true;
        file = await multipart(meta, bytes, opts);
      } else {
        session = await startSession(meta, length, opts);
        mayExist = true;
        file = await sendChunks(session, pieces, length, options);
      }
      if (Number(file.size) !== length)
        throw new Error(`Drive holds ${file.size ?? '?'} bytes of ${length}`);
      onProgress?.(length);
      signal?.throwIfAborted(); // aborted from onProgress: the put still leaves nothing
      idsOf(folder).set(name, file.id);
      return { ref: blobId, size: length };
    } catch (err) {
      await pieces.cancel();
      // Leaves nothing behind, with a short patience: the put has failed already.
      const quiet: CallOptions = { tries: 2 };
      if (session) await fetch(session, { method: 'DELETE' }).catch(() => undefined);
      if (file) await remove(file.id, quiet).catch(() => undefined);
      else if (mayExist) {
        const made = await named(folder, blobId, quiet).catch(() => []);
        for (const f of made) await remove(f.id, quiet).catch(() => undefined);
      }
      if (signal?.aborted || (err instanceof StorageError && err.code === 'aborted'))
        throw new StorageError('aborted', 'Upload cancelled', { cause: err });
      return fail(err, texts.uploadFailed);
    }
  }

  const capabilities: Capabilities = {
    ranges: true,
    resumable: true,
    maxBlobBytes: 5 * 1024 ** 4, // Drive's limit for one file
    deviceOnly: false,
  };

  return {
    type: 'googledrive',
    capabilities,
    async makeFolder(name) {
      // In My Drive. Drive allows two folders of one name: the id tells them apart.
      try {
        const f = await json<{ id: string }>(api('files?fields=id'), {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=UTF-8' },
          body: JSON.stringify({ name, mimeType: FOLDER_MIME }),
        });
        return f.id;
      } catch (err) {
        return fail(err, texts.folderFailed);
      }
    },
    async prepare(vaultId) {
      // The folder was made with the vault; a missing one is not made again here, as the vault
      // records its id: another folder would not be the vault's.
      try {
        const f = await json<{ trashed?: boolean; mimeType?: string }>(
          fileUrl(folderOf(vaultId), '?fields=id,trashed,mimeType'),
        );
        if (f.trashed || f.mimeType !== FOLDER_MIME) throw new Error('not a usable folder');
      } catch (err) {
        if (err instanceof StorageError) throw err;
        throw new StorageError('failed', texts.folderMissing, { cause: err });
      }
    },
    put,
    async get(vaultId, ref, range, signal) {
      if (range && range.end <= range.start) return emptyStream();
      try {
        const folder = folderOf(vaultId);
        const name = nameOf(ref);
        // A remembered id may be stale (deleted in another tab): look it up again once.
        for (let fresh = false; ; fresh = true) {
          const id = await idOf(folder, name, fresh);
          if (!id) throw new StorageError('not_found', messages.files.dataNotFound);
          try {
            const res = await call(
              fileUrl(id, '?alt=media'),
              range ? { headers: { range: `bytes=${range.start}-${range.end - 1}` } } : {},
              signal ? { signal } : {},
            );
            if (range && res.status !== 206) throw new Error(`Range ignored (${res.status})`);
            return res.body ?? emptyStream();
          } catch (err) {
            if (!isMissing(err)) throw err;
            idsOf(folder).delete(name);
            if (fresh) throw new StorageError('not_found', messages.files.dataNotFound);
          }
        }
      } catch (err) {
        if (signal?.aborted)
          throw new StorageError('aborted', 'Download cancelled', { cause: err });
        return fail(err, texts.downloadFailed);
      }
    },
    async stat(vaultId, ref) {
      try {
        const [f] = await named(folderOf(vaultId), nameOf(ref));
        return f ? { ref, size: Number(f.size) } : null;
      } catch (err) {
        return fail(err, texts.failed);
      }
    },
    async list(vaultId) {
      const out: BlobInfo[] = [];
      try {
        const folder = folderOf(vaultId);
        const known = idsOf(folder);
        const q = `${quoted(folder)} in parents and trashed = false and mimeType != '${FOLDER_MIME}'`;
        let pageToken: string | undefined;
        do {
          const query = new URLSearchParams({
            q,
            fields: 'nextPageToken,files(id,name,size)',
            pageSize: String(pageSize),
            ...(pageToken ? { pageToken } : {}),
          });
          const page = await json<{ files: DriveFile[]; nextPageToken?: string }>(
            api(`files?${query}`),
          );
          for (const f of page.files) {
            if (f.name === undefined) continue;
            out.push({ ref: f.name, size: Number(f.size ?? 0) });
            known.set(f.name, f.id);
          }
          pageToken = page.nextPageToken;
        } while (pageToken);
      } catch (err) {
        if (isMissing(err)) return []; // the folder is gone
        return fail(err, 'Failed to retrieve vault files');
      }
      return out;
    },
    async delete(vaultId, ref) {
      try {
        // Searched afresh, so that a second file of the name goes too.
        const folder = folderOf(vaultId);
        const name = nameOf(ref);
        idsOf(folder).delete(name);
        for (const f of await named(folder, name)) await remove(f.id);
      } catch (err) {
        fail(err, 'Failed to delete file');
      }
    },
    async removeContainer(vaultId) {
      // files.delete skips the trash and takes the folder's contents with it.
      try {
        const folder = folderOf(vaultId);
        await remove(folder);
        ids.delete(folder);
      } catch (err) {
        fail(err, 'Failed to delete vault');
      }
    },
    async quota(): Promise<Quota> {
      try {
        const { storageQuota: q } = await json<{
          storageQuota: { usage?: string; limit?: string };
        }>(api('about?fields=storageQuota'));
        return {
          usedBytes: q.usage === undefined ? null : Number(q.usage),
          totalBytes: q.limit === undefined ? null : Number(q.limit), // none: unlimited
        };
      } catch (err) {
        return fail(err, texts.failed);
      }
    },
  };
}
