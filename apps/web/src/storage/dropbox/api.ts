// Dropbox API v2 over the shared cloud call (cloud/http.ts), for the Dropbox provider: RPC
// endpoints (JSON in and out) and content endpoints (arguments in the Dropbox-API-Arg header as
// JSON with every non-ASCII character escaped as \uXXXX), 409 answers with an error_summary,
// a full account, and the token: renewed ahead of its expiry, and once after a 401, with the
// refresh token (auth.ts).
import { connections } from '../cloud/connections.ts';
import {
  CloudError,
  cloudCall,
  failWith,
  retryAfterMs,
  type CallOptions,
  type CloudService,
} from '../cloud/http.ts';
import { StorageError } from '../provider.ts';
import { refreshDropbox, type DropboxSettings } from './auth.ts';
import { msg } from '../../i18n/i18n.ts';

export const texts = {
  notConnected: msg('Dropbox not connected'),
  uploadFailed: msg('Failed to upload to Dropbox'),
  downloadFailed: msg('Failed to download from Dropbox'),
  folderFailed: msg('Failed to create Dropbox folder. Please try again.'),
  full: msg('Your Dropbox is full. Free some space there or choose another storage provider.'),
  failed: msg('Dropbox did not answer as expected. Please try again.'),
};

/** JSON safe for an HTTP header: every character outside ASCII as \uXXXX (Dropbox's rule). */
export const headerJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Dropbox's error: the reason is its error_summary (or the text of a 400). */
export async function dropboxError(res: Response): Promise<CloudError> {
  const text = await res.text().catch(() => '');
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a text answer (400s)
  }
  const summary = typeof body.error_summary === 'string' ? body.error_summary : text;
  return new CloudError(res.status, summary, summary, retryAfterMs(res), body);
}

const isFull = (err: CloudError) => /insufficient_space/.test(err.reason);
export const fail = (err: unknown, message: string): never =>
  failWith({ texts, isFull }, err, message);
/** A 409 whose summary says the path is not there. */
export const isNotFound = (err: unknown) =>
  err instanceof CloudError && err.status === 409 && /not_found/.test(err.reason);

export interface DropboxApi {
  rpc<T>(path: string, args: unknown, signal?: AbortSignal): Promise<T>;
  content(
    path: string,
    args: unknown,
    body: Uint8Array<ArrayBuffer> | null,
    opts?: CallOptions & { range?: string },
  ): Promise<Response>;
}

export function dropboxService(cfg: () => DropboxSettings): CloudService {
  return {
    id: 'dropbox',
    texts,
    async token() {
      const t = connections.token('dropbox');
      if (!t) return null;
      if (t.expiresAt - 60_000 > Date.now()) return t.accessToken;
      const renewed = await refreshDropbox(cfg());
      if (renewed) return renewed.accessToken;
      return t.expiresAt > Date.now() ? t.accessToken : null;
    },
    renew: async () => (await refreshDropbox(cfg())) !== null,
    errorOf: dropboxError,
    isFull,
  };
}

export function createDropboxApi(settings: () => DropboxSettings | null): DropboxApi {
  const cfg = (): DropboxSettings => {
    const s = settings();
    if (!s) throw new StorageError('unavailable', msg('Dropbox is not set up on this server.'));
    return s;
  };
  const service = dropboxService(cfg);
  return {
    async rpc<T>(path: string, args: unknown, signal?: AbortSignal): Promise<T> {
      const res = await cloudCall(
        service,
        `${cfg().api_url}/2/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args),
        },
        signal ? { signal } : {},
      );
      return (await res.json()) as T;
    },
    content(path, args, body, opts = {}) {
      const { range, ...callOpts } = opts;
      return cloudCall(
        service,
        `${cfg().content_url}/2/${path}`,
        {
          method: 'POST',
          headers: {
            'dropbox-api-arg': headerJson(args),
            ...(body ? { 'content-type': 'application/octet-stream' } : {}),
            ...(range ? { range } : {}),
          },
          body,
        },
        { ...callOpts, bytesByXhr: true },
      );
    },
  };
}
