// Serves the built web app: hashed assets with a year-long immutable cache, everything else
// that is not /api falls back to index.html (the single-page app routes it), never cached.
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppEnv } from '../http/context.ts';

export function webRoutes(webDist: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(webDist, 'index.html');

  app.use(
    '/assets/*',
    serveStatic({
      root: webDist,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use(
    '*',
    serveStatic({
      root: webDist,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'no-cache');
      },
    }),
  );
  app.get('*', async (c) => {
    const html = await fs.promises.readFile(indexFile, 'utf8').catch(() => null);
    if (html === null) {
      return c.text('The web app is not built. Run `npm run build` (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  });
  return app;
}
