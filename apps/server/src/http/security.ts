// Security headers on every response and the same-origin rule for state changes
// (architecture.md, Server: strict CSP without inline script, 'wasm-unsafe-eval' for the KDF).
import type { MiddlewareHandler } from 'hono';
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
