// The headers every answer carries, through @hono/node-server over a real socket ([Note: headers
// on Node's response] in response-header.ts): in-process tests (app.request) have no Node
// response, so they see the headers set on c.res; only here are they set on Node's own.
import fs from 'node:fs';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';

let t: TestApp;
let user: TestUser;
let server: ServerType;
let base = '';
beforeAll(async () => {
  // Payments configured, so that the checkout's document has its own policy.
  t = await createTestApp({
    PAYMENT_MERCHANT_CODE: '250111206876',
    PAYMENT_SECRET_KEY: 'test-secret-key-0123456789',
    PAYMENT_PRODUCT_BASIC: 'PROD-BASIC',
    PAYMENT_PRODUCT_PRO: 'PROD-PRO',
    PAYMENT_PRODUCT_UNLIMITED: 'PROD-UNLIMITED',
  });
  user = await createUser(t);
  fs.mkdirSync(t.config.webDist, { recursive: true });
  fs.writeFileSync(path.join(t.config.webDist, 'index.html'), '<!doctype html><title>x</title>');
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

/** The security headers' names, as the in-process answer to `/api/health` carries them. */
const SECURITY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-robots-tag',
  'x-xss-protection',
];
const securityOf = (res: Response) =>
  Object.fromEntries(
    SECURITY.flatMap((h) => (res.headers.has(h) ? [[h, res.headers.get(h)]] : [])),
  );

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('headers over HTTP', () => {
  const cases: [string, string, RequestInit?][] = [
    ['a JSON answer', '/api/health'],
    ["a signed-in user's list", '/api/vaults'],
    ['an error answer', '/api/does-not-exist'],
    ["Better Auth's own answer", '/api/auth/get-session'],
    ["tus's own answer", '/api/uploads', { method: 'OPTIONS' }],
    ['a share link', '/api/s/nope'],
    ["a provider's popup return page", '/dropbox-auth'],
    ["the checkout's document", '/checkout'],
    ['a page of the app', '/vaults'],
  ];
  for (const [what, p, init] of cases) {
    it(`carries the same security headers as in-process: ${what}`, async () => {
      const headers = { cookie: user.cookie };
      const inProcess = await t.app.request(p, { ...init, headers });
      const overHttp = await fetch(`${base}${p}`, { ...init, headers });
      expect(overHttp.status).toBe(inProcess.status);
      expect(securityOf(overHttp)).toEqual(securityOf(inProcess));
      expect(Object.keys(securityOf(overHttp)).length).toBeGreaterThanOrEqual(13);
      expect(overHttp.headers.get('x-request-id')).toMatch(UUID);
    });
  }

  it('keeps a safe request id sent by a proxy, and answers Vary on JSON, gzipped or not', async () => {
    const res = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'proxy-1.A_b' } });
    expect(res.headers.get('x-request-id')).toBe('proxy-1.A_b');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const big = await fetch(`${base}/api/openapi.json`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(big.headers.get('vary')).toBe('Accept-Encoding');
    expect(big.headers.get('x-request-id')).toMatch(UUID);
    expect(((await big.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
