// Uploading one file (spec §4 Upload; architecture.md, Web): the plaintext is encrypted in the
// crypto Worker chunk by chunk, then sent with tus (resumable). The server needs the SHA-256 of
// the ciphertext when the upload is created (Upload-Metadata `checksum`), and a vf1 file key is
// fresh on every encryption, so the ciphertext is produced first: its chunks are gathered into
// Blobs of at most 32 MiB (the browser keeps large Blobs in its blob store, on disk when needed,
// not in the page's heap) and the whole Blob is then uploaded.
import { Upload, type DetailedError } from 'tus-js-client';
import { asFileId } from '@sealvault/crypto';
import { UPLOADS_PATH } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../crypto/vaultKeys.ts';
import { mimeOf } from './model.ts';

export interface UploadProgress {
  /** 0..1 of the encryption and 0..1 of the transfer. */
  encrypted: number;
  sent: number;
}

const BLOB_PART = 32 * 1024 * 1024;
const UPLOAD_FAILED = 'Upload failed. Please try again.';

/** Reads a stream to the end into one Blob, flushing the parts every 32 MiB. */
async function toBlob(stream: ReadableStream<Uint8Array>, onBytes: (n: number) => void) {
  const blobs: Blob[] = [];
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let pending = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as Uint8Array<ArrayBuffer>);
    pending += value.length;
    onBytes(value.length);
    if (pending >= BLOB_PART) {
      blobs.push(new Blob(parts));
      parts = [];
      pending = 0;
    }
  }
  blobs.push(new Blob(parts));
  return new Blob(blobs);
}

/** The message of a failed tus request: the server's own for a 409/413/460, else a generic one. */
export function uploadErrorMessage(err: unknown): string {
  const res = (err as DetailedError | undefined)?.originalResponse;
  if (!res) return UPLOAD_FAILED;
  try {
    const body = JSON.parse(res.getBody()) as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON
  }
  return UPLOAD_FAILED;
}

/**
 * Encrypts and uploads `file` into the vault's root. Resolves when the server has verified the
 * checksum and recorded the file; rejects with a user-facing message. `signal` cancels it.
 */
export async function uploadFile(
  vaultId: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
): Promise<void> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const fileId = globalThis.crypto.randomUUID();
  const id = asFileId(fileId);
  const progress: UploadProgress = { encrypted: 0, sent: 0 };
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
  const plaintext = file.stream();
  const enc = await crypto.encryptFileStream(session, id, plaintext);
  const abortEncrypt = () => void enc.ciphertext.cancel().catch(() => undefined);
  signal.addEventListener('abort', abortEncrypt, { once: true });
  let read = 0;
  const total = Math.max(1, file.size);
  const ciphertext = await toBlob(enc.ciphertext, (n) => {
    read += n;
    progress.encrypted = Math.min(1, read / total);
    onProgress({ ...progress });
  });
  signal.removeEventListener('abort', abortEncrypt);
  const { checksum } = await enc.done;
  if (!checksum) throw new Error(UPLOAD_FAILED);
  signal.throwIfAborted();

  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(ciphertext, {
      endpoint: UPLOADS_PATH,
      metadata: { vaultId, fileId, checksum, encMeta, lookup, wrappedKey: enc.wrappedKey },
      chunkSize: 16 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      removeFingerprintOnSuccess: true,
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 423;
      },
      onProgress: (sent, size) => {
        progress.sent = size ? sent / size : 1;
        onProgress({ ...progress });
      },
      onSuccess: () => resolve(),
      onError: (err) => reject(new Error(uploadErrorMessage(err))),
    });
    signal.addEventListener(
      'abort',
      () => {
        void upload.abort(true).catch(() => undefined);
        reject(signal.reason instanceof Error ? signal.reason : new Error('Upload cancelled'));
      },
      { once: true },
    );
    upload.start();
  });
}
