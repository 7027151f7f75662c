import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  subscriptionResponseSchema,
  TRIAL_MS,
  trialMessages,
  vaultResponseSchema,
  vaultsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { createVault, send } from '../testing/vaults.ts';
import { fakeCiphertext, tus, uploadMetadata } from '../testing/files.ts';
import { applyDueChanges, applyPaidPlan } from './subscriptions.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.now = new Date();
});

const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const subscriptionOf = async (res: Response) => subscriptionResponseSchema.parse(await res.json());
const getSubscription = async (u: TestUser) =>
  subscriptionOf(await send(t, u.cookie, 'GET', '/api/subscription'));
const startTrial = (u: TestUser, plan_id: unknown) =>
  send(t, u.cookie, 'POST', '/api/subscription/trial', { plan_id });
const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Parameters<typeof applyDueChanges>[0]['logger'];
const runJob = () => applyDueChanges({ db: t.db, now: () => t.clock.now, logger: silent });
const pay = (userId: string, plan: 'basic' | 'pro' | 'unlimited') =>
  t.db.kysely.transaction().execute((trx) => applyPaidPlan(trx, userId, plan, t.clock.now, null));
const later = (ms: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + ms);
};

describe('POST /api/subscription/trial', () => {
  it('puts a Free account on a paid plan for 14 days, without a card', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-03-10T09:00:00.000Z');
    const res = await startTrial(u, 'pro');
    expect(res.status).toBe(200);
    const body = await subscriptionOf(res);
    expect(body.subscription).toMatchObject({
      plan_id: 'pro',
      current_period_end: null,
      trial: {
        plan_id: 'pro',
        started_at: '2026-03-10T09:00:00.000Z',
        ends_at: '2026-03-24T09:00:00.000Z',
        outcome: 'running',
      },
    });
    expect(body.limits).toMatchObject({ plan_id: 'pro', max_vaults: 20, max_file_size_mb: 500 });
    const me = (await (await send(t, u.cookie, 'GET', '/api/me')).json()) as {
      plan: { name: string };
    };
    expect(me.plan.name).toBe('Pro');
  });

  it('refuses a second trial with 409, also after the first one ended', async () => {
    const u = await createUser(t);
    expect((await startTrial(u, 'basic')).status).toBe(200);
    const again = await startTrial(u, 'pro');
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(trialMessages.alreadyUsed);

    await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'free' });
    const afterEnd = await startTrial(u, 'basic');
    expect(afterEnd.status).toBe(409);
    expect((await errorOf(afterEnd)).message).toBe(trialMessages.alreadyUsed);
    expect((await getSubscription(u)).subscription.plan_id).toBe('free');
  });

  it('starts only from Free: a paid account gets 409 and keeps its plan', async () => {
    const u = await createUser(t);
    await pay(u.id, 'basic');
    const res = await startTrial(u, 'pro');
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(trialMessages.onlyFromFree('Basic'));
    const sub = await getSubscription(u);
    expect(sub.subscription).toMatchObject({ plan_id: 'basic', trial: null });
  });

  it('validates the plan: free, unknown or missing is 400; an inactive plan is 404', async () => {
    const u = await createUser(t);
    for (const plan_id of ['free', 'gold', undefined, 7]) {
      expect((await startTrial(u, plan_id)).status).toBe(400);
    }
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ is_active: 0 })
      .where('id', '=', 'unlimited')
      .execute();
    try {
      const res = await startTrial(u, 'unlimited');
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe(trialMessages.planUnavailable);
    } finally {
      await t.db.kysely
        .updateTable('subscription_plans')
        .set({ is_active: 1 })
        .where('id', '=', 'unlimited')
        .execute();
    }
    // None of these used the account's trial.
    expect((await getSubscription(u)).subscription.trial).toBeNull();
    expect((await startTrial(u, 'pro')).status).toBe(200);
  });

  it('needs a session, and a same-origin request', async () => {
    expect(
      (
        await t.request('/api/subscription/trial', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ plan_id: 'pro' }),
        })
      ).status,
    ).toBe(401);
    const u = await createUser(t);
    const cross = await t.request('/api/subscription/trial', {
      method: 'POST',
      headers: {
        cookie: u.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ plan_id: 'pro' }),
    });
    expect(cross.status).toBe(403);
    expect((await getSubscription(u)).subscription.trial).toBeNull();
  });
});

