// Plans for one's own instance (issue 33): PLANS_MODE=self-hosted starts new accounts on the
// operator's DEFAULT_PLAN (unlimited by default), whose limits are the PLAN_MAX_* variables, and
// offers no checkout, trial or self-service plan change. SaaS mode keeps everything as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authConfigResponseSchema,
  errorBodySchema,
  limitsSchema,
  plansResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault, send, vaultRequest } from '../testing/vaults.ts';
import { applyInstancePlan, seededLimits } from './instance-plan.ts';
import { NOT_SOLD_HERE } from './saas-only.ts';

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  apps.push(t);
  return t;
}

const limitsOf = async (t: TestApp, cookie: string) =>
  limitsSchema.parse(await (await send(t, cookie, 'GET', '/api/limits')).json());

describe('PLANS_MODE=self-hosted with the defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app({ PLANS_MODE: 'self-hosted' });
  });

  it('is told to the web app', async () => {
    const config = authConfigResponseSchema.parse(
      await (await t.request('/api/auth-config')).json(),
    );
    expect(config.plans).toBe('self-hosted');
  });

  it('starts a new account on the unlimited plan: no cap on vaults, file size or storage', async () => {
    const u = await createUser(t);
    const me = (await (await send(t, u.cookie, 'GET', '/api/me')).json()) as {
      current_plan_id: string;
    };
    expect(me.current_plan_id).toBe('unlimited');
    expect(await limitsOf(t, u.cookie)).toMatchObject({
      plan_id: 'unlimited',
      max_vaults: -1,
      max_file_size_mb: -1,
      max_storage_mb: -1,
      max_share_links: -1,
      max_share_mb: -1,
    });
    // More vaults than Free's two.
    for (let i = 0; i < 3; i++) await createVault(t, u.cookie, { name: `Vault ${i}` });
  });

  it('sells nothing: checkout, trial and self-service plan changes answer 404', async () => {
    const u = await createUser(t);
    for (const [path, body] of [
      ['/api/payments/checkout', { plan_id: 'basic' }],
      ['/api/subscription/trial', { plan_id: 'pro' }],
      ['/api/subscription/upgrade', { plan_id: 'free' }],
    ] as const) {
      const res = await send(t, u.cookie, 'POST', path, body);
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(NOT_SOLD_HERE);
    }
    expect((await limitsOf(t, u.cookie)).plan_id).toBe('unlimited');
  });

  it('still lets an admin grant another plan', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const u = await createUser(t);
    const res = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'free',
      bypass_payment: true,
      user_id: u.id,
    });
    expect(res.status).toBe(200);
    expect((await limitsOf(t, u.cookie)).plan_id).toBe('free');
  });
});

describe('PLANS_MODE=self-hosted with DEFAULT_PLAN and PLAN_MAX_*', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app({
      PLANS_MODE: 'self-hosted',
      DEFAULT_PLAN: 'basic',
      PLAN_MAX_VAULTS: '3',
      PLAN_MAX_FILE_SIZE_MB: '-1',
      PLAN_MAX_SHARE_LINKS: '7',
    });
  });

  it("starts new accounts on the operator's plan with the configured limits, the rest as seeded", async () => {
    const u = await createUser(t);
    expect(await limitsOf(t, u.cookie)).toMatchObject({
      plan_id: 'basic',
      max_vaults: 3,
      max_file_size_mb: -1,
      max_storage_mb: seededLimits('basic').max_storage_mb,
      max_share_links: 7,
      max_share_mb: seededLimits('basic').max_share_mb,
    });
    const plans = plansResponseSchema.parse(await (await t.request('/api/plans')).json()).plans;
    expect(plans.find((p) => p.id === 'basic')).toMatchObject({
      max_vaults: 3,
      max_file_size_mb: -1,
    });
    for (let i = 0; i < 3; i++) await createVault(t, u.cookie, { name: `Vault ${i}` });
    const fourth = await send(t, u.cookie, 'POST', '/api/vaults', vaultRequest({ name: 'Four' }));
    expect(fourth.status).toBe(403);
    expect(errorBodySchema.parse(await fourth.json()).error.code).toBe('limit_reached');
  });

  it('gives a plan back its seeded limits when the variables are unset at the next start', async () => {
    await applyInstancePlan(
      t.db.kysely,
      { mode: 'self-hosted', defaultPlan: 'basic', limits: {} },
      new Date(),
    );
    const row = await t.db.kysely
      .selectFrom('subscription_plans')
      .select([
        'max_vaults',
        'max_file_size_mb',
        'max_storage_mb',
        'max_share_links',
        'max_share_mb',
      ])
      .where('id', '=', 'basic')
      .executeTakeFirstOrThrow();
    expect(row).toEqual(seededLimits('basic'));
  });
});

describe('PLANS_MODE=saas (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app();
  });

  it('starts new accounts on Free and leaves the plans as seeded', async () => {
    const u = await createUser(t);
    expect((await limitsOf(t, u.cookie)).plan_id).toBe('free');
    const config = authConfigResponseSchema.parse(
      await (await t.request('/api/auth-config')).json(),
    );
    expect(config.plans).toBe('saas');
    const row = await t.db.kysely
      .selectFrom('subscription_plans')
      .select([
        'max_vaults',
        'max_file_size_mb',
        'max_storage_mb',
        'max_share_links',
        'max_share_mb',
      ])
      .where('id', '=', 'unlimited')
      .executeTakeFirstOrThrow();
    expect(row).toEqual(seededLimits('unlimited'));
  });

  it('keeps the trial route', async () => {
    const u = await createUser(t);
    const res = await send(t, u.cookie, 'POST', '/api/subscription/trial', { plan_id: 'pro' });
    expect(res.status).toBe(200);
  });
});
