// The plans the server seeds are the spec's §9 table, the same one the web app falls back to when
// GET /api/plans cannot be read (FALLBACK_PLANS in the protocol package): the two must not drift.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FALLBACK_PLANS, plansResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { SEED_SHARE_LIMITS } from './plans.seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('serves the fallback table of the spec as its seeded plans, cheapest first', async () => {
  const res = await t.request('/api/plans');
  expect(res.status).toBe(200);
  const { plans } = plansResponseSchema.parse(await res.json());
  const shape = (p: (typeof plans)[number]) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price_monthly: p.price_monthly,
    max_vaults: p.max_vaults,
    max_file_size_mb: p.max_file_size_mb,
    max_storage_mb: p.max_storage_mb,
    max_share_links: p.max_share_links,
    max_share_mb: p.max_share_mb,
    features: p.features,
  });
  expect(plans.map(shape)).toEqual(FALLBACK_PLANS.map(shape));
});

it('gives each plan its share link limits, Free 3 links and 50 MB, the top plan unlimited', async () => {
  const { plans } = plansResponseSchema.parse(await (await t.request('/api/plans')).json());
  const limits = Object.fromEntries(plans.map((p) => [p.id, [p.max_share_links, p.max_share_mb]]));
  expect(limits).toEqual({
    free: [3, 50],
    basic: [25, 2048],
    pro: [100, 10240],
    unlimited: [-1, -1],
  });
  expect(limits).toEqual(SEED_SHARE_LIMITS);
});
