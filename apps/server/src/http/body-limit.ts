// The body limit of every route (issue 15, item 2): a request body larger than the limit is
// refused with 413 `{ error: { code: 'payload_too_large', message } }` before a handler reads it.
// A declared Content-Length over the limit is refused without reading a byte (Node's parser holds
// a request to its Content-Length); a chunked body is read up to the limit and refused when it
// goes past it, so at most the limit is ever held in memory. Only the tus upload requests are
// exempt: their bodies are file bytes, bounded by the upload's declared length and the plan
// (files/uploads.ts), and streamed to storage rather than held. Two vault routes carry a whole
// vault's worth of entries (ADR 0007) and have larger limits of their own: the manifest write
// (8 MiB) and the key rotation (64 MiB); a secrets import (issue 20) carries many secrets and the
// manifest (64 MiB). A share link's content (PUT /api/shares/:id/content, issue 29) is exempt as
// the tus bodies are: file bytes, held to the length declared at the link's creation and streamed
// to storage (shares/shares.content.ts).
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

/** PUT /api/shares/:id/content carries a file link's ciphertext (shares/shares.content.ts). */
export const isShareContentBody = (method: string, path: string): boolean =>
  method === 'PUT' && /^\/api\/shares\/[^/]+\/content\/?$/.test(path);

/**
 * PUT /api/vaults/:id/manifest: 8 MiB. A manifest entry is at most about 90 bytes of JSON, and a
 * vault holds at most 100,000 of them (protocol manifest.ts, MANIFEST_MAX_ENTRIES).
 */
export const MANIFEST_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
/**
 * POST /api/vaults/:id/rotate: 64 MiB. Every file's wrapped key, metadata and look-up (under
 * 6 KiB each) or every secret (at most 90,000 characters each), plus the key and the manifest.
 */
export const ROTATION_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * POST /api/vaults/:id/secrets/import: 64 MiB. 10,000 typical secrets (a few hundred bytes of
 * ciphertext each) take a few MiB; the cap is the rotation's, for the same kind of body.
 */
export const SECRETS_IMPORT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Issue 27, a vault's move: POST /api/vaults/:id/move/switch carries the next manifest and, for a
 * secrets vault moving to this server, every secret (the import's 64 MiB); POST .../move/items
 * up to 1,000 items of about 1.2 KiB at most each (4 MiB).
 */
export const MOVE_SWITCH_BODY_LIMIT_BYTES = 64 * 1024 * 1024;
export const MOVE_ITEMS_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** The body limit of a request (the tus bodies aside). */
export function bodyLimitOf(method: string, path: string, fallback = BODY_LIMIT_BYTES): number {
  if (method === 'PUT' && /^\/api\/vaults\/[^/]+\/manifest\/?$/.test(path))
    return MANIFEST_BODY_LIMIT_BYTES;
  if (method === 'POST' && /^\/api\/vaults\/[^/]+\/rotate\/?$/.test(path))
    return ROTATION_BODY_LIMIT_BYTES;
  if (method === 'POST' && /^\/api\/vaults\/[^/]+\/secrets\/import\/?$/.test(path))
    return SECRETS_IMPORT_BODY_LIMIT_BYTES;
  if (method === 'POST' && /^\/api\/vaults\/[^/]+\/move\/switch\/?$/.test(path))
    return MOVE_SWITCH_BODY_LIMIT_BYTES;
  if (method === 'POST' && /^\/api\/vaults\/[^/]+\/move\/items\/?$/.test(path))
    return MOVE_ITEMS_BODY_LIMIT_BYTES;
  return fallback;
}

/**
 * [Note: no body, no Request]
 * A GET or HEAD request has no body: @hono/node-server gives it none, so Hono's bodyLimit would
 * let it through anyway. But bodyLimit asks `c.req.raw.body` to find that out, and that one
 * property makes the adapter build the full undici Request (its Headers copied from Node's, an
 * AbortController) that its light request otherwise never needs: about a tenth of a list's CPU
 * over HTTP. So GET and HEAD skip the check before it looks, and a body with a declared
 * Content-Length (and no Transfer-Encoding) is held to it here, unread, exactly as bodyLimit does:
 * the handler then reads it through the adapter's direct path, and Node's parser holds the body
 * to that length. Only a chunked body goes through bodyLimit, which counts its bytes.
 */
export function limitBodies(maxBytes: number = BODY_LIMIT_BYTES): MiddlewareHandler {
  const limits = new Map<number, MiddlewareHandler>();
  const limit = (size: number) => {
    let handler = limits.get(size);
    if (!handler) {
      handler = bodyLimit({
        maxSize: size,
        onError: () => {
          throw new HttpError(413, 'payload_too_large', BODY_TOO_LARGE);
        },
      });
      limits.set(size, handler);
    }
    return handler;
  };
  return async (c, next) => {
    const method = c.req.method;
    // [Note: no body, no Request] (issue 31).
    if (method === 'GET' || method === 'HEAD') return next();
    if (isTusBody(method, c.req.path) || isShareContentBody(method, c.req.path)) {
      return next();
    }
    // A length that is not a number cannot be checked up front (Node's own parser refuses it).
    const declared = c.req.header('content-length');
    if (declared !== undefined && !/^\d+$/.test(declared.trim())) throw badRequest();
    const maxSize = bodyLimitOf(method, c.req.path, maxBytes);
    // [Note: no body, no Request]: a declared length is checked as bodyLimit would, unread.
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxSize) throw new HttpError(413, 'payload_too_large', BODY_TOO_LARGE);
      return next();
    }
    return limit(maxSize)(c, next);
  };
}
