// Drive v3 over fetch, for the Google Drive provider (drive.ts): one authorised call with the
// retries Google asks of clients ("Resolve errors": 429, 5xx and the 403 rate limits wait as
// Retry-After says, or back off exponentially; a lost connection is tried again), errors in
// Google's JSON shape, and the 401 that means Google no longer accepts the token, after which the
// connection is forgotten.
import { connections } from '../cloud/connections.ts';
import { StorageError } from '../provider.ts';
import { driveToken, type DriveSettings } from './auth.ts';

export const texts = {
  notConnected: 'Google Drive not connected',
  folderFailed: 'Failed to create Google Drive folder. Please try again.',
  folderMissing: 'Failed to access Google Drive folder',
  uploadFailed: 'Failed to upload to Google Drive',
  downloadFailed: 'Failed to download from Google Drive',
  full: 'Your Google Drive is full. Free some space there or choose another storage provider.',
  failed: 'Google Drive did not answer as expected. Please try again.',
};

export const MAX_TRIES = 5;
/** 403 reasons that mean "slow down", not "forbidden" ("Resolve errors"). */
const RATE_LIMITS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/** A Drive answer that is not a success: its status, the reason of its first error item. */
export class DriveError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    detail: string,
    /** How long Retry-After asks to wait, in ms; null without one. */
    readonly waitMs: number | null,
  ) {
    super(`Google Drive ${status} ${reason}: ${detail}`);
  }
}

/** The connection was lost before an answer came, and the request was not (or no more) retried. */
export class ConnectionLost extends Error {}

function retryAfterMs(res: Response): number | null {
  const v = res.headers.get('retry-after')?.trim();
  if (!v) return null;
  const at = /^\d+$/.test(v) ? Date.now() + Number(v) * 1000 : Date.parse(v);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - Date.now(), 0), 60_000);
}

export async function driveError(res: Response): Promise<DriveError> {
  const text = await res.text().catch(() => '');
  let reason = '';
  let detail = text;
  try {
    const e = (JSON.parse(text) as { error?: { message?: string; errors?: { reason?: string }[] } })
      .error;
    reason = e?.errors?.[0]?.reason ?? '';
    detail = e?.message ?? text;
  } catch {
    // a text answer (upload sessions answer text/plain)
  }
  return new DriveError(res.status, reason, detail, retryAfterMs(res));
}

export const transient = (err: unknown) =>
  err instanceof DriveError &&
  (err.status === 429 || err.status >= 500 || (err.status === 403 && RATE_LIMITS.has(err.reason)));
export const isMissing = (err: unknown) => err instanceof DriveError && err.status === 404;
export const backoff = (attempt: number) => Math.min(500 * 2 ** attempt, 8000);
export const cancelled = (cause?: unknown) => new StorageError('aborted', 'Cancelled', { cause });

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

export interface CallOptions {
  signal?: AbortSignal;
  onRetrying?: (retrying: boolean) => void;
  /** false: a lost connection is not retried (the request may have made a file). */
  retryLost?: boolean;
  tries?: number;
}

/** The provider's failure for `err`: a full Drive says so, anything else says `message`. */
export function fail(err: unknown, message: string): never {
  if (err instanceof StorageError) throw err;
  if (err instanceof DriveError && err.reason === 'storageQuotaExceeded')
    throw new StorageError('no_space', texts.full, { cause: err });
  throw new StorageError(err instanceof ConnectionLost ? 'unavailable' : 'failed', message, {
    cause: err,
  });
}

export function createDriveApi(cfg: () => DriveSettings) {
  /** One authorised call with its retries; answers a 2xx (or an upload session's 308). */
  async function call(url: string, init: RequestInit, opts: CallOptions = {}): Promise<Response> {
    const tries = opts.tries ?? MAX_TRIES;
    for (let attempt = 1; ; attempt++) {
      const token = await driveToken(cfg());
      if (!token) throw new StorageError('unavailable', texts.notConnected);
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      let res: Response;
      try {
        res = await fetch(url, { ...init, headers, signal: opts.signal ?? null });
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
      const err = await driveError(res);
      if (res.status === 401) {
        connections.clear('googledrive');
        throw new StorageError('unavailable', texts.notConnected, { cause: err });
      }
      if (!transient(err) || attempt >= tries) throw err;
      opts.onRetrying?.(true);
      await sleep(err.waitMs ?? backoff(attempt), opts.signal);
    }
  }

  const json = async <T>(url: string, init: RequestInit = {}, opts?: CallOptions): Promise<T> =>
    (await (await call(url, init, opts)).json()) as T;

  return { call, json };
}
