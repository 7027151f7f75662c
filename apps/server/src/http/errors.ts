// The one HTTP error type: a status, a stable code and a safe message (docs/conventions.md). The
// handler answers `{ error: { code, message } }`; unknown errors are logged and answered with a
// generic 500 that leaks nothing.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { messages, type ErrorBody, type ErrorCode } from '@sealvault/protocol';
import type { AppEnv } from './context.ts';

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

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

export function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof HttpError) return c.json(errorBody(err.code, err.message), err.status);
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status < 500)
      return c.json(errorBody(codeForStatus(status), err.message || 'Request refused'), status);
  }
  c.var.logger.error(
    { err: { name: err.name, message: err.message, stack: err.stack } },
    'unhandled error',
  );
  return c.json(errorBody('internal', messages.generic.internal), 500);
}
