// Serves the built web app: hashed assets with a year-long immutable cache, everything else
// that is not /api falls back to index.html (the single-page app routes it), never cached.
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppEnv } from '../http/context.ts';

export function webRoutes(webDist: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(webDist, 'index.html');

  // serveStatic builds its response before onFound runs, so the cache header is set on the
  // response it returns instead.
  const cached = (cacheControl: string): MiddlewareHandler<AppEnv> => {
    const serve = serveStatic<AppEnv>({ root: webDist });
    return async (c, next) => {
      const res = await serve(c, next);
      if (res instanceof Response) {
        res.headers.set('Cache-Control', cacheControl);
        return res;
      }
    };
  };
  app.use('/assets/*', cached('public, max-age=31536000, immutable'));
  app.use('*', cached('no-cache'));
  app.get('*', async (c) => {
    const html = await fs.promises.readFile(indexFile, 'utf8').catch(() => null);
    if (html === null) {
      return c.text(
        'The web app is not built. Run `npm run build` (npm start does it for you).',
        503,
      );
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  });
  return app;
}
