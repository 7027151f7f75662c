// Our server's storage ('server', "SealVault storage"; ADR 0003): blobs go up with tus 1.0
// (tus-js-client) and come back with HTTP Range. One 4 MiB block of the content hash per PATCH,
// with its SHA-256 as the tus checksum (Upload-Checksum): a block corrupted on the way is refused
// (460) and sent again. The content hash is known only once the last block is read, so it is
// sent on the completing PATCH as Upload-Final-Checksum (apps/server/src/files/uploads.ts,
// [Note: deferred checksum]); the server then verifies it and creates the file record from
// `record` (PutOptions). A dropped connection resumes at the server's offset.
import { Upload, type DetailedError } from 'tus-js-client';
import {
  MOVE_FILE_ID_METADATA,
  ApiError,
  CONTENT_HASH_BLOCK_BYTES,
  filesApi,
  UPLOAD_CHECKSUM_HEADER,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  uploadChecksumTexts,
  UPLOADS_PATH,
} from '@sealvault/protocol';
import {
  StorageError,
  type PutOptions,
  type StorageProvider,
  type StoredBlob,
} from '../provider.ts';
import {
  pieceSource,
  piecesOf,
  sealedPiecesOf,
  type PieceHooks,
  type PieceReader,
} from './pieces.ts';
import { msg } from '../../i18n/i18n.ts';

/** Bytes per PATCH request: one block of the content hash, so its digest is the PATCH's checksum. */
export const TUS_CHUNK_BYTES = CONTENT_HASH_BLOCK_BYTES;
export const UPLOAD_FAILED = msg('Upload failed. Please try again.');
const NOT_FOUND = msg('File data not found');

/**
 * Waits before each retry of a failed request, in ms. A lost connection is retried for about
 * 70 s in all (a Wi-Fi hand-over, a laptop lid closed for a moment), resuming at the server's
 * offset inside the current piece; a server error only for the first four.
 */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];

/**
 * Whether to retry after a request failed with `status` (0: no response) on try `attempt`; `body`
 * is the response's text. A block the server refused as corrupted (460, nothing of it kept) is
 * sent again, like a server error; a whole file that failed its content hash is not (the server
 * has dropped the upload).
 */
export function shouldRetryUpload(status: number, attempt: number, body = ''): boolean {
  if (status === 0) return true;
  const blockRefused = status === 460 && messageOf(body) === uploadChecksumTexts.blockCorrupted;
  return (status >= 500 || status === 423 || blockRefused) && attempt < 4;
}

function messageOf(body: string): string | null {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown };
    const message = json.error?.message ?? json.message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null; // not JSON
  }
}

/** The message of a failed tus request: the server's own for a 409/413/460, else a generic one. */
export function uploadErrorMessage(err: unknown): string {
  const res = (err as DetailedError | undefined)?.originalResponse;
  return (res && messageOf(res.getBody())) ?? UPLOAD_FAILED;
}

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** SHA-256 of a block on this thread (the app digests in a crypto Worker instead). */
const digestHere: PieceHooks['digest'] = async (bytes) => ({
  bytes,
  digest: new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)),
});

export interface ServerProviderOptions {
  /** Digests one 4 MiB block (SHA-256); may take the block and hand back the one to send. */
  digest?: PieceHooks['digest'];
  /** The content hash (hex) from the block digests, in order. */
  contentHash(digests: Uint8Array<ArrayBuffer>[]): Promise<string>;
}

