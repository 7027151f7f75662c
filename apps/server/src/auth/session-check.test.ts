// [Note: session check] in session-check.ts: requireUser() reads the session itself (the cookie's
// signature, one query by the token) and still refuses an ended session at once, on this instance
// and on another one over the same database: sign-out, "sign out other devices", a password
// change, an admin's disable or revoke, account deletion. Every request here replays the cookies a
// browser held before. A forged cookie, an expired session and one due for its daily refresh go
// to Better Auth as before.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { resolveAuthSecret } from './auth.secret.ts';
import {
  findLiveSession,
  freshEnough,
  signedSessionToken,
  VERIFIED_KEPT,
  type CookieSettings,
} from './session-check.ts';

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

/** The session's expiry as stored, moved to `at` in the same form (ISO text or epoch ms). */
async function setExpiry(userId: string, at: Date) {
  const q = t.db.kysely.withTables<{ session: { expiresAt: unknown } }>();
  const row = await q
    .selectFrom('session')
    .select('expiresAt')
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  const value = typeof row.expiresAt === 'number' ? at.getTime() : at.toISOString();
  await q
    .updateTable('session')
    .set({ expiresAt: row.expiresAt instanceof Date ? at : value })
    .where('userId', '=', userId)
    .execute();
  return q;
}

describe('the session check', () => {
  it('answers from the fast path for a fresh session, on this database', async () => {
    const u = await createUser(t);
    // The settings Better Auth's context gives (auth.ts: 7 days, refreshed daily; the app's
    // secret): the cookie's signature and the stored expiry are read as the middleware reads them.
    const settings: CookieSettings = {
      name: 'sealvault.session_token',
      secret: resolveAuthSecret(t.config.auth.secret, t.config.dataDir),
      expiresInMs: 7 * 24 * 3600_000,
      updateAgeMs: 24 * 3600_000,
    };
    const token = signedSessionToken(u.cookie, settings);
    expect(token).toMatch(/^[\w-]{16,}$/);
    const row = await findLiveSession(t.db.kysely, 'token', token!);
    expect(row).toMatchObject({ userId: u.id, email: u.email, role: 'user', disabled_at: null });
    expect(freshEnough(row!, settings)).toBe(true);
    expect(signedSessionToken(u.cookie, { ...settings, secret: 'another-secret' })).toBeNull();
  });

  it('keeps only valid signatures, per secret, and a bounded number of them', () => {
    const settings: CookieSettings = {
      name: 'sealvault.session_token',
      secret: 'a-secret-for-this-test-only',
      expiresInMs: 1,
      updateAgeMs: 1,
    };
    const cookie = (token: string, secret = settings.secret) =>
      `${settings.name}=${encodeURIComponent(
        `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`,
      )}`;
    expect(signedSessionToken(cookie('tok-1'), settings)).toBe('tok-1');
    // Asked again: the same answer (kept), and still refused under another secret.
    expect(signedSessionToken(cookie('tok-1'), settings)).toBe('tok-1');
    expect(signedSessionToken(cookie('tok-1'), { ...settings, secret: 'another' })).toBeNull();
    // A forged signature is refused, however often it is sent.
    for (let i = 0; i < 2; i++) {
      expect(signedSessionToken(cookie('tok-1', 'forger'), settings)).toBeNull();
    }
    // Past the bound the oldest goes; it is checked again (still valid), not refused.
    for (let i = 0; i < VERIFIED_KEPT + 5; i++) signedSessionToken(cookie(`t${i}`), settings);
    expect(signedSessionToken(cookie('tok-1'), settings)).toBe('tok-1');
    expect(signedSessionToken(cookie('tok-1', 'forger'), settings)).toBeNull();
  });

  it('refuses a session cookie whose signature was tampered with', async () => {
    const u = await createUser(t);
    expect((await me(u.cookie)).status).toBe(200);
    const forged = u.cookie.replace(
      /(session_token=[^.;]+\.)([^;])/,
      (_, head: string, c: string) => head + (c === 'A' ? 'B' : 'A'),
    );
    expect(forged).not.toBe(u.cookie);
    expect((await me(forged)).status).toBe(401);
  });

  it('refuses an expired session', async () => {
    const u = await createUser(t);
    await setExpiry(u.id, new Date(Date.now() - 1000));
    expect((await me(u.cookie)).status).toBe(401);
  });

  it('renews a session due for its daily refresh through Better Auth, cookie and row', async () => {
    const u = await createUser(t);
    const q = await setExpiry(u.id, new Date(Date.now() + 5 * 24 * 3600_000));
    const res = await me(u.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token='))).toBe(true);
    const row = await q
      .selectFrom('session')
      .select('expiresAt')
      .where('userId', '=', u.id)
      .executeTakeFirstOrThrow();
    const expires = new Date(
      typeof row.expiresAt === 'string' && !/^\d+$/.test(row.expiresAt)
        ? row.expiresAt
        : Number(row.expiresAt),
    );
    expect(expires.getTime()).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600_000);
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
