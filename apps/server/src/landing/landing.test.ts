// The landing page's claims come from LANDING_CONFIG, with the spec's texts as the defaults; a bad
// file stops start-up naming it. The plans' feature lists come from the plans table.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LANDING_DEFAULTS,
  landingContentSchema,
  PLAN_FEATURES,
  plansResponseSchema,
} from '@sealvault/protocol';
import { ConfigError, loadConfig } from '../config.ts';
import { createTestApp } from '../testing/harness.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-landing-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file in the test's temp dir holding `content` (a string as is, anything else as JSON). */
function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

const landingOf = async (res: Response) => landingContentSchema.parse(await res.json());

describe('GET /api/landing', () => {
  it("serves the spec's claims without LANDING_CONFIG, to anyone", async () => {
    const t = await createTestApp();
    try {
      const res = await t.request('/api/landing');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await landingOf(res)).toEqual(LANDING_DEFAULTS);
      expect(LANDING_DEFAULTS.stats.map((s) => `${s.value} ${s.label}`)).toEqual([
        '50,000+ users',
        '99.9% uptime',
        '10M+ files',
        '24/7 support',
        'AES-256 encryption',
      ]);
    } finally {
      await t.close();
    }
  });

  it("serves the operator's file, keeping the defaults for what it leaves out", async () => {
    const stats = [
      { value: '1,200', label: 'accounts' },
      { value: '99.5%', label: 'uptime in 2026' },
    ];
    const t = await createTestApp({ LANDING_CONFIG: file('stats.json', { stats }) });
    try {
      expect(await landingOf(await t.request('/api/landing'))).toEqual({
        stats,
        testimonials: LANDING_DEFAULTS.testimonials,
      });
    } finally {
      await t.close();
    }
  });

  it('lets the operator drop the claims and the testimonials altogether', async () => {
    const t = await createTestApp({
      LANDING_CONFIG: file('none.json', { stats: [], testimonials: [] }),
    });
    try {
      expect(await landingOf(await t.request('/api/landing'))).toEqual({
        stats: [],
        testimonials: [],
      });
    } finally {
      await t.close();
    }
  });
});

describe('a bad LANDING_CONFIG', () => {
  const refused = (p: string, detail: RegExp) => {
    expect(() => loadConfig({ LANDING_CONFIG: p })).toThrow(ConfigError);
    expect(() => loadConfig({ LANDING_CONFIG: p })).toThrow(
      new RegExp(`LANDING_CONFIG \\(${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`),
    );
    expect(() => loadConfig({ LANDING_CONFIG: p })).toThrow(detail);
  };

  it('is refused when missing, not JSON, of the wrong shape or with an unknown key', () => {
    refused(path.join(dir, 'missing.json'), /cannot be read: ENOENT/);
    refused(file('broken.json', '{"stats": ['), /is not valid JSON/);
    refused(file('shape.json', { stats: [{ value: '', label: 'users' }] }), /stats\.0\.value/);
    refused(
      file('quote.json', { testimonials: [{ name: 'Ada', role: 'Engineer' }] }),
      /testimonials\.0\.quote/,
    );
    refused(file('typo.json', { testimonial: [] }), /testimonial/);
    refused(file('list.json', []), /\(top level\)/);
  });

  it('stops the server at start-up with a message naming it', async () => {
    const bad = file('start.json', { stats: 'many' });
    const main = path.resolve(import.meta.dirname, '../main.ts');
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, LANDING_CONFIG: bad, DATA_DIR: dir, PORT: '0' },
      timeout: 30_000,
    });
    const err = await run.then(
      () => null,
      (e: unknown) => e as { code: number; stdout: string },
    );
    expect(err?.code).toBe(1);
    // Standard output carries JSON lines only: the last is the fatal one, naming the variable.
    const lines = (err?.stdout ?? '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.at(-1)?.level).toBe(60);
    expect(lines.at(-1)?.msg).toContain(`LANDING_CONFIG (${bad}): stats:`);
  });
});

describe('plan features', () => {
  it('come from the plans table, seeded with the spec’s lists', async () => {
    const t = await createTestApp();
    try {
      const read = async () =>
        plansResponseSchema.parse(await (await t.request('/api/plans')).json()).plans;
      expect(Object.fromEntries((await read()).map((p) => [p.id, p.features]))).toEqual(
        PLAN_FEATURES,
      );
      await t.db.kysely
        .updateTable('subscription_plans')
        .set({ features: JSON.stringify(['Phone support on weekdays']) })
        .where('id', '=', 'basic')
        .execute();
      expect((await read()).find((p) => p.id === 'basic')?.features).toEqual([
        'Phone support on weekdays',
      ]);
    } finally {
      await t.close();
    }
  });
});
