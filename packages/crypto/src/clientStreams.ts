// The crypto client's file streams: a plaintext stream sealed into vf1 chunks, a whole ciphertext
// opened, and a range's slice opened and trimmed (vault-format.md §2, §4). Chunks are dealt round
// robin over the pool's Workers and come back in order ([Note: crypto pool] in client.ts).
import { ByteReader, openChunks, sealChunks, toReadable, trim } from './stream.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import { CONTENT_HASH_BLOCK_BYTES } from './contentHash.ts';
import type { RangePlan } from './chunk.ts';
import type { Pool } from './clientPool.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';

/** An encryption in progress: the ciphertext stream (header first) and its result. */
export interface EncryptedFileStream {
  /** encFK, base64: store it with the file record. */
  wrappedKey: string;
  /** Header then sealed chunks; read it to the end. */
  ciphertext: ReadableStream<Uint8Array>;
  /** Resolves when `ciphertext` has been read to the end; rejects if it failed. */
  done: Promise<{ ciphertextSize: number; plaintextSize: number }>;
}

export interface StreamOptions {
  /** Chunks in flight at once. */
  concurrency: number;
  /** Read each next chunk into the buffer of one already done ([Note: buffer reuse]). */
  reuseOnSeal: boolean;
  reuseOnOpen: boolean;
}

export interface FileStreams {
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
  encryptFileStream(
    session: SessionId,
    fileId: FileId,
    plaintext: ReadableStream<Uint8Array>,
  ): Promise<EncryptedFileStream>;
  decryptFileStream(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    ciphertext: ReadableStream<Uint8Array>,
  ): ReadableStream<Uint8Array>;
  decryptRange(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
    plan: RangePlan,
    slice: ReadableStream<Uint8Array>,
  ): ReadableStream<Uint8Array>;
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
}

/** A promise settled from outside; its rejection is handled where it is awaited, if anywhere. */
function settled<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (err: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export function fileStreams(pool: Pool, options: StreamOptions): FileStreams {
  const { all, primary, others } = pool;
  const { concurrency } = options;

  /** The primary begins an encryption; each other Worker gets its lane from it. */
  async function beginEncrypt(session: SessionId, fileId: FileId) {
    const begun = await primary.call('beginEncrypt', [session, fileId, all.length]);
    const lanes = await Promise.allSettled(
      others.map((_, i) =>
        pool.handOver(
          i,
          (port) => primary.call('sendLane', [begun.job, i + 1, port], [port]),
          (t, port) => t.call('receiveLane', [port], [port]),
        ),
      ),
    );
    const jobs = [begun.job, ...lanes.map((r) => (r.status === 'fulfilled' ? r.value : null))];
    const failed = lanes.find((r) => r.status === 'rejected');
    if (failed) {
      const end = (job: JobId | null, w: number) =>
        job ? all[w]!.call('endJob', [job]) : Promise.resolve();
      await Promise.all(jobs.map(end));
      throw failed.reason;
    }
    return { ...begun, jobs: jobs as JobId[] };
  }

  /** A decryption job in every Worker (each opens encFK and checks the header itself). */
  async function beginDecrypt(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
  ): Promise<JobId[]> {
    const begun = await Promise.allSettled(
      all.map((t) => t.call('beginDecrypt', [session, fileId, wrappedKey, header.slice()])),
    );
    const jobs = begun.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = begun.find((r) => r.status === 'rejected');
    if (failed) {
      await pool.endJobs(jobs);
      throw failed.reason;
    }
    return jobs;
  }

  const opener = (jobs: readonly JobId[]) => ({
    open: (index: number, sealed: Bytes, final: boolean) => {
      const w = index % all.length;
      return all[w]!.call('openChunk', [jobs[w]!, index, sealed, final], [sealed.buffer]);
    },
  });

  async function* decryptAll(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    source: ReadableStream<Uint8Array>,
  ) {
    const reader = new ByteReader(source);
    const header = await reader.read(HEADER_BYTES);
    if (header.length !== HEADER_BYTES) {
      await reader.cancel();
      throw new CryptoError('DECRYPT_FAILED');
    }
    let jobs: JobId[] = [];
    try {
      jobs = await beginDecrypt(session, fileId, wrappedKey, header);
      yield* openChunks(reader, opener(jobs), concurrency, undefined, options.reuseOnOpen);
    } finally {
      await reader.cancel();
      await pool.endJobs(jobs);
    }
  }

  async function* decryptSlice(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    header: Uint8Array,
    plan: RangePlan,
    slice: ReadableStream<Uint8Array>,
  ) {
    const jobs = await beginDecrypt(session, fileId, wrappedKey, header);
    try {
      const reader = new ByteReader(slice);
      const chunks = openChunks(reader, opener(jobs), concurrency, plan, options.reuseOnOpen);
      yield* trim(chunks, plan.skip, plan.length);
    } finally {
      await pool.endJobs(jobs);
    }
  }

  async function encryptFileStream(
    session: SessionId,
    fileId: FileId,
    plaintext: ReadableStream<Uint8Array>,
  ): Promise<EncryptedFileStream> {
    const { jobs, header, wrappedKey } = await beginEncrypt(session, fileId);
    let plaintextSize = 0;
    let ciphertextSize = header.length;
    const sizes = settled<Awaited<EncryptedFileStream['done']>>();
    const sealer = {
      seal: (index: number, plain: Bytes, final: boolean) => {
        plaintextSize += plain.length;
        const w = index % all.length;
        return all[w]!.call('sealChunk', [jobs[w]!, index, plain, final], [plain.buffer]);
      },
    };
    async function* sealed() {
      try {
        yield header;
        for await (const chunk of sealChunks(plaintext, sealer, concurrency, options.reuseOnSeal)) {
          ciphertextSize += chunk.length;
          yield chunk;
        }
        sizes.resolve({ ciphertextSize, plaintextSize });
      } catch (err) {
        sizes.reject(err);
        throw err;
      } finally {
        sizes.reject(new CryptoError('INVALID_INPUT', 'The ciphertext stream was cancelled'));
        await pool.endJobs(jobs);
      }
    }
    return { wrappedKey, ciphertext: toReadable(sealed()), done: sizes.promise };
  }

  async function encryptFile(
    session: SessionId,
    fileId: FileId,
    file: Blob,
    paddedSize: number,
    pieceBytes = CONTENT_HASH_BLOCK_BYTES,
  ): Promise<EncryptedFileStream> {
    const { job, wrappedKey } = await primary.call('beginSealFile', [
      session,
      fileId,
      file,
      paddedSize,
      pieceBytes,
    ]);
    let ciphertextSize = 0;
    let over = false;
    const sizes = settled<Awaited<EncryptedFileStream['done']>>();
    async function* sealed() {
      try {
        for (;;) {
          const parts = await primary.call('readSealed', [job]);
          if (parts.length === 0) break;
          for (const part of parts) {
            ciphertextSize += part.length;
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
    return { wrappedKey, ciphertext: toReadable(sealed()), done: sizes.promise };
  }

  async function decryptFetched(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    url: string,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
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
  }

  return {
    encryptFile,
    encryptFileStream,
    decryptFetched,
    decryptFileStream: (session, fileId, wrappedKey, ciphertext) =>
      toReadable(decryptAll(session, fileId, wrappedKey, ciphertext)),
    decryptRange: (session, fileId, wrappedKey, header, plan, slice) =>
      toReadable(decryptSlice(session, fileId, wrappedKey, header, plan, slice)),
  };
}
