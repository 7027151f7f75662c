// What every cloud provider's calls share (issue 26; docs/storage-providers.md): one authorised
// call with its retries, the way each provider asks of clients (429, 5xx and rate limits wait as
// Retry-After says, or back off exponentially; a lost connection is tried again unless the request
// may have made something), cancellation, the mapping of failures to StorageError, and the one
// place an "unauthorised" answer is handled: the token is renewed silently once and the call sent
// again; if that fails the connection is forgotten (every screen that shows it changes at once,
// cloud/connections.ts) and the call fails with '<Provider> not connected'.
import { StorageError, type Capabilities } from '../provider.ts';
import { piecesOf, type PieceReader, type PieceSourceReader } from '../server/pieces.ts';
import { connections, type CloudId } from './connections.ts';
import { sendBytes } from './xhr.ts';
import { msg } from '../../i18n/i18n.ts';

/** An answer of a cloud provider that is not a success. */
export class CloudError extends Error {
  constructor(
    readonly status: number,
    /** The provider's own error code (Dropbox's error_summary, Drive's reason, Graph's code). */
    readonly reason: string,
    detail: string,
    /** How long Retry-After asks to wait, in ms; null without one. */
    readonly waitMs: number | null,
    /** The parsed JSON body, or {} for a text answer. */
    readonly body: Record<string, unknown> = {},
  ) {
    super(`${status} ${reason}: ${detail}`);
    this.name = 'CloudError';
  }
}

/** The connection was lost before an answer came, and the request was not (or no more) retried. */
export class ConnectionLost extends Error {}

/** What a provider tells the shared call about itself. */
export interface CloudService {
  id: CloudId;
  texts: { notConnected: string; full: string; failed: string };
  /** A token to send, renewed ahead of its expiry where the provider can; null: not connected. */
  token(): Promise<string | null>;
  /** After the provider refused the token: renews it silently; true if there is a new one. */
  renew(): Promise<boolean>;
  /** The provider's error from an answer that is not a success (its body not yet read). */
  errorOf(res: Response): Promise<CloudError>;
  /** Besides 429 and 5xx: errors that ask to slow down (Drive's 403 rate limits). */
  slowDown?(err: CloudError): boolean;
  /** Whether the error says the account is out of space. */
  isFull(err: CloudError): boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  onRetrying?: (retrying: boolean) => void;
  /** false: a lost connection is not retried (the request may have made a file). */
  retryLost?: boolean;
  tries?: number;
  /** Send no Authorization header (a pre-authenticated upload or download URL). */
  anonymous?: boolean;
  /** A byte body goes by XMLHttpRequest, whose copy of it Chromium frees sooner (xhr.ts). */
  bytesByXhr?: boolean;
}

export const MAX_TRIES = 5;

/** Retry-After in ms (seconds or an HTTP date), at most a minute; null without one. */
export function retryAfterMs(res: Response, now = Date.now()): number | null {
  const v = res.headers.get('retry-after')?.trim();
  if (!v) return null;
  const at = /^\d+$/.test(v) ? now + Number(v) * 1000 : Date.parse(v);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - now, 0), 60_000);
}

export const backoff = (attempt: number) => Math.min(500 * 2 ** attempt, 8000);
export const cancelled = (cause?: unknown) =>
  new StorageError('aborted', msg('Cancelled'), { cause });

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(signal.reason));
    const stop = () => {
      clearTimeout(t);
      reject(cancelled(signal?.reason));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });

/** Forgets the connection and says so: the one "not connected" path of every provider. */
export function notConnected(service: CloudService, cause?: unknown): never {
  connections.clear(service.id);
  throw new StorageError('unavailable', service.texts.notConnected, { cause });
}

/** Worth waiting for: 429, 5xx and the provider's slow-downs, never a full account (507). */
const transient = (service: CloudService, err: CloudError) =>
  !service.isFull(err) &&
  (err.status === 429 || err.status >= 500 || (service.slowDown?.(err) ?? false));

/** One call with its retries; answers a 2xx (a 206 range, or an upload session's 308). */
export async function cloudCall(
  service: CloudService,
  url: string,
  init: RequestInit = {},
  opts: CallOptions = {},
): Promise<Response> {
  const tries = opts.tries ?? MAX_TRIES;
  let renewed = false;
  for (let attempt = 1; ; attempt++) {
    const headers = new Headers(init.headers);
    if (!opts.anonymous) {
      const token = await service.token();
      if (!token) notConnected(service);
      headers.set('authorization', `Bearer ${token}`);
    }
    let res: Response;
    try {
      const signal = opts.signal ?? null;
      res =
        opts.bytesByXhr && init.body instanceof Uint8Array
          ? await sendBytes(url, {
              method: init.method ?? 'POST',
              headers,
              body: init.body,
              signal,
            })
          : await fetch(url, { ...init, headers, signal });
    } catch (err) {
      if (opts.signal?.aborted) throw cancelled(err);
      if (opts.retryLost === false || attempt >= tries)
        throw new ConnectionLost('', { cause: err });
      opts.onRetrying?.(true);
      await sleep(backoff(attempt), opts.signal);
      continue;
    }
    if (res.ok || res.status === 308) {
      if (attempt > 1) opts.onRetrying?.(false);
      return res;
    }
    const err = await service.errorOf(res);
    if (res.status === 401 && !opts.anonymous) {
      if (!renewed) {
        renewed = true;
        if (await service.renew()) continue; // a renewal that could not be sent fails the call
      }
      notConnected(service, err);
    }
    if (!transient(service, err) || attempt >= tries) throw err;
    opts.onRetrying?.(true);
    await sleep(err.waitMs ?? backoff(attempt), opts.signal);
  }
}

/** The provider's failure for `err`: a full account says so, anything else says `message`. */
export function failWith(
  service: Pick<CloudService, 'texts' | 'isFull'>,
  err: unknown,
  message: string,
): never {
  if (err instanceof StorageError) throw err;
  if (err instanceof CloudError && service.isFull(err))
    throw new StorageError('no_space', service.texts.full, { cause: err });
  throw new StorageError(err instanceof ConnectionLost ? 'unavailable' : 'failed', message, {
    cause: err,
  });
}

/** What every cloud provider can do: ranges and resumable uploads, in the user's account. */
export const cloudCapabilities = (maxBlobBytes: number): Capabilities => ({
  ranges: true,
  resumable: true,
  maxBlobBytes,
  deviceOnly: false,
});

/** A blob's name in its vault folder: its blob id, never anything that could leave the folder. */
export function blobName(ref: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(ref))
    throw new StorageError('failed', `Not a blob name: ${ref}`);
  return ref;
}

export const emptyStream = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });

const NO_DIGEST = new Uint8Array(0);

/**
 * The source in pieces of `size` bytes (the last one shorter), checked against `length`, without
 * block digests: a cloud upload's requests. The content hash is hashing.ts's: either the source
 * was piped through it, or each piece is handed to its `tap` as it is cut (read in place from a
 * BYOB reader: [Note: pieces read in place] in server/pieces.ts).
 */
export const plainPieces = (
  reader: PieceSourceReader,
  size: number,
  length: number,
  tap?: (bytes: Uint8Array) => Promise<void>,
): PieceReader =>
  piecesOf(reader, size, length, {
    digest: async (bytes) => {
      await tap?.(bytes);
      return { bytes, digest: NO_DIGEST };
    },
    onEnd: () => Promise.resolve(),
  });
