// The admin console's API (issue 33): users, plan, role, disable, delete, second factor, sessions,
// storage, instance and audit log. Admin role only (a non-admin gets 403 and nothing changes);
// each action writes its audit row; an admin cannot demote, disable or delete themself; a disabled
// user is signed out at once and cannot sign in again.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuditResponseSchema,
  adminInstanceResponseSchema,
  adminSessionsResponseSchema,
  adminStorageResponseSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  errorBodySchema,
  revokedSessionsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, postJson, signIn, type TestUser } from '../testing/users.ts';
import { createVault, send } from '../testing/vaults.ts';

let t: TestApp;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin', name: 'Ada Admin' });
  user = await createUser(t, { name: 'Uma User' });
});
afterAll(() => t.close());

const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const snapshot = async () =>
  JSON.stringify(
    await Promise.all([
      t.db.kysely.selectFrom('profiles').selectAll().orderBy('id').execute(),
      t.db.kysely.selectFrom('session').select(['id', 'userId']).orderBy('id').execute(),
      t.db.kysely.selectFrom('user').select(['id', 'email']).orderBy('id').execute(),
      t.db.kysely.selectFrom('admin_audit_log').selectAll().orderBy('id').execute(),
      t.db.kysely.selectFrom('vaults').select(['id']).orderBy('id').execute(),
    ]),
  );
const auditOf = async (target: string) =>
  (
    await t.db.kysely
      .selectFrom('admin_audit_log')
      .selectAll()
      .where('target', '=', target)
      .orderBy('created_at')
      .execute()
  ).map((r) => ({
    actor: r.actor_id,
    action: r.action,
    details: JSON.parse(r.details) as Record<string, unknown>,
  }));
const me = (u: TestUser) => send(t, u.cookie, 'GET', '/api/me');

describe('access', () => {
  it('answers 401 without a session', async () => {
    for (const p of ['/api/admin/users', '/api/admin/storage', '/api/admin/audit']) {
      expect((await t.request(p)).status).toBe(401);
    }
  });

  it('refuses every route to a non-admin with 403, and nothing changes', async () => {
    const other = await createUser(t);
    const sessionId = (
      await t.db.kysely
        .selectFrom('session')
        .select('id')
        .where('userId', '=', other.id)
        .executeTakeFirstOrThrow()
    ).id;
    const before = await snapshot();
    const u = `/api/admin/users/${other.id}`;
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/users?q=a'],
      ['GET', u],
      ['PATCH', u, { plan_id: 'pro' }],
      ['PATCH', u, { role: 'admin' }],
      ['PATCH', `/api/admin/users/${user.id}`, { role: 'admin' }],
      ['PATCH', u, { disabled: true }],
      ['DELETE', u],
      ['DELETE', `${u}/two-factor`],
      ['GET', `${u}/sessions`],
      ['DELETE', `${u}/sessions`],
      ['DELETE', `${u}/sessions/${sessionId}`],
      ['GET', '/api/admin/storage'],
      ['GET', '/api/admin/instance'],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, path, body] of attempts) {
      const res = await send(t, user.cookie, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: 'forbidden',
        message: 'Admin privileges required',
      });
    }
    expect(await snapshot()).toBe(before);
    expect((await me(other)).status).toBe(200);
  });
});

