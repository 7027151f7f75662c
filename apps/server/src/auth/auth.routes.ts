// Mounts Better Auth at /api/auth/* and serves GET /api/auth-config. The app's same-origin rule
// (http/security.ts) runs before these routes like before every /api/* route, and Better Auth
// checks Origin against trustedOrigins on its own as a second line.
import { Hono, type Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AuthConfigResponse } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';
import { CLIENT_IP_HEADER } from './auth.ts';

/**
 * The client address for Better Auth's per-client rate limits: the socket's peer when there is a
 * socket (a client cannot choose it by sending the header), or behind a reverse proxy the entry
 * the proxy added to AUTH_CLIENT_IP_HEADER. In-process requests
 * (tests through app.request) have no socket and keep a header the test set, or count as local.
 */
function withClientIp(c: Context<AppEnv>): Request {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  const proxyHeader = c.var.config.auth.clientIpHeader;
  const forwarded = proxyHeader ? c.req.header(proxyHeader) : undefined;
  if (forwarded) address = forwarded.split(',').at(-1)?.trim() || address;
  const headers = new Headers(c.req.raw.headers);
  if (address) headers.set(CLIENT_IP_HEADER, address);
  else if (!headers.has(CLIENT_IP_HEADER)) headers.set(CLIENT_IP_HEADER, '127.0.0.1');
  return new Request(c.req.raw, { headers });
}

/**
 * Stricter than the app-wide rule, whatever the content type: hono's csrf() (http/security.ts)
 * only looks at form-like content types, and a JSON POST from another origin would pass it. A
 * browser always sends Origin on a cross-origin POST, so: a foreign Origin, or a Sec-Fetch-Site
 * other than same-origin/none, is refused. Requests with neither (curl, server-to-server) carry
 * no ambient browser cookie of ours and pass.
 */
function isCrossOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== c.var.config.publicUrl) return true;
  const site = c.req.header('sec-fetch-site');
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/** Better Auth's handler, for /api/auth/* (routed with the basePath it knows). */
export function authHandlerRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .post('/*', async (c, next) => {
      if (isCrossOrigin(c))
        return c.json(errorBody('forbidden', 'Cross-origin requests are not allowed.'), 403);
      await next();
    })
    .on(['GET', 'POST'], '/*', (c) => c.var.auth.handler(withClientIp(c)));
}

export function authConfigRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', (c) =>
    c.json({ google: c.var.config.auth.google !== null } satisfies AuthConfigResponse),
  );
}
