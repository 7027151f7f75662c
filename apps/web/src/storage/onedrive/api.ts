// Microsoft Graph v1.0 over the shared cloud call (cloud/http.ts), for the OneDrive provider:
// Graph's error shape (`{ error: { code, message, innerError: { code } } }`, the code read from
// error.code), a full drive (507 quotaLimitReached), 429 and 503 that wait as Retry-After says
// (cloudCall), and the token: renewed ahead of its expiry, and once after a 401, with the refresh
// token (auth.ts). Upload and download URLs live on OneDrive's content hosts and are
// pre-authenticated: they are called without the token (Graph's docs: an Authorization header
// there may be refused), and only Graph's own origin ever receives it.
import {
  CloudError,
  cloudCall,
  failWith,
  retryAfterMs,
  type CallOptions,
  type CloudService,
} from '../cloud/http.ts';
import { StorageError } from '../provider.ts';
import { oneDriveToken, refreshOneDrive, type OneDriveSettings } from './auth.ts';
import { msg } from '../../i18n/i18n.ts';

export const texts = {
  notConnected: msg('OneDrive not connected'),
  uploadFailed: msg('Failed to upload to OneDrive'),
  downloadFailed: msg('Failed to download from OneDrive'),
  folderFailed: msg('Failed to create OneDrive folder. Please try again.'),
  folderMissing: msg('Failed to access OneDrive folder'),
  full: msg('Your OneDrive is full. Free some space there or choose another storage provider.'),
  failed: msg('OneDrive did not answer as expected. Please try again.'),
};

/** Graph's error: the reason is error.code; the inner code stays in the body. */
export async function graphError(res: Response): Promise<CloudError> {
  const text = await res.text().catch(() => '');
  let body: Record<string, unknown> = {};
  let reason = '';
  let detail = text;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
    const e = body.error as { code?: unknown; message?: unknown } | undefined;
    if (typeof e?.code === 'string') reason = e.code;
    if (typeof e?.message === 'string') detail = e.message;
  } catch {
    // a text or empty answer
  }
  return new CloudError(res.status, reason, detail, retryAfterMs(res), body);
}

/** The inner error code (innerError.code), where Graph gives one. */
export function innerCode(err: unknown): string | null {
  if (!(err instanceof CloudError)) return null;
  const e = err.body.error as { innerError?: { code?: unknown } } | undefined;
  return typeof e?.innerError?.code === 'string' ? e.innerError.code : null;
}

const isFull = (err: CloudError) =>
  err.status === 507 || err.reason === 'quotaLimitReached' || err.reason === 'insufficientStorage';
export const isMissing = (err: unknown) =>
  err instanceof CloudError && (err.status === 404 || err.reason === 'itemNotFound');
export const fail = (err: unknown, message: string): never =>
  failWith({ texts, isFull }, err, message);

export function oneDriveService(cfg: () => OneDriveSettings): CloudService {
  return {
    id: 'onedrive',
    texts,
    token: () => oneDriveToken(cfg()),
    renew: async () => (await refreshOneDrive(cfg())) !== null,
    errorOf: graphError,
    isFull,
  };
}

export interface OneDriveApi {
  /** Graph's URL of `path` (after /v1.0, e.g. "/me/drive"). */
  url(path: string): string;
  /** An authorised Graph call: `target` is a path after /v1.0, or an absolute Graph URL. */
  call(target: string, init?: RequestInit, opts?: CallOptions): Promise<Response>;
  json<T>(target: string, init?: RequestInit, opts?: CallOptions): Promise<T>;
  /** A call to a pre-authenticated upload or download URL: never with the token. */
  content(url: string, init?: RequestInit, opts?: CallOptions): Promise<Response>;
}

export function createOneDriveApi(settings: () => OneDriveSettings | null): OneDriveApi {
  const cfg = (): OneDriveSettings => {
    const s = settings();
    if (!s) throw new StorageError('unavailable', msg('OneDrive is not set up on this server.'));
    return s;
  };
  const service = oneDriveService(cfg);
  const root = () => `${cfg().graph_url.replace(/\/+$/, '')}/v1.0`;
  const url = (path: string) => `${root()}${path}`;
  /** A path, or an absolute URL that must be Graph's (an @odata.nextLink): the token goes nowhere else. */
  const graphUrl = (target: string) => {
    if (target.startsWith('/')) return url(target);
    if (new URL(target).origin !== new URL(root()).origin)
      throw new StorageError('failed', texts.failed);
    return target;
  };
  const call = (target: string, init: RequestInit = {}, opts: CallOptions = {}) =>
    cloudCall(service, graphUrl(target), init, opts);
  return {
    url,
    call,
    json: async <T>(target: string, init?: RequestInit, opts?: CallOptions) =>
      (await (await call(target, init, opts)).json()) as T,
    content: (u, init = {}, opts = {}) => cloudCall(service, u, init, { ...opts, anonymous: true }),
  };
}
