import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, healthResponseSchema, plansResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from './testing/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const web = t.config.webDist;
  fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>SealVault</title>');
  fs.writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('reports ok and the database kind in use', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    const body = healthResponseSchema.parse(await res.json());
    expect(body.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  });

  it("names the server's version (the root package.json's) and its git commit", async () => {
    const root = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { version: string };
    const body = healthResponseSchema.parse(await (await t.request('/api/health')).json());
    expect(body.version).toBe(root.version);
    expect(body.commit).toMatch(/^[A-Za-z0-9._+-]{1,64}$/);
  });
});

describe('GET /api/plans', () => {
  it('returns the four seeded plans of the spec in order, with -1 as unlimited', async () => {
    const res = await t.request('/api/plans');
    expect(res.status).toBe(200);
    const { plans } = plansResponseSchema.parse(await res.json());
    expect(plans.map((p) => [p.id, p.price_monthly, p.max_vaults, p.max_file_size_mb])).toEqual([
      ['free', 0, 2, 2],
      ['basic', 4.95, 10, 100],
      ['pro', 9.95, 20, 500],
      ['unlimited', 19.95, -1, -1],
    ]);
    expect(plans.every((p) => p.is_active && p.name.length > 0 && p.description.length > 0)).toBe(
      true,
    );
  });

  it('leaves out inactive plans', async () => {
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ is_active: 0 })
      .where('id', '=', 'basic')
      .execute();
    const { plans } = plansResponseSchema.parse(await (await t.request('/api/plans')).json());
    expect(plans.map((p) => p.id)).toEqual(['free', 'pro', 'unlimited']);
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ is_active: 1 })
      .where('id', '=', 'basic')
      .execute();
  });
});

describe('security headers', () => {
  it('sets a strict CSP without inline script, frame-ancestors none, nosniff and no-referrer', async () => {
    for (const p of ['/api/health', '/', '/assets/app-abc123.js', '/api/nope']) {
      const res = await t.request(p);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-inline' 'self' 'wasm");
      expect(csp).toMatch(/script-src [^;]*$|script-src [^;]*;/);
      expect(csp.split(';').find((d) => d.includes('script-src'))).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});

describe('state changes from another origin', () => {
  it('refuses a cross-origin POST with 403', async () => {
    const res = await t.request('/api/plans', {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(errorBodySchema.parse(await res.json()).error.code).toBe('forbidden');
  });

  it('refuses a cross-origin JSON request too, not only form posts', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.request('/api/vaults', {
        method,
        headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, method).toBe(403);
    }
  });

  it('lets same-origin requests and clients without browser headers through to the route', async () => {
    const same = await t.request('/api/vaults', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    expect(same.status).toBe(401);
    const curl = await t.app.request('/api/vaults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(curl.status).toBe(401);
  });

  it('refuses a browser request marked cross-site even without an Origin it can check', async () => {
    const res = await t.app.request('/api/plans', {
      method: 'DELETE',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
  });
});

describe('unknown API paths and the web app', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(errorBodySchema.parse(await res.json()).error.code).toBe('not_found');
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await t.request('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('falls back to index.html for app routes, not cached', async () => {
    const res = await t.request('/vault/123');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>SealVault</title>');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });
});
