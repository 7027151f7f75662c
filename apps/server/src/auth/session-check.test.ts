// [Note: session cookie cache] in auth.middleware.ts: with Better Auth's signed session copy in a
// cookie, an ended session is still refused at once, on this instance and on another one over the
// same database: sign-out, "sign out other devices", a password change, an admin's disable or
// revoke, account deletion. Every request here replays the cookies a browser held before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });
/** A second device of the same user: its own session, with its own cache cookie. */
const secondDevice = async (u: TestUser) => cookieFrom(await signIn(t, u.email, u.password));
const sessionCount = async (userId: string) =>
  (await t.db.kysely.selectFrom('session').select('id').where('userId', '=', userId).execute())
    .length;

describe('the session cookie cache', () => {
  it('is set at sign-in, and the gate still answers from it', async () => {
    const u = await createUser(t);
    expect(u.cookie).toMatch(/sealvault\.session_data=/);
    expect((await me(u.cookie)).status).toBe(200);
  });

  it('does not outlive sign-out: the replayed cookies are refused at once', async () => {
    const u = await createUser(t);
    const out = await postJson(t, '/api/auth/sign-out', {}, { cookie: u.cookie });
    expect(out.status).toBe(200);
    expect(await sessionCount(u.id)).toBe(0);
    expect((await me(u.cookie)).status).toBe(401);
  });

  it('does not outlive "sign out other devices": the other device is refused at once', async () => {
    const u = await createUser(t);
    const other = await secondDevice(u);
    expect((await me(other)).status).toBe(200);
    const res = await postJson(t, '/api/auth/revoke-other-sessions', {}, { cookie: u.cookie });
    expect(res.status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await me(u.cookie)).status).toBe(200);
    // Better Auth's own routes ignore the cached copy too.
    const list = await t.request('/api/auth/list-sessions', { headers: { cookie: other } });
    expect(list.status).toBe(401);
  });

  it('does not outlive a password change that signs the other devices out', async () => {
    const u = await createUser(t);
    const other = await secondDevice(u);
    const res = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: u.password, newPassword: 'changed password 7', revokeOtherSessions: true },
      { cookie: u.cookie },
    );
    expect(res.status).toBe(200);
    expect((await me(other)).status).toBe(401);
  });

  it("does not outlive an admin's disable or revoke", async () => {
    const disabled = await createUser(t);
    const off = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${disabled.id}`, {
      disabled: true,
    });
    expect(off.status).toBe(200);
    expect((await me(disabled.cookie)).status).toBe(401);

    const revoked = await createUser(t);
    const end = await send(t, admin.cookie, 'DELETE', `/api/admin/users/${revoked.id}/sessions`);
    expect(end.status).toBe(200);
    expect((await me(revoked.cookie)).status).toBe(401);
  });

  it('does not outlive the deletion of the account', async () => {
    const u = await createUser(t);
    const other = await secondDevice(u);
    const res = await t.request('/api/me', {
      method: 'DELETE',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ password: u.password }),
    });
    expect(res.status).toBeLessThan(300);
    expect((await me(other)).status).toBe(401);
  });

  it('honours a session ended by another instance over the same database', async () => {
    const u = await createUser(t);
    const other = await secondDevice(u);
    const elsewhere = t.otherInstance();
    expect((await me(other)).status).toBe(200);
    const res = await elsewhere('/api/auth/revoke-other-sessions', {
      method: 'POST',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await elsewhere('/api/me', { headers: { cookie: other } })).status).toBe(401);
  });
});
