// Downloads fetched and opened inside the crypto Worker (issue 31, "the Worker fetches and
// decrypts, the page only writes"). Where the storage has a plain URL for a file's ciphertext
// (our server's content route, the page's cookies), the Worker that holds the session fetches it,
// reads the vf1 header and chunks itself and hands the page the plaintext: about 4 MiB of opened
// 256 KiB chunks per message, as a list whose buffers are transferred (batches.ts). The page then
// neither reads the ciphertext nor sends it anywhere: in the page-fed path (clientStreams.ts)
// reading and posting every 256 KiB chunk kept the page thread the busiest of a download while
// the Worker waited (bench/RESULTS.md, "Speed II: downloads").
//
// [Note: fetched downloads] One Worker fetches and opens the whole file: its chunks are not dealt
// over the pool. The network is read ahead by one batch while the page writes the last one.
// Only a same-origin URL is fetched (where the Worker knows its origin): the Worker sends the
// page's cookies with it and nothing else. The opened chunks are never copied into one buffer:
// that copy cost the Worker about two thirds of what AES-GCM did (a 256 MiB download's profile,
// 448 ms beside 657 ms); a message carries the chunks as they are, and a file the Worker writes
// itself gets one Blob of them per write.
import { ByteReader, openChunks, trim } from './stream.ts';
import { batchJobs } from './batches.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import type { CryptoService } from './service.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';

/** Chunks being opened at once in the fetching Worker. */
const CONCURRENCY = 4;
/** Plaintext handed to the page per message, or written per write ([Note: fetched downloads]). */
export const FETCHED_BATCH_BYTES = 4 * 2 ** 20;

/**
 * The chunks in lists of at least `size` bytes (the last smaller), not copied: the Worker then
 * writes one Blob per list, one call to the file's writable instead of sixteen.
 */
export async function* grouped(
  chunks: AsyncIterable<Bytes>,
  size: number,
): AsyncGenerator<Bytes[], void, undefined> {
  let list: Bytes[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    list.push(chunk);
    bytes += chunk.length;
    if (bytes >= size) {
      yield list;
      list = [];
      bytes = 0;
    }
  }
  if (list.length > 0) yield list;
}

export interface FetchedDownloads {
  /**
   * Fetches `url` and opens the ciphertext it answers (header first) with `wrappedKey`: resolves
   * once the header checked out, with a job to read from. NOT_FOUND for a 404, FETCH_FAILED for
   * any other failed request, DECRYPT_FAILED for a damaged header or key.
   */
  beginFetched(session: SessionId, fileId: FileId, wrappedKey: string, url: string): Promise<JobId>;
  /**
   * The next plaintext, in order: about 4 MiB of opened chunks, each in a buffer of its own (moved
   * to the page, not copied); empty once the file ended (job over).
   */
  readFetched(job: JobId): Promise<Bytes[]>;
  /**
   * The same, written by the Worker itself to `target`, a file handle the page's save dialog
   * gave, cut to the file's `length` (its padding dropped) ([Note: downloads written in the
   * Worker]). The file is written once every byte opened; WRITE_FAILED if it cannot be.
   */
  beginFetchedTo(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    url: string,
    target: WritableTarget,
    length: number,
  ): Promise<JobId>;
  /** Bytes written since the last call, in steps of about 4 MiB; empty once the file is saved. */
  readWritten(job: JobId): Promise<number[]>;
  /** Stops a fetched download early: its request is aborted, its job ended, its file dropped. */
  endFetched(job: JobId): Promise<void>;
}

/** What the Worker writes a download to: a File System Access file handle (structured-cloned). */
export interface WritableTarget {
  createWritable(): Promise<{
    write(data: Blob): Promise<void>;
    close(): Promise<void>;
    abort(reason?: unknown): Promise<void>;
  }>;
}

type Opening = Pick<CryptoService, 'beginDecrypt' | 'openChunk' | 'endJob'>;

/** Refuses a URL of another origin, where the Worker knows its own (a browser). */
function checkedUrl(url: string): string {
  const here = (globalThis as { location?: { href: string; origin: string } }).location;
  if (!here) return url;
  const target = new URL(url, here.href);
  if (target.origin !== here.origin) throw new CryptoError('INVALID_INPUT');
  return target.href;
}

