// The crypto client's file streams: a plaintext stream sealed into vf1 chunks, a whole ciphertext
// opened, and a range's slice opened and trimmed (vault-format.md §2, §4). Chunks are dealt round
// robin over the pool's Workers and come back in order ([Note: crypto pool] in client.ts).
import { ByteReader, openChunks, sealChunks, toReadable, trim } from './stream.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import type { RangePlan } from './chunk.ts';
import type { Pool } from './clientPool.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';
import {
  settled,
  workerFiles,
  type EncryptedFileStream,
  type WorkerFiles,
} from './clientWorkerFiles.ts';

export type { EncryptedFileStream } from './clientWorkerFiles.ts';

export interface StreamOptions {
  /** Chunks in flight at once. */
  concurrency: number;
  /** Read each next chunk into the buffer of one already done ([Note: buffer reuse]). */
  reuseOnSeal: boolean;
  reuseOnOpen: boolean;
}

export interface FileStreams extends WorkerFiles {
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

  return {
    ...workerFiles(pool),
    encryptFileStream,
    decryptFileStream: (session, fileId, wrappedKey, ciphertext) =>
      toReadable(decryptAll(session, fileId, wrappedKey, ciphertext)),
    decryptRange: (session, fileId, wrappedKey, header, plan, slice) =>
      toReadable(decryptSlice(session, fileId, wrappedKey, header, plan, slice)),
  };
}
