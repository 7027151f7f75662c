// DELETE /api/me: the password confirms, the registered cleanup hooks run, and the user, its
// sessions, accounts and profile are gone. A Google-only account confirms with a fresh session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, signIn } from '../testing/users.ts';
import type { UserDeletedHook } from './user-deletion.ts';

/** Adds `hook` to the app's account-deletion hooks; the returned function removes it. */
function withHook(hook: UserDeletedHook): () => void {
  t.userDeletion.push(hook);
  return () => t.userDeletion.splice(t.userDeletion.indexOf(hook), 1);
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });
const deleteMe = (cookie: string, body: unknown) =>
  t.request('/api/me', {
    method: 'DELETE',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function rowsOf(userId: string) {
  const k = t.db.kysely;
  const [users, sessions, accounts, profiles] = await Promise.all([
    k.selectFrom('user').select('id').where('id', '=', userId).execute(),
    k.selectFrom('session').select('id').where('userId', '=', userId).execute(),
    k.selectFrom('account').select('id').where('userId', '=', userId).execute(),
    k.selectFrom('profiles').select('id').where('id', '=', userId).execute(),
  ]);
  return users.length + sessions.length + accounts.length + profiles.length;
}

describe('DELETE /api/me', () => {
  it('needs the right password, and deletes nothing without it', async () => {
    const u = await createUser(t);
    const missing = await deleteMe(u.cookie, {});
    expect(missing.status).toBe(400);
    const wrong = await deleteMe(u.cookie, { password: 'wrong-password' });
    expect(wrong.status).toBe(400);
    expect(errorBodySchema.parse(await wrong.json()).error.message).toBe('Invalid password');
    expect((await me(u.cookie)).status).toBe(200);
    expect(await rowsOf(u.id)).toBeGreaterThan(0);
  });

  it('runs the cleanup hooks, then removes the user, its sessions, accounts and profile', async () => {
    const u = await createUser(t);
    const seen: string[] = [];
    const off = withHook(async ({ userId, db }) => {
      const profile = await db.kysely
        .selectFrom('profiles')
        .select('id')
        .where('id', '=', userId)
        .executeTakeFirst();
      seen.push(`${userId}:${profile ? 'profile still there' : 'no profile'}`);
    });
    try {
      const res = await deleteMe(u.cookie, { password: u.password });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ deleted: true });
      expect(res.headers.getSetCookie().some((c) => /session_token=;|Max-Age=0/i.test(c))).toBe(
        true,
      );
    } finally {
      off();
    }
    expect(seen).toEqual([`${u.id}:profile still there`]);
    expect(await rowsOf(u.id)).toBe(0);
    expect((await me(u.cookie)).status).toBe(401);
    expect((await signIn(t, u.email, u.password)).status).toBe(401);
  });

  it('keeps the account whole when a cleanup hook fails', async () => {
    const u = await createUser(t);
    const off = withHook(() => Promise.reject(new Error('blob store down')));
    try {
      const res = await deleteMe(u.cookie, { password: u.password });
      expect(res.status).toBe(500);
    } finally {
      off();
    }
    expect((await me(u.cookie)).status).toBe(200);
    expect((await signIn(t, u.email, u.password)).status).toBe(200);
  });

  it('lets a Google-only account confirm with a fresh session, not a stale one', async () => {
    const stale = await createUser(t);
    const fresh = await createUser(t);
    // No password: what an account created by Google sign-in looks like.
    await t.db.kysely
      .deleteFrom('account')
      .where('userId', 'in', [stale.id, fresh.id])
      .where('providerId', '=', 'credential')
      .execute();
    t.clock.now = new Date(Date.now() + 11 * 60 * 1000);
    try {
      const res = await deleteMe(stale.cookie, {});
      expect(res.status).toBe(403);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('forbidden');
    } finally {
      t.clock.now = new Date();
    }
    expect((await deleteMe(fresh.cookie, {})).status).toBe(200);
    expect(await rowsOf(fresh.id)).toBe(0);
  });
});