// Issue 25, finding 6: deleting the account and signing up again with the same e-mail must not
// give a second trial. The e-mail is remembered as a keyed hash (trial-emails.ts).
describe('one trial per e-mail address', () => {
  const deleteAccount = (u: TestUser) =>
    send(t, u.cookie, 'DELETE', '/api/me', { password: u.password });

  it('a new account with the e-mail of a deleted account that had a trial gets none', async () => {
    const email = `again-${randomUUID()}@example.test`;
    const first = await createUser(t, { email });
    expect((await startTrial(first, 'pro')).status).toBe(200);
    expect((await deleteAccount(first)).status).toBe(200);

    // The same address, written with capitals: normalised before it is hashed.
    const again = await createUser(t, { email: email.toUpperCase() });
    const sub = await getSubscription(again);
    expect(sub.subscription).toMatchObject({ plan_id: 'free', trial: null, earlier_trial: true });
    expect(sub.limits.plan_id).toBe('free');
    const res = await startTrial(again, 'basic');
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(trialMessages.alreadyUsedByEmail);
    expect((await getSubscription(again)).subscription.plan_id).toBe('free');

    // Only a keyed hash is kept: no row names the address.
    const rows = await t.db.kysely.selectFrom('trial_emails').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(email.split('@')[0]);
  });

  it('an account deleted without a trial leaves the e-mail free to try one', async () => {
    const email = `never-${randomUUID()}@example.test`;
    const first = await createUser(t, { email });
    expect((await deleteAccount(first)).status).toBe(200);
    const again = await createUser(t, { email });
    expect((await getSubscription(again)).subscription).toMatchObject({
      trial: null,
      earlier_trial: false,
    });
    expect((await startTrial(again, 'pro')).status).toBe(200);
  });
});

describe('the end of a trial', () => {
  it('moves the account back to Free once the clock passes the end, not before', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-05-01T12:00:00.000Z');
    await startTrial(u, 'basic');
    t.clock.now = new Date('2026-05-15T11:59:59.000Z');
    await runJob();
    expect((await getSubscription(u)).subscription).toMatchObject({
      plan_id: 'basic',
      trial: { outcome: 'running' },
    });

    t.clock.now = new Date('2026-05-15T12:00:01.000Z');
    const pass = await runJob();
    expect(pass.trialsEnded).toBeGreaterThanOrEqual(1);
    const after = await getSubscription(u);
    expect(after.subscription).toMatchObject({
      plan_id: 'free',
      current_period_end: null,
      trial: { plan_id: 'basic', ends_at: '2026-05-15T12:00:00.000Z', outcome: 'lapsed' },
    });
    expect(after.limits.max_vaults).toBe(2);
    // Ending is done once: another pass finds nothing of this user's to end.
    await runJob();
    expect((await getSubscription(u)).subscription.plan_id).toBe('free');
  });

  it('paying for the plan on trial keeps the trial days: the month starts at its end', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-06-01T00:00:00.000Z');
    await startTrial(u, 'pro');
    t.clock.now = new Date('2026-06-05T00:00:00.000Z');
    await pay(u.id, 'pro');
    const paid = await getSubscription(u);
    expect(paid.subscription).toMatchObject({
      plan_id: 'pro',
      current_period_end: '2026-07-15T00:00:00.000Z',
      trial: { outcome: 'paid', ends_at: '2026-06-05T00:00:00.000Z' },
    });
    t.clock.now = new Date('2026-06-20T00:00:00.000Z');
    await runJob();
    expect((await getSubscription(u)).subscription.plan_id).toBe('pro');
  });

  it('paying for another plan during a trial starts it now and ends the trial', async () => {
    const u = await createUser(t);
    t.clock.now = new Date('2026-06-01T00:00:00.000Z');
    await startTrial(u, 'pro');
    t.clock.now = new Date('2026-06-03T00:00:00.000Z');
    await pay(u.id, 'basic');
    expect((await getSubscription(u)).subscription).toMatchObject({
      plan_id: 'basic',
      current_period_end: '2026-07-03T00:00:00.000Z',
      trial: { outcome: 'paid' },
    });
  });

  it("an admin's grant during a trial takes it over; the job leaves it alone", async () => {
    const admin = await createUser(t, { role: 'admin' });
    const u = await createUser(t);
    await startTrial(u, 'basic');
    await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'basic',
      bypass_payment: true,
      user_id: u.id,
    });
    expect((await getSubscription(u)).subscription.trial?.outcome).toBe('granted');
    later(TRIAL_MS + 60_000);
    await runJob();
    expect((await getSubscription(u)).subscription.plan_id).toBe('basic');
  });
});

