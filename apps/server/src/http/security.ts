// Security headers on every response and the same-origin rule for state changes
// (architecture.md, Server: strict CSP without inline script, 'wasm-unsafe-eval' for the KDF).
import type { MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
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
 * The policy, widened only when a card payment provider is configured (spec §7): its inline cart
 * is a script from the provider's checkout host that opens the provider's frame and talks to it.
 * That host is added to script-src, connect-src and frame-src, nothing else; without payment
 * configuration the policy is CONTENT_SECURITY_POLICY unchanged.
 */
export function contentSecurityPolicy(paymentHost?: string): string {
  if (!paymentHost) return CONTENT_SECURITY_POLICY;
  const widen = new Set(['script-src', 'connect-src', 'frame-src']);
  return CONTENT_SECURITY_POLICY.split('; ')
    .map((d) => (widen.has(d.split(' ')[0] ?? '') ? `${d} ${paymentHost}` : d))
    .join('; ');
}

export function securityHeaders(paymentHost?: string): MiddlewareHandler {
  const policy = contentSecurityPolicy(paymentHost);
  const headers = secureHeaders({
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
  return async (c, next) => {
    await headers(c, next);
    c.header('Content-Security-Policy', policy);
  };
}

/**
 * Refuses POST/PUT/PATCH/DELETE from another origin: the Origin header must be ours, and a
 * browser's Sec-Fetch-Site must not be cross-site. Requests without either (curl, server-to-server)
 * carry no ambient browser credentials of ours and pass.
 */
export function sameOriginStateChanges(
  publicUrl: string,
  /** Paths authenticated otherwise (a signed server-to-server notification), not by cookies. */
  exempt: readonly string[] = [],
): MiddlewareHandler {
  const check = csrf({ origin: publicUrl, secFetchSite: ['same-origin', 'none'] });
  return async (c, next) => {
    if (exempt.includes(c.req.path)) return next();
    try {
      await check(c, next);
    } catch {
      return c.json(errorBody('forbidden', 'Cross-origin requests are not allowed.'), 403);
    }
  };
}
