// Mounts Better Auth at /api/auth/* and serves GET /api/auth-config (sign-in methods, the sign-up
// policy and the plans mode). The app's same-origin rule (http/security.ts) runs before these
// routes like before every /api/* route, and Better Auth checks Origin against trustedOrigins on
// its own as a second line.
import { Hono, type Context } from 'hono';
import { messages, type AuthConfigResponse } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';
import { CLIENT_IP_HEADER, clientAddress } from './client-ip.ts';

/** The request Better Auth sees, with the client address for its per-client rate limits. */
function withClientIp(c: Context<AppEnv>): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientAddress(c));
  return new Request(c.req.raw, { headers });
}

/**
 * Better Auth's rate limiter answers 429 `{ message }` with its own text; the app shows the
 * protocol's (messages.auth.tooManyRequests), so every auth 429 says the same. X-Retry-After stays.
 */
async function withOurRateLimitText(res: Response): Promise<Response> {
  if (res.status !== 429) return res;
  const body = (await res.json().catch(() => ({}))) as { code?: unknown };
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(
    JSON.stringify({
      code: typeof body.code === 'string' ? body.code : 'TOO_MANY_REQUESTS',
      message: messages.auth.tooManyRequests,
    }),
    { status: 429, headers },
  );
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
    .on(['GET', 'POST'], '/*', async (c) =>
      withOurRateLimitText(await c.var.auth.handler(withClientIp(c))),
    );
}

export function authConfigRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', (c) =>
    c.json({
      google: c.var.config.auth.google !== null,
      // Issue 33: who may sign up, and whether pricing and checkout are shown. No secrets.
      signup: c.var.config.signup.mode,
      plans: c.var.config.plans.mode,
    } satisfies AuthConfigResponse),
  );
}