/** Secrets of a vault (an opaque blob each: the server cannot read them anyway). */
const addSecret = (u: TestUser, vaultId: string) =>
  send(t, u.cookie, 'POST', `/api/vaults/${vaultId}/secrets`, {
    id: randomUUID(),
    revision: 1,
    key_revision: 0,
    data: randomBytes(80).toString('base64'),
  });

const rename = () => ({
  enc_meta: randomBytes(140).toString('base64'),
  name_lookup: randomBytes(32).toString('hex'),
  key_revision: 0,
});

/**
 * A Pro trial in which the user made two vaults of each type, a minute apart (oldest first: Files
 * A, Logins A, Files B, Logins B), with a secret and a file in each; then the trial lapsed.
 */
async function lapsedWithFourVaults() {
  const u = await createUser(t);
  t.clock.now = new Date('2026-09-01T10:00:00.000Z');
  await startTrial(u, 'pro');
  const make = async (name: string, vault_type: 'files' | 'secrets') => {
    later(60_000);
    return createVault(t, u.cookie, { name, vault_type });
  };
  const vaults = {
    filesA: await make('Files A', 'files'),
    loginsA: await make('Logins A', 'secrets'),
    filesB: await make('Files B', 'files'),
    loginsB: await make('Logins B', 'secrets'),
  };
  const secrets: Record<string, string> = {};
  const files: Record<string, string> = {};
  for (const [key, id] of Object.entries(vaults)) {
    if (key.startsWith('logins')) {
      const res = await addSecret(u, id);
      expect(res.status).toBe(201);
      secrets[key] = ((await res.json()) as { secret: { id: string } }).secret.id;
    } else {
      const bytes = fakeCiphertext(4_000);
      const meta = uploadMetadata(id, bytes);
      expect((await tus(t, u.cookie).upload(meta, bytes)).patched.status).toBe(204);
      files[key] = meta.fileId;
    }
  }
  later(TRIAL_MS);
  await runJob();
  return { u, vaults, secrets, files };
}

