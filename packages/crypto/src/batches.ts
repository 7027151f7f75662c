// Chunks handed from a crypto Worker to the page in batches of about 1 MiB (4 MiB for fetched
// downloads), one batch read ahead
// while the page handles the last ([Note: fetched downloads] in fetched.ts, [Note: files read in
// the Worker] in sealedFile.ts). Each running job is known by its id until it ends or fails.
import { CryptoError } from './errors.ts';
import type { JobId } from './ids.ts';
import type { Bytes } from './primitives.ts';

/** Bytes per answer to the page: four 256 KiB chunks a message instead of one. */
export const BATCH_BYTES = 2 ** 20;

interface Running<T> {
  /** The batch being read ahead. */
  ahead: Promise<T[]>;
  chunks: AsyncIterator<T, void, undefined>;
  stop: () => Promise<void>;
}

/** A promise whose failure surfaces where it is awaited, not as an unhandled rejection. */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

async function batchOf<T>(
  chunks: AsyncIterator<T, void, undefined>,
  sizeOf: (item: T) => number,
  batchBytes: number,
): Promise<T[]> {
  const out: T[] = [];
  let bytes = 0;
  while (bytes < batchBytes) {
    const { done, value } = await chunks.next();
    if (done) break;
    out.push(value);
    bytes += sizeOf(value);
  }
  return out;
}

export interface BatchJobs<T = Bytes> {
  /** Starts reading `chunks` ahead for `job`; `stop` releases what the job holds. */
  add(job: JobId, chunks: AsyncIterator<T, void, undefined>, stop: () => Promise<void>): void;
  /**
   * The job's next batch, in order; empty once the chunks ended (the job is then over). A failure
   * ends the job too: a CryptoError as it is, anything else (a stream cut off) as `otherwise`.
   */
  read(job: JobId, otherwise: CryptoError): Promise<T[]>;
  /** Ends a job early. */
  end(job: JobId): Promise<void>;
}

/**
 * Jobs of byte chunks, or of items that `sizeOf` says how many bytes each stands for, answered
 * `batchBytes` (or a little more) at a time.
 */
export function batchJobs(sizeOf?: undefined, batchBytes?: number): BatchJobs;
export function batchJobs<T>(sizeOf: (item: T) => number, batchBytes?: number): BatchJobs<T>;
export function batchJobs<T>(
  sizeOf: (item: T) => number = (item) => (item as Bytes).length,
  batchBytes = BATCH_BYTES,
): BatchJobs<T> {
  const running = new Map<JobId, Running<T>>();
  return {
    add(job, chunks, stop) {
      running.set(job, { ahead: quiet(batchOf(chunks, sizeOf, batchBytes)), chunks, stop });
    },
    async read(job, otherwise) {
      const run = running.get(job);
      if (!run) throw new CryptoError('INVALID_INPUT');
      try {
        const parts = await run.ahead;
        if (parts.length === 0) {
          running.delete(job);
          await run.stop();
          return [];
        }
        run.ahead = quiet(batchOf(run.chunks, sizeOf, batchBytes)); // read while the page handles this batch
        return parts;
      } catch (err) {
        running.delete(job);
        await run.stop();
        throw err instanceof CryptoError ? err : otherwise;
      }
    },
    async end(job) {
      const run = running.get(job);
      running.delete(job);
      await run?.stop();
    },
  };
}
