// The crypto client's files that the primary Worker reads or fetches itself, so the page never
// handles their plaintext: a File sealed into the storage's pieces, as bytes or as Blobs with
// their digests ([Note: files read in the Worker], [Note: sealed pieces as Blobs] in
// sealedFile.ts), and a ciphertext fetched and opened ([Note: fetched downloads] in fetched.ts).
// The Worker answers in batches (batches.ts); the page asks for the next when it wants it.
import { toReadable } from './stream.ts';
import { CryptoError } from './errors.ts';
import { CONTENT_HASH_BLOCK_BYTES } from './contentHash.ts';
import type { Pool } from './clientPool.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { SealedPiece } from './sealedFile.ts';
import type { WritableTarget } from './fetched.ts';

/** An encryption in progress: the ciphertext stream (header first) and its result. */
export interface EncryptedFileStream<T = Uint8Array> {
  /** encFK, base64: store it with the file record. */
  wrappedKey: string;
  /** Header then sealed chunks; read it to the end. */
  ciphertext: ReadableStream<T>;
  /** Resolves when `ciphertext` has been read to the end; rejects if it failed. */
  done: Promise<{ ciphertextSize: number; plaintextSize: number }>;
}

export interface WorkerFiles {
  /**
   * A new version of `fileId` from `file`, zero-padded to `paddedSize`, which the primary Worker
   * reads and seals itself ([Note: files read in the Worker] in sealedFile.ts). The ciphertext
   * comes in pieces of `pieceBytes` (the last shorter): the content hash's 4 MiB blocks unless
   * told otherwise.
   */
  encryptFile(
    session: SessionId,
    fileId: FileId,
    file: Blob,
    paddedSize: number,
    pieceBytes?: number,
  ): Promise<EncryptedFileStream>;
  /** The same, each piece a Blob with its SHA-256 ([Note: sealed pieces as Blobs]). */
  encryptFilePieces(
    session: SessionId,
    fileId: FileId,
    file: Blob,
    paddedSize: number,
    pieceBytes?: number,
  ): Promise<EncryptedFileStream<SealedPiece>>;
  /**
   * The plaintext of the ciphertext at `url`, which the primary Worker fetches and opens itself
   * ([Note: fetched downloads] in fetched.ts). Resolves once the request answered and the header
   * checked out (NOT_FOUND, FETCH_FAILED, DECRYPT_FAILED otherwise); `signal` stops it.
   */
  decryptFetched(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    url: string,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>>;
  /**
   * The same, written by the Worker to `target` (a file handle from the save dialog), cut to
   * `length` ([Note: downloads written in the Worker] in fetched.ts). `onWritten` gets the bytes
   * written so far; resolves once the file is saved. WRITE_FAILED if it cannot be written;
   * `signal` stops it and drops the file (rejecting with the signal's reason, or an AbortError).
   */
  decryptFetchedTo(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    url: string,
    target: WritableTarget,
    length: number,
    onWritten?: (bytes: number) => void,
    signal?: AbortSignal,
  ): Promise<void>;
}

/** A promise settled from outside; its rejection is handled where it is awaited, if anywhere. */
export function settled<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (err: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export function workerFiles({ primary }: Pool): WorkerFiles {
  /** The pieces of a sealing job, read batch by batch; the job ends with them or when cancelled. */
  function sealedStream<T>(
    job: JobId,
    read: () => Promise<T[]>,
    sizeOf: (piece: T) => number,
    paddedSize: number,
  ) {
    let ciphertextSize = 0;
    let over = false;
    const sizes = settled<Awaited<EncryptedFileStream['done']>>();
    async function* sealed() {
      try {
        for (;;) {
          const parts = await read();
          if (parts.length === 0) break;
          for (const part of parts) {
            ciphertextSize += sizeOf(part);
            yield part;
          }
        }
        over = true; // the Worker ended the job with the file
        sizes.resolve({ ciphertextSize, plaintextSize: paddedSize });
      } catch (err) {
        over = true; // the Worker ended the job with the failure
        sizes.reject(err);
        throw err;
      } finally {
        sizes.reject(new CryptoError('INVALID_INPUT', 'The ciphertext stream was cancelled'));
        if (!over) await primary.call('endSealed', [job]).catch(() => undefined);
      }
    }
    return { ciphertext: toReadable(sealed()), done: sizes.promise };
  }

  const decryptFetched: WorkerFiles['decryptFetched'] = async (
    session,
    fileId,
    wrappedKey,
    url,
    signal,
  ) => {
    signal?.throwIfAborted();
    const job = await primary.call('beginFetched', [session, fileId, wrappedKey, url]);
    let over = false;
    const end = () => {
      if (over) return Promise.resolve();
      over = true;
      signal?.removeEventListener('abort', onAbort);
      return primary.call('endFetched', [job]).catch(() => undefined);
    };
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const onAbort = () => {
      void end();
      stream?.error(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          stream = controller;
        },
        async pull(controller) {
          try {
            const parts = await primary.call('readFetched', [job]);
            if (over) return;
            if (parts.length === 0) {
              over = true; // the Worker ended the job with the file
              signal?.removeEventListener('abort', onAbort);
              controller.close();
              return;
            }
            for (const part of parts) controller.enqueue(part);
          } catch (err) {
            over = true; // the Worker ended the job with the failure
            signal?.removeEventListener('abort', onAbort);
            throw err;
          }
        },
        cancel: () => end(),
      },
      { highWaterMark: 0 },
    );
  };

  const decryptFetchedTo: WorkerFiles['decryptFetchedTo'] = async (
    session,
    fileId,
    wrappedKey,
    url,
    target,
    length,
    onWritten,
    signal,
  ) => {
    signal?.throwIfAborted();
    const args = [session, fileId, wrappedKey, url, target, length] as const;
    const job = await primary.call('beginFetchedTo', [...args]);
    let over = false;
    let onAbort = () => undefined as void;
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => {
        if (over) return;
        over = true;
        void primary.call('endFetched', [job]).catch(() => undefined);
        const reason: unknown = signal?.reason;
        reject(reason instanceof Error ? reason : new DOMException('Aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
    stopped.catch(() => undefined);
    let bytes = 0;
    try {
      for (;;) {
        const steps = await Promise.race([primary.call('readWritten', [job]), stopped]);
        if (steps.length === 0) break;
        for (const n of steps) bytes += n;
        onWritten?.(bytes);
      }
    } finally {
      over = true; // the Worker ended the job: saved, failed, or stopped above
      signal?.removeEventListener('abort', onAbort);
    }
  };

  return {
    decryptFetchedTo,
    async encryptFile(session, fileId, file, paddedSize, pieceBytes = CONTENT_HASH_BLOCK_BYTES) {
      const args = [session, fileId, file, paddedSize, pieceBytes] as const;
      const { job, wrappedKey } = await primary.call('beginSealFile', [...args]);
      const read = () => primary.call('readSealed', [job]);
      return { wrappedKey, ...sealedStream(job, read, (p) => p.length, paddedSize) };
    },
    async encryptFilePieces(
      session,
      fileId,
      file,
      paddedSize,
      pieceBytes = CONTENT_HASH_BLOCK_BYTES,
    ) {
      const args = [session, fileId, file, paddedSize, pieceBytes] as const;
      const { job, wrappedKey } = await primary.call('beginSealPieces', [...args]);
      const read = () => primary.call('readSealedPieces', [job]);
      return { wrappedKey, ...sealedStream(job, read, (p) => p.blob.size, paddedSize) };
    },
    decryptFetched,
  };
}
