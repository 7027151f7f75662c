// Uploading one file (spec §4 Upload; architecture.md, Web). The plaintext is encrypted in the
// crypto Workers chunk by chunk while tus (tus-js-client) sends the ciphertext, one 4 MiB block
// of the content hash per PATCH with its SHA-256 as the tus checksum (Upload-Checksum): a block
// corrupted on the way is refused (460) and sent again, and memory stays flat at any file size.
// The ciphertext's length is known up front (vf1); its content hash only at the end, so it is
// left out of the creation metadata and sent on the completing PATCH as Upload-Final-Checksum
// (apps/server/src/files/uploads.ts, [Note: deferred checksum]).
import { Upload, type DetailedError } from 'tus-js-client';
import {
  asFileId,
  ciphertextSize,
  CONTENT_HASH_BLOCK_BYTES,
  contentHashOfDigests,
} from '@sealvault/crypto';
import {
  UPLOAD_CHECKSUM_HEADER,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  uploadChecksumTexts,
  UPLOADS_PATH,
} from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../crypto/vaultKeys.ts';
import { mimeOf } from './model.ts';
import { pieceSource, piecesOf } from './pieces.ts';

/** Bytes per PATCH request: one block of the content hash, so its digest is the PATCH's checksum. */
export const TUS_CHUNK_BYTES = CONTENT_HASH_BLOCK_BYTES;
const UPLOAD_FAILED = 'Upload failed. Please try again.';

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

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

/**
 * Encrypts and uploads `file` into the vault's root. `onProgress` gets the fraction sent (0..1);
 * `onRetrying(true)` says a request failed and is being retried, `onRetrying(false)` that bytes
 * flow again.
 * Resolves when the server has verified the checksum and recorded the file; rejects with a
 * user-facing message. `signal` cancels it (the server's partial upload is terminated).
 */
export async function uploadFile(
  vaultId: string,
  file: File,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
  onRetrying: (retrying: boolean) => void = () => undefined,
): Promise<void> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const fileId = globalThis.crypto.randomUUID();
  const id = asFileId(fileId);
  const [encMeta, lookup] = await Promise.all([
    crypto.encryptMeta(session, id, null, {
      name: file.name,
      mime: mimeOf(file),
      size: file.size,
      modified: file.lastModified,
    }),
    crypto.lookupName(session, null, file.name),
  ]);
  signal.throwIfAborted();
  const enc = await crypto.encryptFileStream(session, id, file.stream());
  const length = ciphertextSize(file.size);
  let contentHash: string | null = null;
  const pieces = piecesOf(enc.ciphertext.getReader(), TUS_CHUNK_BYTES, length, {
    // In a crypto Worker: the page thread is the upload's busiest (bench/RESULTS.md).
    digest: async (piece) => {
      const { digest, block } = await crypto.digestBlock(piece);
      return { bytes: block, digest };
    },
    onEnd: async (digests) => {
      contentHash = await contentHashOfDigests(digests);
    },
  });
  const source = pieceSource(pieces, length);

  await new Promise<void>((resolve, reject) => {
    // tus-js-client reads through `fileReader` (pieceSource), never through its own stream source.
    const unread = { read: () => Promise.reject(new Error('read through fileReader')) };
    const upload = new Upload(unread, {
      fileReader: { openFile: () => Promise.resolve(source) },
      endpoint: UPLOADS_PATH,
      metadata: { vaultId, fileId, encMeta, lookup, wrappedKey: enc.wrappedKey },
      uploadSize: length,
      uploadLengthDeferred: false,
      chunkSize: TUS_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      storeFingerprintForResuming: false,
      onBeforeRequest: (req) => {
        if (req.getMethod() !== 'PATCH') return;
        // tus-js-client has sliced the body already: it is the current piece, from this offset.
        const offset = Number(req.getHeader('Upload-Offset'));
        const digest = source.digestOf(offset, offset + TUS_CHUNK_BYTES);
        if (digest) req.setHeader(UPLOAD_CHECKSUM_HEADER, `sha256 ${base64(digest)}`);
        // Known once the last piece has been read, i.e. for the completing PATCH (and its retries).
        if (contentHash) req.setHeader(UPLOAD_FINAL_CHECKSUM_HEADER, contentHash);
      },
      onShouldRetry: (err, attempt) => {
        const res = err.originalResponse;
        const retry = shouldRetryUpload(res?.getStatus() ?? 0, attempt, res?.getBody() ?? '');
        if (retry) onRetrying(true);
        return retry;
      },
      onProgress: (sent, size) => {
        onRetrying(false);
        onProgress(size ? sent / size : 1);
      },
      onSuccess: () => resolve(),
      onError: (err) => {
        source.close();
        reject(new Error(uploadErrorMessage(err)));
      },
    });
    signal.addEventListener(
      'abort',
      () => {
        void upload.abort(true).catch(() => undefined);
        source.close();
        reject(signal.reason instanceof Error ? signal.reason : new Error('Upload cancelled'));
      },
      { once: true },
    );
    upload.start();
  });
}
