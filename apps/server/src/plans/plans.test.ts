// The plans the server seeds are the spec's §9 table, the same one the web app falls back to when
// GET /api/plans cannot be read (FALLBACK_PLANS in the protocol package): the two must not drift.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FALLBACK_PLANS, plansResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';

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
    features: p.features,
  });
  expect(plans.map(shape)).toEqual(FALLBACK_PLANS.map(shape));
});
