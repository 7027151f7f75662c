// GET /metrics (issue 33): the Prometheus scrape, for the holder of METRICS_TOKEN sent as a Bearer
// token (RFC 6750, section 2.1). Without METRICS_TOKEN it is a 404, as if there were no such
// page; a missing or wrong token is a 401. The token is compared in constant time, and neither it
// nor the Authorization header is ever logged (the request log has method, path and status only).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Handler } from 'hono';
import { messages } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';

export const METRICS_PATH = '/metrics';

/** Ours (the product description has no text for it): the answer without the right token. */
export const METRICS_UNAUTHORIZED = 'A valid metrics token is required.';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `presented` is `expected`, in a time that depends on neither where they differ nor
 * their lengths: both are hashed to 32 bytes first.
 */
export function sameToken(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

export function metricsHandler(token: string | undefined): Handler<AppEnv> {
  return async (c) => {
    if (token === undefined) return c.json(errorBody('not_found', messages.generic.notFound), 404);
    const presented = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    if (presented === undefined || !sameToken(presented, token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json(errorBody('unauthorized', METRICS_UNAUTHORIZED), 401);
    }
    const { contentType, text } = await c.var.metrics.scrape();
    return c.body(text, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  };
}