describe('vaults over the Free limit after a lapsed trial', () => {
  it('lists the newer vault of each type as read-only; nothing is deleted', async () => {
    const { u, vaults } = await lapsedWithFourVaults();
    const sub = await getSubscription(u);
    expect(sub.subscription.plan_id).toBe('free');
    expect(sub.vault_count).toBe(4);
    expect(sub.read_only_vaults).toEqual([
      { id: vaults.filesB, name: 'Files B' },
      { id: vaults.loginsB, name: 'Logins B' },
    ]);
    const list = vaultsResponseSchema.parse(
      await (await send(t, u.cookie, 'GET', '/api/vaults')).json(),
    );
    expect(list.vaults.map((v) => [v.name, v.read_only])).toEqual([
      ['Files A', false],
      ['Logins A', false],
      ['Files B', true],
      ['Logins B', true],
    ]);
    const one = vaultResponseSchema.parse(
      await (await send(t, u.cookie, 'GET', `/api/vaults/${vaults.loginsB}`)).json(),
    );
    expect(one.vault.read_only).toBe(true);
  });

  it('refuses every change to a read-only vault with 403 and keeps reads working', async () => {
    const { u, vaults, secrets, files } = await lapsedWithFourVaults();
    const expectReadOnly = async (res: Response) => {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe(trialMessages.readOnlyVault);
    };
    const { filesB, loginsB } = vaults;
    await expectReadOnly(await addSecret(u, loginsB));
    await expectReadOnly(
      await send(t, u.cookie, 'PUT', `/api/vaults/${loginsB}/secrets/${secrets.loginsB}`, {
        expected_revision: 1,
        key_revision: 0,
        data: randomBytes(80).toString('base64'),
      }),
    );
    await expectReadOnly(
      await send(t, u.cookie, 'DELETE', `/api/vaults/${loginsB}/secrets/${secrets.loginsB}`),
    );
    await expectReadOnly(
      await send(t, u.cookie, 'PATCH', `/api/vaults/${filesB}`, { name: 'Renamed' }),
    );
    await expectReadOnly(
      await send(t, u.cookie, 'PATCH', `/api/vaults/${filesB}/files/${files.filesB}`, rename()),
    );
    await expectReadOnly(
      await send(t, u.cookie, 'DELETE', `/api/vaults/${filesB}/files/${files.filesB}`),
    );
    const bytes = fakeCiphertext(1_000);
    await expectReadOnly(
      await tus(t, u.cookie).create({ ...uploadMetadata(filesB, bytes) }, bytes.length),
    );

    // Reads stay: the vault, its secrets, its files and their bytes.
    expect((await send(t, u.cookie, 'GET', `/api/vaults/${filesB}`)).status).toBe(200);
    const list = await send(t, u.cookie, 'GET', `/api/vaults/${loginsB}/secrets`);
    expect(((await list.json()) as { secrets: unknown[] }).secrets).toHaveLength(1);
    const content = await send(
      t,
      u.cookie,
      'GET',
      `/api/vaults/${filesB}/files/${files.filesB}/content`,
    );
    expect(content.status).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBeGreaterThan(4_000);
  });

  it('keeps the oldest vault of each type writable', async () => {
    const { u, vaults, files } = await lapsedWithFourVaults();
    expect((await addSecret(u, vaults.loginsA)).status).toBe(201);
    expect(
      (await send(t, u.cookie, 'PATCH', `/api/vaults/${vaults.filesA}`, { name: 'Kept' })).status,
    ).toBe(200);
    expect(
      (
        await send(
          t,
          u.cookie,
          'PATCH',
          `/api/vaults/${vaults.filesA}/files/${files.filesA}`,
          rename(),
        )
      ).status,
    ).toBe(200);
  });

  it('lets the user delete a vault, which makes the next one of its type writable', async () => {
    const { u, vaults } = await lapsedWithFourVaults();
    expect((await send(t, u.cookie, 'DELETE', `/api/vaults/${vaults.loginsA}`)).status).toBe(204);
    expect((await getSubscription(u)).read_only_vaults.map((v) => v.name)).toEqual(['Files B']);
    expect((await addSecret(u, vaults.loginsB)).status).toBe(201);
  });

  it('ends once a plan is paid for, and stays ended on a later switch to Free', async () => {
    const { u, vaults } = await lapsedWithFourVaults();
    await pay(u.id, 'basic');
    const paid = await getSubscription(u);
    expect(paid.read_only_vaults).toEqual([]);
    expect(paid.subscription.trial?.outcome).toBe('paid');
    expect((await addSecret(u, vaults.loginsB)).status).toBe(201);

    later(40 * 24 * 3_600_000);
    await runJob();
    const free = await getSubscription(u);
    expect(free.subscription.plan_id).toBe('free');
    expect(free.read_only_vaults).toEqual([]);
  });

  it('applies as well when the user switches to Free before the trial ends', async () => {
    const u = await createUser(t);
    await startTrial(u, 'unlimited');
    later(60_000);
    await createVault(t, u.cookie, { name: 'One', vault_type: 'files' });
    later(60_000);
    const two = await createVault(t, u.cookie, { name: 'Two', vault_type: 'files' });
    const res = await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'free' });
    const body = await subscriptionOf(res);
    expect(body.subscription).toMatchObject({ plan_id: 'free', trial: { outcome: 'lapsed' } });
    expect(body.subscription.trial?.ends_at).toBe(t.clock.now.toISOString());
    expect(body.read_only_vaults).toEqual([{ id: two, name: 'Two' }]);
  });

  it('does not apply after a paid plan ends: every vault stays writable', async () => {
    const u = await createUser(t);
    await pay(u.id, 'pro');
    const ids = [
      await createVault(t, u.cookie, { vault_type: 'secrets' }),
      await createVault(t, u.cookie, { vault_type: 'secrets' }),
    ];
    await send(t, u.cookie, 'POST', '/api/subscription/upgrade', { plan_id: 'free' });
    later(32 * 24 * 3_600_000);
    await runJob();
    expect((await getSubscription(u)).read_only_vaults).toEqual([]);
    for (const id of ids) expect((await addSecret(u, id)).status).toBe(201);
  });
});