export function createServerProvider(options: ServerProviderOptions): StorageProvider {
  const digest = options.digest ?? digestHere;
  const notFound = (err: unknown) =>
    err instanceof ApiError && err.status === 404
      ? new StorageError('not_found', NOT_FOUND, { cause: err })
      : err;

  const remove = async (vaultId: string, ref: string) => {
    await filesApi.remove(vaultId, ref).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    });
  };

  /**
   * Sends the pieces of blob `blobId` (`length` bytes) with tus, one per PATCH; `hash.value` is
   * the content hash once the last piece has been read. Resolves with what was stored.
   */
  async function send(
    vaultId: string,
    blobId: string,
    length: number,
    pieces: PieceReader<Uint8Array<ArrayBuffer> | Blob>,
    hash: { value: string | null },
    opts: PutOptions,
  ): Promise<StoredBlob> {
    const { signal, onProgress, onRetrying = () => undefined } = opts;
    const pieced = pieceSource(pieces, length);
    // A failed source (the file unreadable, the encryption failed) is not a lost connection:
    // it is not retried.
    let sourceFailed = false;
    const source = {
      ...pieced,
      slice: (start: number, end: number) =>
        pieced.slice(start, end).catch((err: unknown) => {
          sourceFailed = true;
          throw err;
        }),
    };
    await new Promise<void>((resolve, reject) => {
      // tus-js-client reads through `fileReader` (pieceSource), never its own stream source.
      const unread = { read: () => Promise.reject(new Error('read through fileReader')) };
      const upload = new Upload(unread, {
        fileReader: { openFile: () => Promise.resolve(source) },
        endpoint: UPLOADS_PATH,
        // Move mode (issue 27): the ciphertext of a file the vault has, under its own id.
        metadata:
          opts.record && MOVE_FILE_ID_METADATA in opts.record
            ? { ...opts.record, vaultId }
            : { ...opts.record, vaultId, fileId: blobId },
        uploadSize: length,
        uploadLengthDeferred: false,
        chunkSize: TUS_CHUNK_BYTES,
        retryDelays: RETRY_DELAYS,
        removeFingerprintOnSuccess: true,
        storeFingerprintForResuming: false,
        onBeforeRequest: (req) => {
          if (req.getMethod() !== 'PATCH') return;
          // tus-js-client has sliced the body already: the current piece, from this offset.
          const offset = Number(req.getHeader('Upload-Offset'));
          const block = pieced.digestOf(offset, offset + TUS_CHUNK_BYTES);
          if (block) req.setHeader(UPLOAD_CHECKSUM_HEADER, `sha256 ${base64(block)}`);
          // Known once the last piece has been read: for the completing PATCH and its retries.
          if (hash.value) req.setHeader(UPLOAD_FINAL_CHECKSUM_HEADER, hash.value);
        },
        onShouldRetry: (err, attempt) => {
          const res = err.originalResponse;
          const retry =
            !sourceFailed &&
            shouldRetryUpload(res?.getStatus() ?? 0, attempt, res?.getBody() ?? '');
          if (retry) onRetrying(true);
          return retry;
        },
        onProgress: (sent) => {
          onRetrying(false);
          onProgress?.(sent);
        },
        onSuccess: () => resolve(),
        onError: (err) => {
          source.close();
          void upload.abort(true).catch(() => undefined); // the server drops what it has
          reject(new StorageError('failed', uploadErrorMessage(err), { cause: err }));
        },
      });
      signal?.addEventListener(
        'abort',
        () => {
          void upload.abort(true).catch(() => undefined);
          source.close();
          reject(new StorageError('aborted', msg('Upload cancelled'), { cause: signal.reason }));
        },
        { once: true },
      );
      upload.start();
    });
    // The server made the record when the last byte was in, after checking the content hash.
    const { file } = await filesApi.get(vaultId, blobId);
    return { ref: blobId, size: length, contentHash: hash.value ?? file.checksum, record: file };
  }

  /** Where each piece's digest goes, and the content hash made of them all. */
  const hashed = () => {
    const hash = { value: null as string | null };
    const onEnd = async (digests: Uint8Array<ArrayBuffer>[]) => {
      hash.value = await options.contentHash(digests);
    };
    return { hash, onEnd };
  };

  return {
    type: 'server',
    capabilities: { ranges: true, resumable: true, maxBlobBytes: null, deviceOnly: false },
    // The server keeps each vault's blobs under keys of its own: there is no container to make.
    prepare: () => Promise.resolve(),
    quota: () => Promise.resolve({ usedBytes: null, totalBytes: null }),

    put(vaultId, blobId, length, ciphertext, opts = {}) {
      const { hash, onEnd } = hashed();
      const pieces = piecesOf(ciphertext.getReader(), TUS_CHUNK_BYTES, length, { digest, onEnd });
      return send(vaultId, blobId, length, pieces, hash, opts);
    },

    // [Note: sealed pieces as Blobs]: each PATCH's body is a Blob the crypto Worker made.
    putPieces(vaultId, blobId, length, sealed, opts = {}) {
      const { hash, onEnd } = hashed();
      const pieces = sealedPiecesOf(sealed.getReader(), TUS_CHUNK_BYTES, length, onEnd);
      return send(vaultId, blobId, length, pieces, hash, opts);
    },

    async get(vaultId, ref, range, signal) {
      // HTTP ranges are inclusive; an empty range needs no request.
      if (range && range.end <= range.start) return new Blob([]).stream();
      const res = await filesApi
        .content(vaultId, ref, range && { start: range.start, end: range.end - 1 }, signal)
        .catch((err: unknown) => {
          throw notFound(err);
        });
      if (!res.body) throw new StorageError('failed', msg('Failed to load file content.'));
      return res.body;
    },

    contentUrl: (vaultId, ref) => new URL(filesApi.contentUrl(vaultId, ref), location.href).href,

    async stat(vaultId, ref) {
      try {
        const { file } = await filesApi.get(vaultId, ref);
        return { ref, size: file.ciphertext_size };
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },

    async list(vaultId) {
      const { files } = await filesApi.list(vaultId);
      return files.map((f) => ({ ref: f.id, size: f.ciphertext_size }));
    },

    delete: remove,

    // Deleting the vault through the API removes its files too; this empties it file by file.
    async removeContainer(vaultId) {
      const { files } = await filesApi.list(vaultId).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return { files: [] };
        throw err;
      });
      for (const f of files) await remove(vaultId, f.id);
    },
  };
}
