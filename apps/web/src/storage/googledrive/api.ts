// Drive v3 over the shared cloud call (cloud/http.ts), for the Google Drive provider: Google's
// error shape (`{ error: { message, errors: [{ reason }] } }`), its rate-limit 403s that mean
// "slow down" ("Resolve errors"), a full Drive, and the token: Drive's tokens are not renewed
// in the background (a silent sign-in needs a popup), so a 401 forgets the connection.
import {
  CloudError,
  cloudCall,
  failWith,
  retryAfterMs,
  type CallOptions,
  type CloudService,
} from '../cloud/http.ts';
import { driveToken, type DriveSettings } from './auth.ts';
import { msg } from '../../i18n/i18n.ts';

export {
  backoff,
  cancelled,
  CloudError as DriveError,
  ConnectionLost,
  MAX_TRIES,
  sleep,
  type CallOptions,
} from '../cloud/http.ts';

export const texts = {
  notConnected: msg('Google Drive not connected'),
  folderFailed: msg('Failed to create Google Drive folder. Please try again.'),
  folderMissing: msg('Failed to access Google Drive folder'),
  uploadFailed: msg('Failed to upload to Google Drive'),
  downloadFailed: msg('Failed to download from Google Drive'),
  full: msg('Your Google Drive is full. Free some space there or choose another storage provider.'),
  failed: msg('Google Drive did not answer as expected. Please try again.'),
};

/** 403 reasons that mean "slow down", not "forbidden" ("Resolve errors"). */
const RATE_LIMITS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/** Google's error from an answer that is not a success. */
export async function driveError(res: Response): Promise<CloudError> {
  const text = await res.text().catch(() => '');
  let reason = '';
  let detail = text;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
    const e = body.error as { message?: string; errors?: { reason?: string }[] } | undefined;
    reason = e?.errors?.[0]?.reason ?? '';
    detail = e?.message ?? text;
  } catch {
    // a text answer (upload sessions answer text/plain)
  }
  return new CloudError(res.status, reason, detail, retryAfterMs(res), body);
}

const slowDown = (err: CloudError) => err.status === 403 && RATE_LIMITS.has(err.reason);

/** Whether `err` asks to wait and try again (429, 5xx, rate-limit 403s). */
export const transient = (err: unknown) =>
  err instanceof CloudError && (err.status === 429 || err.status >= 500 || slowDown(err));
export const isMissing = (err: unknown) => err instanceof CloudError && err.status === 404;

const isFull = (err: CloudError) => err.reason === 'storageQuotaExceeded';

export function driveService(cfg: () => DriveSettings): CloudService {
  return {
    id: 'googledrive',
    texts,
    token: () => driveToken(cfg()),
    renew: () => Promise.resolve(false),
    errorOf: driveError,
    slowDown,
    isFull,
  };
}

/** The provider's failure for `err`: a full Drive says so, anything else says `message`. */
export const fail = (err: unknown, message: string): never =>
  failWith({ texts, isFull }, err, message);

export function createDriveApi(cfg: () => DriveSettings) {
  const service = driveService(cfg);
  /** One authorised call with its retries; answers a 2xx (or an upload session's 308). */
  const call = (url: string, init: RequestInit, opts: CallOptions = {}) =>
    cloudCall(service, url, init, opts);
  const json = async <T>(url: string, init: RequestInit = {}, opts?: CallOptions): Promise<T> =>
    (await (await call(url, init, opts)).json()) as T;
  return { call, json };
}
