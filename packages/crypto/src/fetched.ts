// Downloads fetched and opened inside the crypto Worker (issue 31, "the Worker fetches and
// decrypts, the page only writes"). Where the storage has a plain URL for a file's ciphertext
// (our server's content route, the page's cookies), the Worker that holds the session fetches it,
// reads the vf1 header and chunks itself and hands the page the plaintext, about 1 MiB per
// message. The page then neither reads the ciphertext nor sends it anywhere: in the page-fed path
// (clientStreams.ts) reading and posting every 256 KiB chunk kept the page thread the busiest of
// a download while the Worker waited (bench/RESULTS.md, "Speed II: downloads").
//
// [Note: fetched downloads] One Worker fetches and opens the whole file: its chunks are not dealt
// over the pool. The network is read ahead by one batch while the page writes the last one.
// Only a same-origin URL is fetched (where the Worker knows its origin): the Worker sends the
// page's cookies with it and nothing else.
import { ByteReader, openChunks } from './stream.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES } from './header.ts';
import type { CryptoService } from './service.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';

/** Plaintext per answer to the page: four 256 KiB chunks a message instead of one. */
const BATCH_BYTES = 2 ** 20;
/** Chunks being opened at once in the fetching Worker. */
const CONCURRENCY = 4;

export interface FetchedDownloads {
  /**
   * Fetches `url` and opens the ciphertext it answers (header first) with `wrappedKey`: resolves
   * once the header checked out, with a job to read from. NOT_FOUND for a 404, FETCH_FAILED for
   * any other failed request, DECRYPT_FAILED for a damaged header or key.
   */
  beginFetched(session: SessionId, fileId: FileId, wrappedKey: string, url: string): Promise<JobId>;
  /** The next plaintext, in order, about 1 MiB of it; empty once the file ended (job over). */
  readFetched(job: JobId): Promise<Bytes[]>;
  /** Stops a fetched download early: its request is aborted and its job ended. */
  endFetched(job: JobId): Promise<void>;
}

/** A promise whose failure surfaces where it is awaited, not as an unhandled rejection. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

type Opening = Pick<CryptoService, 'beginDecrypt' | 'openChunk' | 'endJob'>;

interface Running {
  /** The batch being read ahead. */
  ahead: Promise<Bytes[]>;
  /** Reads the next batch from the opened chunks. */
  batch: () => Promise<Bytes[]>;
  stop: () => Promise<void>;
}

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
  const running = new Map<JobId, Running>();

  async function request(url: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const res = await fetchFn(checkedUrl(url), { signal, credentials: 'same-origin' }).catch(() => {
      throw new CryptoError('FETCH_FAILED');
    });
    if (res.ok && res.body) return res.body;
    await res.body?.cancel().catch(() => undefined);
    throw new CryptoError(res.status === 404 ? 'NOT_FOUND' : 'FETCH_FAILED');
  }

  async function beginFetched(
    session: SessionId,
    fileId: FileId,
    wrappedKey: string,
    url: string,
  ): Promise<JobId> {
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
    const chunks = openChunks(reader, opener, CONCURRENCY);
    const batch = async (): Promise<Bytes[]> => {
      const out: Bytes[] = [];
      let bytes = 0;
      while (bytes < BATCH_BYTES) {
        const { done, value } = await chunks.next();
        if (done) break;
        out.push(value);
        bytes += value.length;
      }
      return out;
    };
    running.set(opened, { ahead: quiet(batch()), batch, stop });
    return opened;
  }

  async function readFetched(job: JobId): Promise<Bytes[]> {
    const run = running.get(job);
    if (!run) throw new CryptoError('INVALID_INPUT');
    try {
      const parts = await run.ahead;
      if (parts.length === 0) {
        running.delete(job);
        await run.stop();
        return [];
      }
      // The batch after this one, read while the page writes this one.
      run.ahead = quiet(run.batch());
      return parts;
    } catch (err) {
      running.delete(job);
      await run.stop();
      // A request dropped half-way surfaces as a stream error: not a damaged file.
      throw err instanceof CryptoError ? err : new CryptoError('FETCH_FAILED');
    }
  }

  return {
    beginFetched,
    readFetched,
    async endFetched(job) {
      const run = running.get(job);
      running.delete(job);
      await run?.stop();
    },
  };
}
