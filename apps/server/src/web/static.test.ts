import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';

// A build as apps/web/vite.config.ts leaves it: hashed assets and index.html with their .br and .gz
// copies, and the small files of public/ at the root.
const ASSET = '/assets/index-Ab12Cd34.js';
const script = `export const greeting = ${JSON.stringify('hello, '.repeat(400))};\n`;
const indexHtml = '<!doctype html><title>SealVault</title><div id="root"></div>';
const robots = 'User-agent: *\nAllow: /\nDisallow: /api/\n';
const manifest = JSON.stringify({ name: 'SealVault', display: 'standalone', start_url: '/' });
const preloads = {
  '/auth': ['/assets/AuthPage-1.js', '/assets/authClient-2.js'],
  '/vault/*': ['/assets/VaultPage-3.js'],
  'render-blocking': ['/assets/src-9.css', '/theme-init.js'],
};
/** [Note: render-blocking files first] in preloads.ts: named before the chunks, in their tags' modes. */
const BLOCKING =
  '</assets/src-9.css>; rel=preload; as=style; crossorigin, </theme-init.js>; rel=preload; as=script';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const web = t.config.webDist;
  const write = (file: string, text: string, encoded = true) => {
    const at = path.join(web, file);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, text);
    if (!encoded) return;
    fs.writeFileSync(`${at}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${at}.gz`, zlib.gzipSync(text));
  };
  write(ASSET, script);
  write('index.html', indexHtml);
  write('robots.txt', robots, false);
  write('manifest.webmanifest', manifest);
  write('.vite/route-preloads.json', JSON.stringify(preloads), false);
});
afterAll(() => t.close());

const get = (p: string, headers: Record<string, string> = {}) => t.request(p, { headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('pre-compressed web assets', () => {
  it('serves the brotli copy of a hashed asset to a browser that accepts br, with its own type', async () => {
    const res = await get(ASSET, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await bytes(res);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(body).toString()).toBe(script);
  });

  it('serves the gzip copy when gzip is the best the client accepts', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip', 'deflate, gzip;q=0.5']) {
      const res = await get(ASSET, { 'accept-encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBe('gzip');
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(zlib.gunzipSync(await bytes(res)).toString()).toBe(script);
    }
  });

  it('serves the file as it is without Accept-Encoding, still with Vary and its cache', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0' },
    ];
    for (const headers of cases) {
      const res = await get(ASSET, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await res.text()).toBe(script);
    }
  });

  it('answers a Range request from the plain file, so Content-Range counts its bytes', async () => {
    const res = await get(ASSET, { 'accept-encoding': 'gzip, br', range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-range')).toBe(`bytes 10-19/${Buffer.byteLength(script)}`);
    expect(await res.text()).toBe(script.slice(10, 20));
  });

  it('answers HEAD with the length of the copy it would send', async () => {
    const res = await t.request(ASSET, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(Number(res.headers.get('content-length'))).toBe(
      fs.statSync(path.join(t.config.webDist, `${ASSET}.br`)).size,
    );
  });

  it('serves index.html compressed at / and at the app routes, never cached', async () => {
    for (const p of ['/', '/dashboard', '/vault/0b6f5a9e-8a9c-4f0e-9d53-5b7a2f1c3d4e']) {
      const res = await get(p, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(zlib.brotliDecompressSync(await bytes(res)).toString()).toBe(indexHtml);
    }
    const plain = await get('/auth');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(indexHtml);
  });

  it('answers a missing hashed asset with 404, not with the page', async () => {
    const res = await get('/assets/index-Old00000.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<title>');
  });
});

describe('robots.txt and the web app manifest', () => {
  it('serves robots.txt as text, not the page', async () => {
    const res = await get('/robots.txt', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBeNull(); // the build wrote no copy of it
    expect(await res.text()).toBe(robots);
  });

  it('serves the manifest as application/manifest+json, not the page', async () => {
    const res = await get('/manifest.webmanifest', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/manifest+json');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(JSON.parse(zlib.gunzipSync(await bytes(res)).toString())).toMatchObject({
      name: 'SealVault',
    });
  });

  it('never falls back to index.html for a path that names a file', async () => {
    fs.renameSync(
      path.join(t.config.webDist, 'robots.txt'),
      path.join(t.config.webDist, 'robots.off'),
    );
    try {
      for (const p of ['/robots.txt', '/manifest.json', '/favicon.ico']) {
        const res = await get(p);
        expect(res.status, p).toBe(404);
        expect(await res.text()).not.toContain('<title>');
      }
    } finally {
      fs.renameSync(
        path.join(t.config.webDist, 'robots.off'),
        path.join(t.config.webDist, 'robots.txt'),
      );
    }
  });
});

describe('preloads of the lazy screens', () => {
  it('names the chunks of the screen at the page path in a Link header', async () => {
    const auth = await get('/auth', { 'accept-encoding': 'br' });
    expect(auth.headers.get('link')).toBe(
      `${BLOCKING}, </assets/AuthPage-1.js>; rel=modulepreload, </assets/authClient-2.js>; rel=modulepreload`,
    );
    const vault = await get('/vault/0b6f5a9e-8a9c-4f0e-9d53-5b7a2f1c3d4e');
    expect(vault.headers.get('link')).toBe(
      `${BLOCKING}, </assets/VaultPage-3.js>; rel=modulepreload`,
    );
    for (const p of ['/', '/dashboard', '/vault', '/vault/a/b', '/render-blocking']) {
      expect((await get(p)).headers.get('link'), p).toBeNull();
    }
  });

  it('does not serve the build notes the preloads come from', async () => {
    const res = await get('/.vite/route-preloads.json');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('AuthPage');
  });
});

describe("the page's session hint ([Note: session hint in Server-Timing])", () => {
  const hint = (res: Response) => res.headers.get('server-timing');

  it('says session;desc=1 where the request carries a session cookie this server signed', async () => {
    const user = await createUser(t);
    for (const at of ['/dashboard', '/auth', '/']) {
      const res = await get(at, { cookie: user.cookie });
      expect(res.status).toBe(200);
      expect(hint(res), at).toBe('session;desc=1, google;desc=0');
      expect(res.headers.get('vary'), at).toMatch(/\bcookie\b/i);
    }
  });

  it('says session;desc=0 with no cookie, another cookie, or a forged signature', async () => {
    const user = await createUser(t);
    const forged = user.cookie.replace(
      /(session_token=[^.;]+\.)[^;]+/,
      '$1' + 'A'.repeat(43) + '=',
    );
    expect(forged).not.toBe(user.cookie);
    for (const cookie of [undefined, 'theme=dark', forged]) {
      const res = await get('/dashboard', cookie ? { cookie } : {});
      expect(res.status).toBe(200);
      expect(hint(res), cookie).toBe('session;desc=0, google;desc=0');
    }
  });

  it('says google;desc=1 where Google sign-in is configured', async () => {
    // The provider is asked only at a sign-in, never here: an address nothing listens on.
    const withGoogle = await createTestApp({
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_ISSUER: 'http://127.0.0.1:9',
    });
    try {
      fs.mkdirSync(withGoogle.config.webDist, { recursive: true });
      fs.writeFileSync(path.join(withGoogle.config.webDist, 'index.html'), indexHtml);
      const res = await withGoogle.request('/auth');
      expect(res.status).toBe(200);
      expect(hint(res)).toBe('session;desc=0, google;desc=1');
    } finally {
      await withGoogle.close();
    }
  });

  it('is not on the files the page loads', async () => {
    const user = await createUser(t);
    expect(hint(await get(ASSET, { cookie: user.cookie }))).toBeNull();
  });
});
