import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  limitsSchema,
  messages,
  subscriptionMessages,
  subscriptionResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import {
  addOneMonth,
  applyDueChanges,
  applyPaidPlan,
  LAPSE_GRACE_MS,
} from './subscriptions.service.ts';
import { createVault, send } from '../testing/vaults.ts';
import { fakeCiphertext, tus, uploadMetadata, userWithVault } from '../testing/files.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const subscriptionOf = async (res: Response) => subscriptionResponseSchema.parse(await res.json());

/** What a verified payment does (payments.service.ts calls it inside its transaction). */
const pay = (userId: string, plan: 'basic' | 'pro' | 'unlimited') =>
  t.db.kysely.transaction().execute((trx) => applyPaidPlan(trx, userId, plan, t.clock.now, null));

describe('GET /api/subscription', () => {
  it('starts on free, active, without a period, with the limits and the vault count', async () => {
    const u = await createUser(t);
    await createVault(t, u.cookie);
    const res = await send(t, u.cookie, 'GET', '/api/subscription');
    expect(res.status).toBe(200);
    const body = await subscriptionOf(res);
    expect(body.subscription).toMatchObject({
      plan_id: 'free',
      status: 'active',
      current_period_end: null,
      pending_plan_id: null,
    });
    expect(body.limits).toEqual({
      plan_id: 'free',
      max_vaults: 2,
      max_file_size_mb: 2,
      plan_name: 'Free',
      max_storage_mb: 50,
      max_share_links: 3,
      max_share_mb: 50,
      storage_used_bytes: 0,
    });
    expect(body.vault_count).toBe(1);
  });

  it("carries the bytes the user's files take on this server, beside the storage quota", async () => {
    const { user, vaultId } = await userWithVault(t, 'basic');
    const bytes = fakeCiphertext(70_000);
    expect(
      (await tus(t, user.cookie).upload(uploadMetadata(vaultId, bytes), bytes)).patched.status,
    ).toBe(204);
    const body = await subscriptionOf(await send(t, user.cookie, 'GET', '/api/subscription'));
    expect(body.limits).toMatchObject({ max_storage_mb: 10_240, storage_used_bytes: bytes.length });
  });

  it('needs a session', async () => {
    expect((await t.request('/api/subscription')).status).toBe(401);
  });
});

describe('admin upgrade (upgrade_user_subscription_admin)', () => {
  it('lets an admin switch to any plan without payment, and the limits follow', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const before = limitsSchema.parse(
      await (await send(t, admin.cookie, 'GET', '/api/limits')).json(),
    );
    expect(before.plan_name).toBe('Free');
    const res = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'unlimited',
      bypass_payment: true,
    });
    expect(res.status).toBe(200);
    const body = await subscriptionOf(res);
    expect(body.subscription.plan_id).toBe('unlimited');
    expect(body.subscription.current_period_end).toBeNull();
    const after = limitsSchema.parse(
      await (await send(t, admin.cookie, 'GET', '/api/limits')).json(),
    );
    expect(after).toEqual({
      plan_id: 'unlimited',
      max_vaults: -1,
      max_file_size_mb: -1,
      plan_name: 'Unlimited',
      max_storage_mb: -1,
      max_share_links: -1,
      max_share_mb: -1,
      storage_used_bytes: 0,
    });
    const me = (await (await send(t, admin.cookie, 'GET', '/api/me')).json()) as {
      plan: { name: string };
    };
    expect(me.plan.name).toBe('Unlimited');
  });

  it("lets an admin change another user's plan, and 404s an unknown user", async () => {
    const admin = await createUser(t, { role: 'admin' });
    const user = await createUser(t);
    const res = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'basic',
      bypass_payment: true,
      user_id: user.id,
    });
    expect((await subscriptionOf(res)).subscription.plan_id).toBe('basic');
    const own = await subscriptionOf(await send(t, user.cookie, 'GET', '/api/subscription'));
    expect(own.limits.plan_name).toBe('Basic');
    const missing = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'basic',
      bypass_payment: true,
      user_id: 'nobody',
    });
    expect(missing.status).toBe(404);
  });

  it("refuses a normal user with 403 'Admin privileges required' and changes nothing", async () => {
    const u = await createUser(t);
    const res = await send(t, u.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'pro',
      bypass_payment: true,
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toBe(messages.plans.adminRequired);
    const sub = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(sub.subscription.plan_id).toBe('free');
  });

  it('validates the body: bypass_payment must be true, the plan must exist', async () => {
    const admin = await createUser(t, { role: 'admin' });
    for (const body of [{ plan_id: 'pro' }, { plan_id: 'gold', bypass_payment: true }]) {
      const res = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', body);
      expect(res.status).toBe(400);
    }
  });
});

describe('upgrade without payment (upgrade_user_subscription)', () => {
  it('refuses every paid plan and changes nothing', async () => {
    const u = await createUser(t);
    for (const plan_id of ['basic', 'pro', 'unlimited']) {
      const res = await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe(subscriptionMessages.paymentRequired);
    }
    const sub = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(sub.subscription.plan_id).toBe('free');
    expect(sub.limits.max_vaults).toBe(2);
  });

  it('switches to free at once when there is no paid period (an admin grant)', async () => {
    const admin = await createUser(t, { role: 'admin' });
    await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'pro',
      bypass_payment: true,
    });
    const res = await send(t, admin.cookie, 'POST', '/api/subscription/upgrade', {
      plan_id: 'free',
    });
    const body = await subscriptionOf(res);
    expect(body.subscription.plan_id).toBe('free');
    expect(body.subscription.pending_plan_id).toBeNull();
  });
});

