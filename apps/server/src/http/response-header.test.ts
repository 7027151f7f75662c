import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressJson } from './compress.ts';
import { requestIds } from './request-id.ts';
import { setResponseHeader } from './response-header.ts';
import { securityHeaders } from './security.ts';

/**
 * The app's per-request middlewares around a route, with a probe that tells whether the response
 * the route built is the one that leaves (not rebuilt from its body, [Note: lightweight responses]).
 */
function probedApp(route: (c: Context) => Response) {
  const app = new Hono();
  let built: Response | undefined;
  let kept: boolean | undefined;
  app.use('*', async (c, next) => {
    await next();
    kept = c.res === built;
  });
  app.use('*', requestIds());
  app.use('*', securityHeaders());
  app.use('*', compressJson());
  app.use('*', async (c, next) => {
    await next();
    built = c.res;
  });
  app.get('/r', route);
  return { app, kept: () => kept };
}

describe('setResponseHeader', () => {
  it('adds the request id and security headers to a JSON answer without rebuilding it', async () => {
    const { app, kept } = probedApp((c) => c.json({ ok: true }));
    const res = await app.request('/r');
    expect(kept()).toBe(true);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('still gzips a large JSON answer for a client that accepts it', async () => {
    const { app } = probedApp((c) => c.json({ text: 'x'.repeat(5000) }));
    const res = await app.request('/r', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('falls back to a rebuilt response when the headers are immutable', async () => {
    const app = new Hono();
    app.use('*', async (c, next) => {
      await next();
      setResponseHeader(c, 'X-Test', 'yes');
    });
    app.get('/r', () => Response.redirect('http://localhost/elsewhere', 302));
    const res = await app.request('/r');
    expect(res.status).toBe(302);
    expect(res.headers.get('x-test')).toBe('yes');
  });
});