describe('GET /api/admin/users', () => {
  it('lists accounts with plan, role, flags, storage and vault count, searchable and paged', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const a = await createUser(t, { email: `zed-${tag}@example.test`, name: 'Zed One' });
    const b = await createUser(t, { email: `other-${tag}@example.test`, name: `Zoe ${tag}` });
    await createVault(t, a.cookie);
    const res = await send(t, admin.cookie, 'GET', `/api/admin/users?q=${tag.toUpperCase()}`);
    expect(res.status).toBe(200);
    const page = adminUsersResponseSchema.parse(await res.json());
    expect(page.total).toBe(2);
    expect(page.users.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(page.users[0]).toMatchObject({
      email: a.email,
      name: 'Zed One',
      role: 'user',
      plan_id: 'free',
      plan_name: 'Free',
      disabled_at: null,
      email_verified: true,
      two_factor_enabled: false,
      vault_count: 1,
      storage_used_bytes: 0,
    });
    expect(page.users[0]?.last_sign_in_at).not.toBeNull();

    const byName = adminUsersResponseSchema.parse(
      await (await send(t, admin.cookie, 'GET', `/api/admin/users?q=zoe%20${tag}`)).json(),
    );
    expect(byName.users.map((x) => x.id)).toEqual([b.id]);

    const first = adminUsersResponseSchema.parse(
      await (await send(t, admin.cookie, 'GET', '/api/admin/users?per_page=1&page=2')).json(),
    );
    expect(first).toMatchObject({ page: 2, per_page: 1 });
    expect(first.users).toHaveLength(1);
    expect(first.total).toBeGreaterThanOrEqual(4);

    // LIKE's wildcards are searched for as themselves.
    const wild = adminUsersResponseSchema.parse(
      await (await send(t, admin.cookie, 'GET', '/api/admin/users?q=%25')).json(),
    );
    expect(wild.total).toBe(0);
  });

  it.each(['per_page=0', 'per_page=101', 'page=0', 'page=x', 'sort=email'])(
    'refuses the query %s with 400',
    async (query) => {
      const res = await send(t, admin.cookie, 'GET', `/api/admin/users?${query}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('bad_request');
    },
  );

  it('answers 404 for an unknown or malformed user id', async () => {
    for (const id of ['nobody0000000000000000000000000', '%27%3B']) {
      const res = await send(t, admin.cookie, 'GET', `/api/admin/users/${id}`);
      expect(res.status).toBe(404);
    }
  });
});

describe('PATCH /api/admin/users/:id', () => {
  it('changes the plan without payment and logs it', async () => {
    const u = await createUser(t);
    const res = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${u.id}`, {
      plan_id: 'pro',
    });
    expect(res.status).toBe(200);
    expect(adminUserResponseSchema.parse(await res.json()).user).toMatchObject({
      plan_id: 'pro',
      plan_name: 'Pro',
    });
    const limits = (await (await send(t, u.cookie, 'GET', '/api/me')).json()) as {
      current_plan_id: string;
    };
    expect(limits.current_plan_id).toBe('pro');
    expect(await auditOf(u.id)).toEqual([
      {
        actor: admin.id,
        action: 'user.plan',
        details: { email: u.email, from: 'free', to: 'pro' },
      },
    ]);
  });

  it('logs a plan change made through /api/subscription/admin-upgrade too', async () => {
    const u = await createUser(t);
    const res = await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      user_id: u.id,
      plan_id: 'basic',
      bypass_payment: true,
    });
    expect(res.status).toBe(200);
    expect(await auditOf(u.id)).toEqual([
      {
        actor: admin.id,
        action: 'user.plan',
        details: { from: 'free', to: 'basic', via: 'admin-upgrade' },
      },
    ]);
  });

  it('promotes and demotes another account, each logged', async () => {
    const u = await createUser(t);
    await send(t, admin.cookie, 'PATCH', `/api/admin/users/${u.id}`, { role: 'admin' });
    expect((await send(t, u.cookie, 'GET', '/api/admin/users')).status).toBe(200);
    await send(t, admin.cookie, 'PATCH', `/api/admin/users/${u.id}`, { role: 'user' });
    expect((await send(t, u.cookie, 'GET', '/api/admin/users')).status).toBe(403);
    expect((await auditOf(u.id)).map((r) => [r.action, r.details.to])).toEqual([
      ['user.role', 'admin'],
      ['user.role', 'user'],
    ]);
  });

  it('refuses an admin demoting or disabling themself with 409, changing nothing', async () => {
    const before = await snapshot();
    for (const body of [{ role: 'user' }, { disabled: true }, { plan_id: 'pro', role: 'user' }]) {
      const res = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${admin.id}`, body);
      expect(res.status).toBe(409);
      expect(await errorOf(res)).toEqual({
        code: 'conflict',
        message: 'You cannot demote, disable or delete your own account.',
      });
    }
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ['an empty body', {}],
    ['an unknown plan', { plan_id: 'gold' }],
    ['an unknown role', { role: 'owner' }],
    ['a non-boolean flag', { disabled: 'yes' }],
    ['an unknown field', { email: 'x@example.test' }],
  ])('refuses %s with 400 and changes nothing', async (_what, body) => {
    const before = await snapshot();
    const res = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${user.id}`, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('bad_request');
    expect(await snapshot()).toBe(before);
  });

  it('disables a user: signed out at once, sign-in refused, then enabled again', async () => {
    const u = await createUser(t);
    const second = await signIn(t, u.email, u.password);
    expect(second.status).toBe(200);
    expect((await me(u)).status).toBe(200);

    const res = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${u.id}`, {
      disabled: true,
    });
    expect(res.status).toBe(200);
    expect(adminUserResponseSchema.parse(await res.json()).user.disabled_at).not.toBeNull();
    // Its very next request, from either session, is signed out.
    expect((await me(u)).status).toBe(401);
    const session = await send(t, u.cookie, 'GET', '/api/auth/get-session');
    expect(await session.json()).toBeNull();
    expect(
      await t.db.kysely.selectFrom('session').select('id').where('userId', '=', u.id).execute(),
    ).toEqual([]);

    const again = await signIn(t, u.email, u.password);
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({
      code: 'ACCOUNT_DISABLED',
      message: 'This account is disabled. Ask the administrator of this server.',
    });
    expect(
      await t.db.kysely.selectFrom('session').select('id').where('userId', '=', u.id).execute(),
    ).toEqual([]);

    await send(t, admin.cookie, 'PATCH', `/api/admin/users/${u.id}`, { disabled: false });
    expect((await signIn(t, u.email, u.password)).status).toBe(200);
    expect((await auditOf(u.id)).map((r) => [r.action, r.details])).toEqual([
      ['user.disable', { email: u.email, sessions_ended: 2 }],
      ['user.enable', { email: u.email }],
    ]);
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it('deletes the account with its vaults through the account-deletion path, and logs it', async () => {
    const u = await createUser(t);
    const vault = await createVault(t, u.cookie);
    const res = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${u.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect((await me(u)).status).toBe(401);
    for (const table of ['user', 'profiles'] as const)
      expect(
        await t.db.kysely.selectFrom(table).select('id').where('id', '=', u.id).execute(),
      ).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('vaults').select('id').where('id', '=', vault).execute(),
    ).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('account').select('id').where('userId', '=', u.id).execute(),
    ).toEqual([]);
    expect(await auditOf(u.id)).toEqual([
      {
        actor: admin.id,
        action: 'user.delete',
        details: { email: u.email, vaults: 1, bytes: 0 },
      },
    ]);
    expect((await signIn(t, u.email, u.password)).status).toBe(401);
    const again = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${u.id}`);
    expect(again.status).toBe(404);
  });

  it('refuses an admin deleting themself with 409', async () => {
    const res = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${admin.id}`);
    expect(res.status).toBe(409);
    expect((await me(admin)).status).toBe(200);
  });
});

describe('second factor and sessions', () => {
  it('resets a second factor: the next sign-in needs the password only; logged', async () => {
    const u = await createUser(t);
    const enable = await postJson(
      t,
      '/api/auth/two-factor/enable',
      { password: u.password },
      { cookie: u.cookie },
    );
    expect(enable.status).toBe(200);
    await t.db.kysely
      .updateTable('user')
      .set({ twoFactorEnabled: t.db.kind === 'sqlite' ? 1 : true } as never)
      .where('id', '=', u.id)
      .execute();
    const challenged = await signIn(t, u.email, u.password);
    expect(await challenged.json()).toMatchObject({ twoFactorRedirect: true });

    const res = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${u.id}/two-factor`);
    expect(res.status).toBe(200);
    expect(adminUserResponseSchema.parse(await res.json()).user.two_factor_enabled).toBe(false);
    const plain = await signIn(t, u.email, u.password);
    expect(plain.status).toBe(200);
    expect(await plain.json()).not.toMatchObject({ twoFactorRedirect: true });
    expect((await auditOf(u.id)).map((r) => r.action)).toEqual(['user.two_factor.reset']);
    // None left to reset.
    const again = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${u.id}/two-factor`);
    expect(again.status).toBe(409);
  });

  it('lists a user’s sessions without tokens, revokes one, then all; logged', async () => {
    const u = await createUser(t);
    await signIn(t, u.email, u.password);
    const res = await send(t, admin.cookie, 'GET', `/api/admin/users/${u.id}/sessions`);
    const raw = await res.text();
    const { sessions } = adminSessionsResponseSchema.parse(JSON.parse(raw));
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.current)).toEqual([false, false]);
    // The admin's own list marks the session the admin is asking with.
    const own = await send(t, admin.cookie, 'GET', `/api/admin/users/${admin.id}/sessions`);
    const mine = adminSessionsResponseSchema.parse(await own.json()).sessions;
    expect(mine.filter((s) => s.current)).toHaveLength(1);
    const tokens = await t.db.kysely
      .selectFrom('session')
      .select('token')
      .where('userId', '=', u.id)
      .execute();
    for (const { token } of tokens) expect(raw).not.toContain(token);

    const one = await send(
      t,
      admin.cookie,
      'DELETE',
      `/api/admin/users/${u.id}/sessions/${sessions[1]?.id ?? ''}`,
    );
    expect(revokedSessionsResponseSchema.parse(await one.json())).toEqual({ revoked: 1 });
    const unknown = await send(
      t,
      admin.cookie,
      'DELETE',
      `/api/admin/users/${u.id}/sessions/${sessions[1]?.id ?? ''}`,
    );
    expect(unknown.status).toBe(404);
    const all = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${u.id}/sessions`);
    expect(revokedSessionsResponseSchema.parse(await all.json())).toEqual({ revoked: 1 });
    expect((await me(u)).status).toBe(401);
    expect((await auditOf(u.id)).map((r) => [r.action, r.details.revoked])).toEqual([
      ['user.session.revoke', 1],
      ['user.sessions.revoke', 1],
    ]);
  });
});