describe('paid period and scheduled downgrade', () => {
  it('stores the period end a month after a paid upgrade', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-01-31T10:00:00.000Z');
    await pay(u.id, 'basic');
    const sub = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(sub.subscription.plan_id).toBe('basic');
    expect(sub.subscription.current_period_end).toBe('2026-02-28T10:00:00.000Z');
    expect(sub.limits.max_vaults).toBe(10);
    t.clock.now = new Date();
  });

  it('schedules Switch to Free for the period end; the job applies it once the clock passes', async () => {
    const u = await createUser(t);
    const start = new Date('2026-03-10T08:00:00.000Z');
    t.clock.now = start;
    await pay(u.id, 'pro');
    const ids = [
      await createVault(t, u.cookie),
      await createVault(t, u.cookie),
      await createVault(t, u.cookie),
    ];
    const scheduled = await subscriptionOf(
      await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'free' }),
    );
    expect(scheduled.subscription).toMatchObject({
      plan_id: 'pro',
      pending_plan_id: 'free',
      current_period_end: '2026-04-10T08:00:00.000Z',
    });

    t.clock.now = new Date('2026-04-10T07:59:59.000Z');
    // Other tests' users share this database, so the assertions read this user's state.
    await applyDueChanges({ db: t.db, now: () => t.clock.now, logger: silent });
    const before = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(before.subscription).toMatchObject({ plan_id: 'pro', pending_plan_id: 'free' });

    t.clock.now = new Date('2026-04-10T08:00:01.000Z');
    const pass = await applyDueChanges({ db: t.db, now: () => t.clock.now, logger: silent });
    expect(pass.downgraded).toBeGreaterThanOrEqual(1);
    const after = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(after.subscription).toMatchObject({ plan_id: 'free', pending_plan_id: null });
    expect(after.limits.max_vaults).toBe(2);

    // Over the new limit: the existing vaults stay readable, only creating is refused.
    expect(after.vault_count).toBe(3);
    for (const id of ids)
      expect((await send(t, u.cookie, 'GET', `/api/vaults/${id}`)).status).toBe(200);
    const create = await send(t, u.cookie, 'POST', '/api/vaults', {});
    expect(create.status).toBe(400);
    await expect(createVault(t, u.cookie)).rejects.toThrow(/403/);
    t.clock.now = new Date();
  });

  it('keeping the paid plan cancels a scheduled downgrade', async () => {
    const u = await createUser(t);
    await pay(u.id, 'basic');
    await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'free' });
    const kept = await subscriptionOf(
      await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'basic' }),
    );
    expect(kept.subscription).toMatchObject({ plan_id: 'basic', pending_plan_id: null });
  });

  it('a cheaper paid plan bought during a dearer period starts when that period ends', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-07-05T12:00:00.000Z');
    await pay(u.id, 'pro');
    t.clock.now = new Date('2026-07-20T12:00:00.000Z');
    await pay(u.id, 'basic');
    const waiting = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(waiting.subscription).toMatchObject({
      plan_id: 'pro',
      pending_plan_id: 'basic',
      current_period_end: '2026-08-05T12:00:00.000Z',
    });
    expect(waiting.limits.max_vaults).toBe(20);
    // What was paid for cannot be called off by "keeping" Pro without paying for it.
    const keep = await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'pro' });
    expect(keep.status).toBe(403);

    t.clock.now = new Date('2026-08-05T12:00:01.000Z');
    await applyDueChanges({ db: t.db, now: () => t.clock.now, logger: silent });
    const after = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(after.subscription).toMatchObject({
      plan_id: 'basic',
      pending_plan_id: null,
      current_period_end: '2026-09-05T12:00:00.000Z',
    });
    expect(after.limits.max_vaults).toBe(10);
    t.clock.now = new Date();
  });

  it('a dearer plan paid during a cheaper period starts at once', async () => {
    const u = await createUser(t);
    await pay(u.id, 'basic');
    await pay(u.id, 'unlimited');
    const sub = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(sub.subscription).toMatchObject({ plan_id: 'unlimited', pending_plan_id: null });
  });

  it('moves a paid plan that was not renewed back to free after the grace period', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-05-01T00:00:00.000Z');
    await pay(u.id, 'basic');
    t.clock.now = new Date(new Date('2026-06-01T00:00:00.000Z').getTime() + LAPSE_GRACE_MS + 1000);
    const pass = await applyDueChanges({ db: t.db, now: () => t.clock.now, logger: silent });
    expect(pass.lapsed).toBeGreaterThanOrEqual(1);
    const sub = await subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
    expect(sub.subscription.plan_id).toBe('free');
    t.clock.now = new Date();
  });

  it('adds calendar months, clamped to the last day', () => {
    expect(addOneMonth(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe(
      '2027-01-15T00:00:00.000Z',
    );
    expect(addOneMonth(new Date('2028-01-31T00:00:00Z')).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
  });
});

const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Parameters<typeof applyDueChanges>[0]['logger'];
