// Security headers on every response and the same-origin rule for state changes
// (architecture.md, Server: strict CSP without inline script, 'wasm-unsafe-eval' for the KDF).
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;
import { errorBody } from './errors.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy, widened only for what this server configures:
 * - a card payment provider (spec §7): its inline cart is a script from the provider's checkout
 *   host that opens the provider's frame and talks to it; that host is added to script-src,
 *   connect-src and frame-src;
 * - cloud storage providers (issue 16): the browser calls their APIs itself; their API origins
 *   are added to connect-src only.
 * Without either, the policy is CONTENT_SECURITY_POLICY unchanged.
 */
export function contentSecurityPolicy(paymentHost?: string, apiOrigins: string[] = []): string {
  const extra: Record<string, string[]> = {
    'script-src': paymentHost ? [paymentHost] : [],
    'connect-src': [...(paymentHost ? [paymentHost] : []), ...apiOrigins],
    'frame-src': paymentHost ? [paymentHost] : [],
  };
  return CONTENT_SECURITY_POLICY.split('; ')
    .map((d) => [d, ...(extra[d.split(' ')[0] ?? ''] ?? [])].join(' '))
    .join('; ');
}

/**
 * Pages a provider's sign-in popup comes back to (spec §2 /dropbox-auth, and /google-auth). They
 * hand the result to the app's window and close. The app's pages allow the popups they open to
 * keep their opener (same-origin-allow-popups); these pages must not cut it (unsafe-none), or
 * the app could no longer see whether its popup was closed.
 */
export const POPUP_RETURN_PATHS = ['/dropbox-auth', '/google-auth'];

export function securityHeaders(
  paymentHost?: string,
  storageApiOrigins: string[] = [],
): MiddlewareHandler {
  const policy = contentSecurityPolicy(paymentHost, storageApiOrigins);
  const common: SecureHeadersOptions = {
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  };
  const app = secureHeaders({ ...common, crossOriginOpenerPolicy: 'same-origin-allow-popups' });
  const popupReturn = secureHeaders({ ...common, crossOriginOpenerPolicy: 'unsafe-none' });
  return async (c, next) => {
    await (POPUP_RETURN_PATHS.includes(c.req.path) ? popupReturn : app)(c, next);
    c.header('Content-Security-Policy', policy);
  };
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses POST/PUT/PATCH/DELETE from another origin, whatever the content type (JSON included):
 * an Origin header must be ours, and a browser's Sec-Fetch-Site must be same-origin (or none, a
 * typed address). Requests with neither header do not come from a browser page (curl, server to
 * server), carry no ambient credentials of a victim's browser, and pass.
 */
export function sameOriginStateChanges(
  publicUrl: string,
  /** Paths authenticated otherwise (a signed server-to-server notification), not by cookies. */
  exempt: readonly string[] = [],
): MiddlewareHandler {
  return async (c, next) => {
    if (UNSAFE.has(c.req.method) && !exempt.includes(c.req.path)) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const crossOrigin =
        origin !== undefined
          ? origin !== publicUrl
          : site !== undefined && site !== 'same-origin' && site !== 'none';
      if (crossOrigin)
        return c.json(errorBody('forbidden', 'Cross-origin requests are not allowed.'), 403);
    }
    await next();
  };
}