describe('storage, instance and audit log', () => {
  it('sums the storage used per account and in total', async () => {
    const u = await createUser(t);
    const vault = await createVault(t, u.cookie);
    // A record of 5000 bytes on this server (storage_ref null), as an upload's finish writes it.
    const at = new Date().toISOString();
    await t.db.kysely
      .insertInto('vault_files')
      .values({
        id: crypto.randomUUID(),
        vault_id: vault,
        user_id: u.id,
        enc_meta: crypto.randomBytes(140).toString('base64'),
        name_lookup: crypto.randomBytes(32).toString('hex'),
        wrapped_key: crypto.randomBytes(60).toString('base64'),
        ciphertext_size: 5000,
        checksum: crypto.randomBytes(32).toString('hex'),
        checksum_algorithm: 'content-hash-4m',
        blob_key: `blob-${crypto.randomUUID()}`,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const res = await send(t, admin.cookie, 'GET', '/api/admin/storage');
    expect(res.status).toBe(200);
    const body = adminStorageResponseSchema.parse(await res.json());
    const sum = body.users.reduce((a, x) => a + x.storage_used_bytes, 0);
    expect(body.total_bytes).toBe(sum);
    expect(body.user_count).toBeGreaterThanOrEqual(2);
    expect(body.users.find((x) => x.id === u.id)).toMatchObject({
      storage_used_bytes: 5000,
      vault_count: 1,
    });
    expect(body.total_bytes).toBeGreaterThanOrEqual(5000);
    const listed = adminUserResponseSchema.parse(
      await (await send(t, admin.cookie, 'GET', `/api/admin/users/${u.id}`)).json(),
    );
    expect(listed.user.storage_used_bytes).toBe(5000);
  });

  it('shows the sign-up policy, plans mode, version and health', async () => {
    const res = await send(t, admin.cookie, 'GET', '/api/admin/instance');
    expect(adminInstanceResponseSchema.parse(await res.json())).toMatchObject({
      signup_mode: 'open',
      plans_mode: 'saas',
      default_plan: 'free',
      health: { status: 'ok', database: t.db.kind },
    });
  });

  it('pages the log newest first, with the actor’s e-mail and no secrets', async () => {
    const res = await send(t, admin.cookie, 'GET', '/api/admin/audit?per_page=2');
    const page = adminAuditResponseSchema.parse(await res.json());
    expect(page.entries).toHaveLength(2);
    expect(page.total).toBeGreaterThan(5);
    const [a, b] = page.entries;
    expect((a?.created_at ?? '') >= (b?.created_at ?? '')).toBe(true);
    expect(a?.actor_email).toBe(admin.email);
    const second = adminAuditResponseSchema.parse(
      await (await send(t, admin.cookie, 'GET', '/api/admin/audit?per_page=2&page=2')).json(),
    );
    expect(second.entries.map((e) => e.id)).not.toContain(a?.id);
    expect((await send(t, admin.cookie, 'GET', '/api/admin/audit?page=-1')).status).toBe(400);
  });
});
