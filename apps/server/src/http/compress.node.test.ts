// compressJson through @hono/node-server over a real socket ([Note: the light answer's body] in
// compress.ts): only there is a c.json() answer the adapter's light Response, whose whole body
// compress reads without building a stream; in-process tests (app.request) take the general way.
import http from 'node:http';
import zlib from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressJson } from './compress.ts';

const big = { items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })) };
const bigText = JSON.stringify(big);

let server: ServerType;
let base = '';
beforeAll(async () => {
  const app = new Hono();
  app.use('*', compressJson());
  app.get('/big', (c) => c.json(big));
  app.get('/small', (c) => c.json({ ok: true }));
  app.get('/tagged', (c) => c.json(big, 200, { ETag: '"t1"' }));
  app.get('/varied', (c) => c.json(big, 200, { Vary: 'Cookie' }));
  app.get('/small-varied', (c) => c.json({ ok: true }, 200, { Vary: 'Cookie' }));
  app.get('/no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'no-transform' }));
  app.get('/text', (c) => c.text(bigText));
  // c.header() before the answer: its headers are a Headers object, not a plain one.
  app.get('/prepared', (c) => {
    c.header('X-Kind', 'prepared');
    return c.json(big);
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A GET as a browser sends it (or without Accept-Encoding), its body as the bytes on the wire. */
const get = (path: string, encoding: string | null = 'gzip, deflate, br, zstd') =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer }>(
    (resolve, reject) => {
      const headers = encoding === null ? {} : { 'accept-encoding': encoding };
      http
        .get(new URL(path, base), { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              raw: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    },
  );

/** The length on the wire matches the header, when there is one. */
const lengthMatches = (res: { headers: http.IncomingHttpHeaders; raw: Buffer }) => {
  const declared = res.headers['content-length'];
  if (declared !== undefined) expect(Number(declared)).toBe(res.raw.length);
};

describe('compressJson over a socket', () => {
  it('gzips a large c.json() answer whole, with Vary and a matching length', async () => {
    const res = await get('/big');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    lengthMatches(res);
    expect(zlib.gunzipSync(res.raw).toString('utf8')).toBe(bigText);
  });

  it('sends a small one as it is, with its length and Vary', async () => {
    const res = await get('/small');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBe(String(res.raw.length));
    expect(res.raw.toString('utf8')).toBe('{"ok":true}');
  });

  it("weakens a gzipped answer's ETag and adds to its own Vary, small or large", async () => {
    const tagged = await get('/tagged');
    expect(tagged.headers['content-encoding']).toBe('gzip');
    expect(tagged.headers.etag).toBe('W/"t1"');
    const varied = await get('/varied');
    expect(varied.headers['content-encoding']).toBe('gzip');
    expect(varied.headers.vary).toBe('Cookie, Accept-Encoding');
    lengthMatches(varied);
    const small = await get('/small-varied');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(small.headers['content-length']).toBe(String(small.raw.length));
  });

  it('gzips an answer whose headers were prepared with c.header()', async () => {
    const res = await get('/prepared');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['x-kind']).toBe('prepared');
    expect(res.headers.vary).toBe('Accept-Encoding');
    lengthMatches(res);
    expect(zlib.gunzipSync(res.raw).toString('utf8')).toBe(bigText);
  });

  it('leaves alone no-transform, non-JSON and a client without gzip', async () => {
    for (const path of ['/no-transform', '/text']) {
      const res = await get(path);
      expect(res.headers['content-encoding']).toBeUndefined();
      lengthMatches(res);
      expect(res.raw.toString('utf8')).toBe(bigText);
    }
    const plain = await get('/big', null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.raw.toString('utf8')).toBe(bigText);
  });
});
