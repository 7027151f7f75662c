// The body limit of every route (issue 15, item 2): a request body larger than the limit is
// refused with 413 `{ error: { code: 'payload_too_large', message } }` before a handler reads it.
// A declared Content-Length over the limit is refused without reading a byte (Node's parser holds
// a request to its Content-Length); a chunked body is read up to the limit and refused when it
// goes past it, so at most the limit is ever held in memory. Only the tus upload requests are
// exempt: their bodies are file bytes, bounded by the upload's declared length and the plan
// (files/uploads.ts), and streamed to storage rather than held.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { badRequest, HttpError } from './errors.ts';

/**
 * 1 MiB. The largest legitimate JSON body is a secret item (at most 90,000 characters of
 * ciphertext, protocol secrets.ts); a vault's key slots and a file's encrypted metadata are a few
 * KiB; Better Auth's bodies are a few hundred bytes.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export const BODY_TOO_LARGE = 'The request body is too large.';

/** tus creation-with-upload (POST /api/uploads) and PATCH /api/uploads/:id carry file bytes. */
export function isTusBody(method: string, path: string): boolean {
  if (method === 'POST') return /^\/api\/uploads\/?$/.test(path);
  if (method === 'PATCH') return /^\/api\/uploads\/[^/]+\/?$/.test(path);
  return false;
}

export function limitBodies(maxBytes: number = BODY_LIMIT_BYTES): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpError(413, 'payload_too_large', BODY_TOO_LARGE);
    },
  });
  return async (c, next) => {
    if (isTusBody(c.req.method, c.req.path)) return next();
    // A length that is not a number cannot be checked up front (Node's own parser refuses it).
    const declared = c.req.header('content-length');
    if (declared !== undefined && !/^\d+$/.test(declared.trim())) throw badRequest();
    return limit(c, next);
  };
}
