// Serves the built web app: hashed assets with a year-long immutable cache, everything else
// that is not /api falls back to index.html (the single-page app routes it), never cached.
// The build writes a brotli `.br` and a gzip `.gz` beside each text file (apps/web/vite.config.ts);
// they are sent to clients that accept them, br first, with the original's Content-Type and
// `Vary: Accept-Encoding` (http/compress.ts). A Range request always gets the plain file, so its
// Content-Range counts the bytes the client asked about. A page of a lazy screen names the
// screen's chunks in a Link header (preloads.ts).
import { Hono, type Context, type MiddlewareHandler, type Next } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { getMimeType } from 'hono/utils/mime';
import { acceptsEncoding, varyOnEncoding } from '../http/compress.ts';
import type { AppEnv } from '../http/context.ts';
import { cookieSettings, signedSessionToken } from '../auth/session-check.ts';
import { preloadLink } from './preloads.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
/** The encodings the build writes, in the order they are preferred. */
const ENCODINGS = [
  { name: 'br', ext: '.br' },
  { name: 'gzip', ext: '.gz' },
] as const;

type Handler = MiddlewareHandler<AppEnv>;
type Serve = (c: Context<AppEnv, string>, next: Next) => Promise<Response | undefined>;

/**
 * Serves the files under `root` by request path, or always the one file `file`, each from its
 * pre-compressed copy when the client accepts one and the build wrote it.
 */
function encodedFiles(root: string, file?: string): Serve {
  const serve = (ext: string) =>
    serveStatic<AppEnv>(
      file ? { root, path: file + ext } : { root, rewriteRequestPath: (p) => p + ext },
    );
  // Made on first use: serveStatic complains at once about a root that is not there (yet).
  let servers: { variants: { name: string; serve: Handler }[]; identity: Handler } | undefined;
  const notFound = () => Promise.resolve();
  return async (c, next) => {
    const { variants, identity } = (servers ??= {
      variants: ENCODINGS.map((e) => ({ name: e.name, serve: serve(e.ext) })),
      identity: serve(''),
    });
    const type = getMimeType(file ?? c.req.path);
    const encodable = type !== undefined && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type);
    if (encodable && c.req.header('Range') === undefined) {
      const accepted = c.req.header('Accept-Encoding');
      for (const v of variants) {
        if (!acceptsEncoding(accepted, v.name)) continue;
        const res = await v.serve(c, notFound);
        if (!(res instanceof Response)) continue; // no such copy: the build found it not worth it
        res.headers.set('Content-Type', type);
        res.headers.set('Content-Encoding', v.name);
        varyOnEncoding(res.headers);
        return res;
      }
    }
    const res = await identity(c, next);
    if (!(res instanceof Response)) return undefined;
    if (encodable) varyOnEncoding(res.headers);
    return res;
  };
}

/** serveStatic builds its response before onFound runs: the cache header goes on that response. */
function cached(serve: Serve, cacheControl: string): Handler {
  return async (c, next) => {
    const res = await serve(c, next);
    if (!res) return;
    res.headers.set('Cache-Control', cacheControl);
    return res;
  };
}

/**
 * [Note: session hint in Server-Timing] Whether the page's request carries a session cookie this
 * server signed, told to public/theme-init.js as `Server-Timing: session;desc=1` (or `desc=0`):
 * the one answer about the request that a script can read before the page's first paint
 * (PerformanceNavigationTiming.serverTiming), where the cookie itself is HttpOnly. theme-init.js
 * shows the dashboard's frame on its word, and keeps /auth's sign-in card from a visitor it will
 * send on ([Note: dashboard frame before the app], [Note: sign-in card before the app]), even in
 * a browser whose local storage holds no hint yet (a first visit of this device's profile after a
 * sign-in elsewhere, storage cleared). The signature is checked, the session row is not: an ended
 * session costs one frame, then the guard goes to /auth, as a stale local hint does. It says no
 * more than the browser's own cookie jar, and nothing about whom the session is for. Beside it,
 * `google;desc=1` where Google sign-in is configured (GET /api/auth-config's `google`), so that
 * the sign-in card, index.html's and React's first one, has its Google button from the start
 * instead of growing (and, centred, moving) when that answer arrives (auth/pageHints.ts).
 */
async function sessionCookie(c: Context<AppEnv, string>): Promise<boolean> {
  const cookie = c.req.header('cookie');
  if (!cookie) return false;
  return signedSessionToken(cookie, await cookieSettings(c.var.auth)) !== null;
}

export function webRoutes(webDist: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const files = encodedFiles(webDist);
  const index = encodedFiles(webDist, 'index.html');
  const page = async (c: Context<AppEnv, string>) => {
    const res = await index(c, () => Promise.resolve());
    if (!res) {
      return c.text(
        'The web app is not built. Run `npm run build` (npm start does it for you).',
        503,
      );
    }
    res.headers.set('Cache-Control', NO_CACHE);
    const google = c.var.config.auth.google !== null;
    res.headers.set(
      'Server-Timing',
      `session;desc=${(await sessionCookie(c)) ? 1 : 0}, google;desc=${google ? 1 : 0}`,
    );
    // The answer now depends on the cookie: a shared cache must not hand one visitor's to another.
    res.headers.append('Vary', 'Cookie');
    const link = await preloadLink(webDist, c.req.path);
    if (link) res.headers.set('Link', link);
    return res;
  };

  app.get('/', page);
  app.get('/.vite/*', (c) => c.notFound()); // the build's own notes, not for browsers
  app.use('/assets/*', cached(files, IMMUTABLE));
  // A missing hashed asset is a stale page asking for an old build's chunk: 404, never the page.
  app.get('/assets/*', (c) => c.notFound());
  app.use('*', cached(files, NO_CACHE));
  // Nor does any other path that names a file (robots.txt, the manifest): no route of the app has
  // a dot in it.
  app.get('*', (c, next) => (/\.[^/]*$/.test(c.req.path) ? c.notFound() : next()));
  app.get('*', page);
  return app;
}
