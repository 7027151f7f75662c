// Security headers on every response and the same-origin rule for state changes
// (architecture.md, Server: strict CSP without inline script, 'wasm-unsafe-eval' for the KDF).
import type { MiddlewareHandler } from 'hono';
import { CHECKOUT_PAGE_PATH } from '@sealvault/protocol';
import { errorBody } from './errors.ts';
import { setOnNodeResponse, setResponseHeader, type HeaderPair } from './response-header.ts';

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
 * The app's policy, widened only for cloud storage providers (issue 16): the browser calls their
 * APIs itself, so their API origins (and OneDrive's content hosts, issue 26) are added to
 * connect-src. No third-party script is allowed,
 * on any page of the app [Note: checkout document].
 */
export function contentSecurityPolicy(apiOrigins: string[] = []): string {
  return CONTENT_SECURITY_POLICY.split('; ')
    .map((d) => (d.startsWith('connect-src ') ? [d, ...apiOrigins].join(' ') : d))
    .join('; ');
}

/**
 * [Note: checkout document]
 * The card payment provider's inline cart (docs/product.md §7) is a script from its checkout host, and a
 * script runs with all the privileges of its page. So it never runs in the app's pages, where a
 * vault may be unlocked: 'Pay Now' leaves the app for CHECKOUT_PAGE_PATH, a document of its own
 * (apps/web/checkout.html, served by payments/checkout.page.ts) that holds only the checkout
 * script and the order's details, and the checkout returns by a full redirect to /subscription,
 * a fresh app page. Only that document's policy lets the provider's host into script-src (and
 * frame-src, connect-src, img-src, style-src, font-src and form-action, which its cart uses); its
 * connect-src does not even allow our own origin, so no script there can call the API. It still
 * shares the app's origin, so it could read what the origin keeps in localStorage (the cloud
 * providers' access tokens), never a vault's keys or password; serving the checkout from an origin
 * of its own would close that too.
 */
export function checkoutContentSecurityPolicy(paymentHost: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${paymentHost}`,
    `style-src 'self' 'unsafe-inline' ${paymentHost}`,
    `img-src 'self' data: ${paymentHost}`,
    `font-src 'self' ${paymentHost}`,
    `connect-src ${paymentHost}`,
    `frame-src ${paymentHost}`,
    `form-action ${paymentHost}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Pages a provider's sign-in popup comes back to (docs/product.md §2 /dropbox-auth, /google-auth and
 * /onedrive-auth). They
 * hand the result to the app's window and close. The app's pages allow the popups they open to
 * keep their opener (same-origin-allow-popups); these pages must not cut it (unsafe-none), or
 * the app could no longer see whether its popup was closed.
 */
export const POPUP_RETURN_PATHS = ['/dropbox-auth', '/google-auth', '/onedrive-auth'];

/**
 * A share link's page and its public API (issue 29): never indexed, and never a Referer, so the
 * link's id leaves no trace in another site's logs (the key is in the fragment, which browsers
 * never send). Referrer-Policy is no-referrer on every answer already; it is said again here so
 * that these paths keep it whatever the rest of the app does.
 */
export const isSharePath = (path: string): boolean => /^\/(?:api\/)?s(?:\/|$)/.test(path);

/**
 * [Note: security headers built once] The headers every answer carries, as Hono's secureHeaders
 * wrote them with this app's options (its defaults, no-referrer, DENY, same-origin resources, no
 * camera, microphone or geolocation), plus the policy. They depend on the path only (the
 * checkout's own document, a provider's popup return page, a share link), so each combination is
 * built once at start-up and set as it is: no options read, no list built, per request.
 */
function headerSet(opts: { policy: string; popupReturn: boolean; share: boolean }): HeaderPair[] {
  const set: HeaderPair[] = [
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Cross-Origin-Opener-Policy', opts.popupReturn ? 'unsafe-none' : 'same-origin-allow-popups'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'no-referrer'],
    ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Frame-Options', 'DENY'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
    ['Content-Security-Policy', opts.policy],
  ];
  if (opts.share) set.push(['X-Robots-Tag', 'noindex, nofollow']);
  return set;
}

export function securityHeaders(
  paymentHost?: string,
  storageApiOrigins: string[] = [],
): MiddlewareHandler {
  const policy = contentSecurityPolicy(storageApiOrigins);
  const checkoutPolicy = paymentHost ? checkoutContentSecurityPolicy(paymentHost) : policy;
  // [Note: security headers built once]: the app's pages and API, a share link's, a popup's
  // return page, the checkout's document.
  const app = headerSet({ policy, popupReturn: false, share: false });
  const share = headerSet({ policy, popupReturn: false, share: true });
  const popupReturn = headerSet({ policy, popupReturn: true, share: false });
  const checkout = headerSet({ policy: checkoutPolicy, popupReturn: false, share: false });
  const setFor = (path: string): HeaderPair[] =>
    path === CHECKOUT_PAGE_PATH
      ? checkout
      : POPUP_RETURN_PATHS.includes(path)
        ? popupReturn
        : isSharePath(path)
          ? share
          : app;
  return async (c, next) => {
    const headers = setFor(c.req.path);
    // [Note: headers on Node's response] in response-header.ts.
    if (setOnNodeResponse(c, headers)) return next();
    await next();
    for (const [name, value] of headers) setResponseHeader(c, name, value);
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
