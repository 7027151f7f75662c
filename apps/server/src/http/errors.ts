// The one HTTP error type: a status, a stable code and a safe message (docs/conventions.md). The
// handler answers `{ error: { code, message, requestId } }` (the request's id, [Note: request id]
// in request-id.ts, so that a user's report can be matched with the logs); a write the full disk
// refused is answered 507 or 503 'storage_full' (storageFullResponse); unknown errors are logged
// and answered with a generic 500 that leaks nothing.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import {
  messages,
  serverStorageFullMessage,
  UPLOADS_PATH,
  type ErrorBody,
  type ErrorCode,
} from '@sealvault/protocol';
import type { AppEnv } from './context.ts';
import { isDiskFull, isSqliteIoError } from './disk-full.ts';
import { currentRequestId } from './request-id.ts';

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message: string = messages.generic.notFound) =>
  new HttpError(404, 'not_found', message);
export const badRequest = (message: string = messages.generic.badRequest) =>
  new HttpError(400, 'bad_request', message);

const codeForStatus = (status: number): ErrorCode =>
  status === 401
    ? 'unauthorized'
    : status === 403
      ? 'forbidden'
      : status === 404
        ? 'not_found'
        : status === 409
          ? 'conflict'
          : status === 413
            ? 'payload_too_large'
            : status === 429
              ? 'rate_limited'
              : status >= 500
                ? 'internal'
                : 'bad_request';

/**
 * The protocol's error body with the request's id ([Note: request id]), which every error answer
 * made inside a request carries. The protocol's schema leaves it out (parsing drops it): no client
 * decides anything by it; it is for matching a report with the logs.
 */
export interface ErrorAnswer extends ErrorBody {
  error: ErrorBody['error'] & { requestId?: string };
}

export function errorBody(code: ErrorCode, message: string): ErrorAnswer {
  const requestId = currentRequestId();
  return { error: requestId === undefined ? { code, message } : { code, message, requestId } };
}

/**
 * A write the disk had no room for (disk-full.ts), as the API answers it: 507 with the uploads'
 * text on the upload routes (tus clients and the app know it), 503 on every other route, both
 * 'storage_full' so that the app shows the text (userMessage in packages/protocol). Retry-After
 * says when trying again makes sense; nothing about the error itself is revealed.
 */
export function storageFullResponse(c: Context<AppEnv>): Response {
  const upload = c.req.path === UPLOADS_PATH || c.req.path.startsWith(`${UPLOADS_PATH}/`);
  const res = upload
    ? c.json(errorBody('storage_full', serverStorageFullMessage), 507)
    : c.json(errorBody('storage_full', messages.generic.storageFull), 503);
  res.headers.set('Retry-After', String(STORAGE_FULL_RETRY_AFTER_S));
  return res;
}
const STORAGE_FULL_RETRY_AFTER_S = 60;
const MiB = 1024 * 1024;

/** Whether `err` is a write the full disk refused; an SQLite I/O error only if space is short. */
async function diskWasFull(err: Error, c: Context<AppEnv>): Promise<boolean> {
  if (isDiskFull(err)) return true;
  if (!isSqliteIoError(err)) return false;
  const low = Math.max(c.var.config.uploadMinFreeMb, 1) * MiB;
  return c.var.files
    .freeBytes()
    .then((free) => free < low)
    .catch(() => false);
}

export async function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof HttpError) return c.json(errorBody(err.code, err.message), err.status);
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status < 500)
      return c.json(errorBody(codeForStatus(status), err.message || 'Request refused'), status);
  }
  if (await diskWasFull(err, c)) {
    c.var.logger.warn({ err: { name: err.name, message: err.message } }, 'disk full');
    return storageFullResponse(c);
  }
  c.var.logger.error(
    { err: { name: err.name, message: err.message, stack: err.stack } },
    'unhandled error',
  );
  return c.json(errorBody('internal', messages.generic.internal), 500);
}