export function fetchedDownloads(
  files: Opening,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
): FetchedDownloads {
  const jobs = batchJobs(undefined, FETCHED_BATCH_BYTES);
  const writes = batchJobs<number>((n) => n);

  async function request(url: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const res = await fetchFn(checkedUrl(url), { signal, credentials: 'same-origin' }).catch(() => {
      throw new CryptoError('FETCH_FAILED');
    });
    if (res.ok && res.body) return res.body;
    await res.body?.cancel().catch(() => undefined);
    throw new CryptoError(res.status === 404 ? 'NOT_FOUND' : 'FETCH_FAILED');
  }

  /** Fetches and opens `url`: the job, its plaintext chunks, and how to stop it. */
  async function open(session: SessionId, fileId: FileId, wrappedKey: string, url: string) {
    const abort = new AbortController();
    const reader = new ByteReader(await request(url, abort.signal));
    let job: JobId | null = null;
    const stop = async () => {
      abort.abort();
      await reader.cancel().catch(() => undefined);
      if (job) await files.endJob(job).catch(() => undefined);
    };
    try {
      const header = await reader.read(HEADER_BYTES);
      if (header.length !== HEADER_BYTES) throw new CryptoError('DECRYPT_FAILED');
      job = await files.beginDecrypt(session, fileId, wrappedKey, header);
    } catch (err) {
      await stop();
      throw err instanceof CryptoError ? err : new CryptoError('FETCH_FAILED');
    }
    const opened = job;
    const opener = {
      open: (index: number, sealed: Bytes, final: boolean) =>
        files.openChunk(opened, index, sealed, final),
    };
    const plain = openChunks(reader, opener, CONCURRENCY);
    return { job: opened, plain, stop };
  }

  const beginFetched: FetchedDownloads['beginFetched'] = async (
    session,
    fileId,
    wrappedKey,
    url,
  ) => {
    const { job, plain, stop } = await open(session, fileId, wrappedKey, url);
    jobs.add(job, plain, stop);
    return job;
  };

  // [Note: downloads written in the Worker] Where the page's save dialog gave a file handle,
  // the page hands it to the Worker, which writes the plaintext itself: the page then only shows
  // the progress (bench/RESULTS.md, "Speed II: uploads and downloads"). A write that fails is
  // WRITE_FAILED; a download stopped early aborts the writable, so the browser drops the file.
  const beginFetchedTo: FetchedDownloads['beginFetchedTo'] = async (
    session,
    fileId,
    wrappedKey,
    url,
    target,
    length,
  ) => {
    if (!Number.isSafeInteger(length) || length < 0) throw new CryptoError('INVALID_INPUT');
    const { job, plain, stop } = await open(session, fileId, wrappedKey, url);
    const writable = await target.createWritable().catch(async () => {
      await stop();
      throw new CryptoError('WRITE_FAILED');
    });
    const failed = () => new CryptoError('WRITE_FAILED');
    async function* written(): AsyncGenerator<number, void, undefined> {
      // trim cuts each chunk, so the padding goes wherever a chunk boundary falls.
      for await (const list of grouped(trim(plain, 0, length), FETCHED_BATCH_BYTES)) {
        const blob = new Blob(list);
        await writable.write(blob).catch(() => Promise.reject(failed()));
        yield blob.size;
      }
      await writable.close().catch(() => Promise.reject(failed()));
    }
    let saved = false;
    const steps = written();
    const counted = (async function* () {
      yield* steps;
      saved = true;
    })();
    const end = async () => {
      await stop();
      if (!saved) await writable.abort().catch(() => undefined);
    };
    writes.add(job, counted, end);
    return job;
  };

  return {
    beginFetched,
    // A request dropped half-way surfaces as a stream error: not a damaged file.
    readFetched: (job) => jobs.read(job, new CryptoError('FETCH_FAILED')),
    beginFetchedTo,
    readWritten: (job) => writes.read(job, new CryptoError('FETCH_FAILED')),
    endFetched: async (job) => {
      await Promise.all([jobs.end(job), writes.end(job)]);
    },
  };
}
