// File jobs of the crypto service (vault-format.md §2): one per file encryption or decryption in
// progress, holding that file's keys inside the service. Chunks of an encryption must arrive in
// index order; the ciphertext SHA-256 (the transport checksum) is updated in that order too.
import { fromBase64, toBase64, toHex, type RandomBytes } from './bytes.ts';
import { openChunk, sealChunk } from './chunk.ts';
import { CryptoError } from './errors.ts';
import { newHeader, openHeader, type FileCipher } from './header.ts';
import { asFileId, type FileId, type JobId, type SessionId } from './ids.ts';
import { newFileKey, openFileKey, type VaultKeys } from './keys.ts';
import { createSha256, type Bytes, type Sha256 } from './primitives.ts';

export interface EncryptJob {
  job: JobId;
  /** The 72 header bytes: the first bytes of the ciphertext. */
  header: Bytes;
  /** encFK, base64 (the file record's wrapped key). */
  wrappedKey: string;
}

/**
 * A sealed or opened chunk, and the input's buffer handed back. The input was copied by WebCrypto
 * when the call began, so the caller may read its next chunk into `spare` instead of allocating:
 * in Chromium a fresh 256 KiB buffer per chunk costs about as much as the AES itself
 * (bench/RESULTS.md, "Crypto").
 */
export interface ChunkResult {
  out: Bytes;
  spare: Bytes;
}

export interface EncryptResult {
  /** SHA-256 of the whole ciphertext, lowercase hex (the transport checksum); null if not asked. */
  checksum: string | null;
  ciphertextSize: number;
}

type Job =
  | {
      kind: 'encrypt';
      session: SessionId;
      fc: FileCipher;
      hash: Sha256 | null;
      /** Settles when the last chunk handed in so far has been hashed. */
      tail: Promise<void>;
      next: number;
      size: number;
      finished: boolean;
    }
  | { kind: 'decrypt'; session: SessionId; fc: FileCipher };

export function createFileJobs(
  random: RandomBytes,
  keysOf: (session: SessionId) => VaultKeys,
  isLive: (session: SessionId) => boolean,
) {
  const jobs = new Map<JobId, Job>();
  const jobOf = <K extends Job['kind']>(id: JobId, kind: K) => {
    const job = jobs.get(id);
    if (!job || job.kind !== kind) throw new CryptoError('INVALID_INPUT');
    if (!isLive(job.session)) throw new CryptoError('LOCKED');
    return job as Extract<Job, { kind: K }>;
  };
  const newJob = (job: Job) => {
    const id = toHex(random(16)) as JobId;
    jobs.set(id, job);
    return id;
  };

  return {
    /** Forgets the jobs of sessions that were locked (their keys go with them). */
    sweep: (): void => {
      for (const [id, job] of jobs) if (!isLive(job.session)) jobs.delete(id);
    },

    beginEncrypt: async (
      session: SessionId,
      fileId: FileId,
      checksum: boolean,
    ): Promise<EncryptJob> => {
      const keys = keysOf(session);
      const id = asFileId(fileId);
      const { wrapped, fk } = await newFileKey(keys, id, random);
      const fc = await newHeader(fk, id, random);
      const hash = checksum ? await createSha256() : null;
      hash?.update(fc.header);
      const size = fc.header.length;
      const tail = Promise.resolve();
      const job = newJob({
        kind: 'encrypt',
        session,
        fc,
        hash,
        tail,
        next: 0,
        size,
        finished: false,
      });
      return { job, header: fc.header.slice(), wrappedKey: toBase64(wrapped) };
    },

    sealChunk: async (
      jobId: JobId,
      index: number,
      plain: Bytes,
      final: boolean,
    ): Promise<ChunkResult> => {
      const job = jobOf(jobId, 'encrypt');
      if (job.finished || index !== job.next) throw new CryptoError('INVALID_INPUT');
      job.next += 1;
      job.finished = final;
      const sealed = sealChunk(job.fc, index, plain, final);
      const hash = job.hash;
      if (!hash) {
        // No checksum, nothing to order: each chunk goes back as soon as it is sealed (the tail
        // still waits for it, for finishEncrypt's size).
        const done = sealed.then((ct) => {
          job.size += ct.length;
          return { out: ct, spare: plain };
        });
        const settled = done.then(
          () => undefined,
          () => undefined,
        );
        const before = job.tail;
        job.tail = before.then(() => settled);
        return done;
      }
      // Each chunk waits for its predecessor to be hashed, so the checksum follows index order.
      const hashed = job.tail.then(async () => {
        const ct = await sealed;
        hash.update(ct);
        job.size += ct.length;
        return { out: ct, spare: plain };
      });
      job.tail = hashed.then(
        () => undefined,
        () => undefined,
      );
      return hashed;
    },

    finishEncrypt: async (jobId: JobId): Promise<EncryptResult> => {
      const job = jobOf(jobId, 'encrypt');
      if (!job.finished) throw new CryptoError('INVALID_INPUT');
      await job.tail;
      jobs.delete(jobId);
      return { checksum: job.hash?.digestHex() ?? null, ciphertextSize: job.size };
    },

    beginDecrypt: async (session: SessionId, fileId: FileId, wrappedKey: string, header: Bytes) => {
      const keys = keysOf(session);
      const id = asFileId(fileId);
      let wrapped: Bytes;
      try {
        wrapped = fromBase64(wrappedKey);
      } catch {
        throw new CryptoError('DECRYPT_FAILED');
      }
      const fk = await openFileKey(keys, id, wrapped);
      return newJob({ kind: 'decrypt', session, fc: await openHeader(fk, id, header) });
    },

    openChunk: async (
      jobId: JobId,
      index: number,
      sealed: Bytes,
      final: boolean,
    ): Promise<ChunkResult> => {
      const out = await openChunk(jobOf(jobId, 'decrypt').fc, index, sealed, final);
      return { out, spare: sealed };
    },

    endJob: (jobId: JobId): Promise<void> => {
      jobs.delete(jobId);
      return Promise.resolve();
    },
  };
}
