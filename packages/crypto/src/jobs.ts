// File jobs of the crypto service (vault-format.md §2): one per file encryption or decryption in
// progress, holding that file's keys inside the service. [Note: encryption lanes] A file may be
// encrypted by a pool of services (one per crypto Worker), each sealing every `lanes`-th chunk:
// the first begins the job (fresh FK and header) and hands each other lane, once, to another
// service (laneOf/adoptLane, through peers.ts). There is no other way into an encryption: a
// service seals only the indices of its own lane, each once and in order, so no chunk nonce can
// ever seal two plaintexts, whatever the caller does (no "joining" an old file from its wrapped
// key and header).
import { fromBase64, toBase64, toHex, type RandomBytes } from './bytes.ts';
import { openChunk, sealChunk } from './chunk.ts';
import { CryptoError } from './errors.ts';
import { newHeader, openHeader, type FileCipher } from './header.ts';
import { asFileId, type FileId, type JobId, type SessionId } from './ids.ts';
import { newFileKey, openFileKey, type VaultKeys } from './keys.ts';
import type { Bytes } from './primitives.ts';

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

/** Which chunks of a file one service seals: indices lane, lane + lanes, lane + 2 * lanes, ... */
interface Lane {
  lane: number;
  lanes: number;
}

type Job =
  | {
      kind: 'encrypt';
      session: SessionId;
      fc: FileCipher;
      /** The only index this service may seal next (its lane's next one). */
      next: number;
      lanes: number;
      finished: boolean;
      /** On the service that began the job: the lanes handed to others so far (each once). */
      handed: Set<number> | null;
    }
  | { kind: 'decrypt'; session: SessionId; fc: FileCipher };

const checkLane = ({ lane, lanes }: Lane): void => {
  const ok = Number.isSafeInteger(lanes) && lanes >= 1 && lanes <= 64;
  if (!ok || !Number.isSafeInteger(lane) || lane < 0 || lane >= lanes) {
    throw new CryptoError('INVALID_INPUT');
  }
};

/** Opens encFK and the header (MAC first); any failure is DECRYPT_FAILED. */
async function openFile(keys: VaultKeys, fileId: FileId, wrappedKey: string, header: Bytes) {
  const id = asFileId(fileId);
  let wrapped: Bytes;
  try {
    wrapped = fromBase64(wrappedKey);
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  }
  return openHeader(await openFileKey(keys, id, wrapped), id, header);
}

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

    /** Starts a new file version (fresh FK and header); this service seals lane 0 of `lanes`. */
    beginEncrypt: async (session: SessionId, fileId: FileId, lanes = 1): Promise<EncryptJob> => {
      checkLane({ lane: 0, lanes });
      const keys = keysOf(session);
      const id = asFileId(fileId);
      const { wrapped, fk } = await newFileKey(keys, id, random);
      const fc = await newHeader(fk, id, random);
      const job = newJob({
        kind: 'encrypt',
        session,
        fc,
        next: 0,
        lanes,
        finished: false,
        handed: new Set(),
      });
      return { job, header: fc.header.slice(), wrappedKey: toBase64(wrapped) };
    },

    /** What hands lane `lane` of a job begun here to another service (peers.ts); once per lane. */
    laneOf: (jobId: JobId, lane: number): Record<string, unknown> => {
      const job = jobOf(jobId, 'encrypt');
      checkLane({ lane, lanes: job.lanes });
      if (lane === 0 || !job.handed || job.handed.has(lane)) throw new CryptoError('INVALID_INPUT');
      job.handed.add(lane);
      return { session: job.session, fc: job.fc, lane, lanes: job.lanes };
    },

    /** A job for a lane another service handed over (laneOf's payload). */
    adoptLane: (payload: Record<string, unknown>): JobId => {
      const { session, fc, lane, lanes } = payload as Partial<{
        session: SessionId;
        fc: FileCipher;
        lane: number;
        lanes: number;
      }>;
      const cipherOk =
        fc?.header instanceof Uint8Array &&
        fc.header.length === 72 &&
        fc.payload instanceof CryptoKey &&
        !fc.payload.extractable;
      if (typeof session !== 'string' || !cipherOk || lane === undefined || lanes === undefined) {
        throw new CryptoError('INVALID_INPUT');
      }
      checkLane({ lane, lanes });
      if (lane === 0) throw new CryptoError('INVALID_INPUT');
      keysOf(session); // LOCKED unless the session is open here too
      return newJob({
        kind: 'encrypt',
        session,
        fc,
        next: lane,
        lanes,
        finished: false,
        handed: null,
      });
    },

    sealChunk: async (
      jobId: JobId,
      index: number,
      plain: Bytes,
      final: boolean,
    ): Promise<ChunkResult> => {
      const job = jobOf(jobId, 'encrypt');
      if (job.finished || index !== job.next) throw new CryptoError('INVALID_INPUT');
      job.next += job.lanes;
      job.finished = final;
      return { out: await sealChunk(job.fc, index, plain, final), spare: plain };
    },

    beginDecrypt: async (session: SessionId, fileId: FileId, wrappedKey: string, header: Bytes) =>
      newJob({
        kind: 'decrypt',
        session,
        fc: await openFile(keysOf(session), fileId, wrappedKey, header),
      }),

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
