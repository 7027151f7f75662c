import zlib from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema, vaultsResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { fakeCiphertext, listFiles, tus, uploadMetadata, userWithVault } from '../testing/files.ts';
import { createUser } from '../testing/users.ts';
import { createVault, setPlan } from '../testing/vaults.ts';
import { acceptsEncoding, compressJson } from './compress.ts';

const gunzipJson = async (res: Response): Promise<unknown> =>
  JSON.parse(zlib.gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8'));

describe('JSON responses of the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gzips a JSON answer above 1 KiB for a client that accepts gzip, with Vary', async () => {
    const user = await createUser(t);
    await setPlan(t, user.id, 'unlimited');
    for (let i = 0; i < 9; i++) await createVault(t, user.cookie);
    const headers = { cookie: user.cookie, 'accept-encoding': 'gzip, deflate, br' };
    const res = await t.request('/api/vaults', { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { vaults } = vaultsResponseSchema.parse(await gunzipJson(res));
    expect(vaults.length).toBe(9);

    const plain = await t.request('/api/vaults', { headers: { cookie: user.cookie } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(vaultsResponseSchema.parse(JSON.parse(text)).vaults.length).toBe(9);
  });

  it('sends a small JSON answer as it is, with its length', async () => {
    const res = await t.request('/api/health', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    const text = await res.text();
    expect(text.length).toBeLessThan(1024);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(healthResponseSchema.parse(JSON.parse(text)).status).toBe('ok');
  });

  it('never compresses a file download, whole or in part, nor the tus answers', async () => {
    const { user, vaultId } = await userWithVault(t);
    const bytes = fakeCiphertext(64 * 1024);
    bytes.fill(0, 0, 32 * 1024); // half of it would shrink well
    const meta = uploadMetadata(vaultId, bytes);
    const { created, patched } = await tus(t, user.cookie).upload(meta, bytes);
    expect(patched.status).toBe(204);
    const [file] = await listFiles(t, user, vaultId);
    const url = `/api/vaults/${vaultId}/files/${file!.id}/content`;
    const accept = { cookie: user.cookie, 'accept-encoding': 'gzip, deflate, br' };

    const whole = await t.request(url, { headers: accept });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-encoding')).toBeNull();
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await t.request(url, { headers: { ...accept, range: 'bytes=0-4095' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBeNull();
    expect(part.headers.get('content-range')).toBe(`bytes 0-4095/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 4096))).toBe(true);

    const beyond = await t.request(url, { headers: { ...accept, range: 'bytes=999999-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-encoding')).toBeNull();

    const location = created.headers.get('location') ?? '';
    const head = await t.request(location, {
      method: 'HEAD',
      headers: { ...accept, 'tus-resumable': '1.0.0' },
    });
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});

describe('compressJson', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, name: `item ${i}` })) };
  const app = new Hono();
  app.use('*', compressJson({ except: (p) => p.startsWith('/raw') }));
  app.get('/big', (c) => c.json(big));
  app.get('/raw', (c) => c.json(big));
  app.get('/text', (c) => c.text('x'.repeat(5000)));
  app.get('/ranged', (c) =>
    c.json(big, 200, { 'Content-Range': `bytes 0-9/${JSON.stringify(big).length}` }),
  );
  app.get('/encoded', (c) => c.json(big, 200, { 'Content-Encoding': 'identity' }));
  app.get('/no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'no-store, no-transform' }));
  let release = () => {};
  app.get('/stream', () => {
    const held = new Promise<void>((r) => (release = r));
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(enc.encode(`[${'"a",'.repeat(1000)}`));
        await held;
        controller.enqueue(enc.encode('"z"]'));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'Content-Type': 'application/json' } });
  });
  const gzip = { 'accept-encoding': 'gzip' };

  it('leaves alone what asks for bytes as they are', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/big', { ...gzip, range: 'bytes=0-9' }],
      ['/big', { 'accept-encoding': 'gzip;q=0, br' }],
      ['/raw', gzip],
      ['/text', gzip],
      ['/ranged', gzip],
      ['/encoded', gzip],
      ['/no-transform', gzip],
    ];
    for (const [p, headers] of cases) {
      const res = await app.request(p, { headers });
      expect(res.headers.get('content-encoding') ?? 'none', `${p} ${JSON.stringify(headers)}`).toBe(
        p === '/encoded' ? 'identity' : 'none',
      );
    }
    const big1 = await app.request('/big', { headers: gzip });
    expect(await gunzipJson(big1)).toEqual(big);
  });

  it('does not hold a long body back: the answer goes out while the body still streams', async () => {
    const res = await app.request('/stream', { headers: gzip });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    release();
    const value = (await gunzipJson(res)) as string[];
    expect(value.length).toBe(1001);
    expect(value.at(-1)).toBe('z');
  });

  it('reads Accept-Encoding with its q-values and wildcard', () => {
    expect(acceptsEncoding('gzip, deflate, br', 'br')).toBe(true);
    expect(acceptsEncoding('br;q=0, gzip', 'br')).toBe(false);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('*;q=0, br', 'gzip')).toBe(false);
    expect(acceptsEncoding('identity', 'gzip')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
  });
});
