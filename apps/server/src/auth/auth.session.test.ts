// Sessions and the requireUser() contract: sign-in issues a new session, sign-out ends it on the
// server, cookies are httpOnly and SameSite=Lax, and the profile carries the role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, meResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn } from '../testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });

describe('requireUser and GET /api/me', () => {
  it('answers 401 User not authenticated without a session', async () => {
    const res = await t.request('/api/me');
    expect(res.status).toBe(401);
    expect(errorBodySchema.parse(await res.json()).error).toEqual({
      code: 'unauthorized',
      message: 'User not authenticated',
    });
  });

  it('returns the profile with its plan for a signed-in user', async () => {
    const u = await createUser(t, { name: 'Ada Lovelace' });
    const res = await me(u.cookie);
    expect(res.status).toBe(200);
    const body = meResponseSchema.parse(await res.json());
    expect(body).toMatchObject({
      id: u.id,
      email: u.email,
      full_name: 'Ada Lovelace',
      role: 'user',
      current_plan_id: 'free',
      plan: { id: 'free', name: 'Free' },
    });
  });

  it('ensures the profile again at the next sign-in when it is missing', async () => {
    const u = await createUser(t, { name: 'Re Created' });
    await t.db.kysely.deleteFrom('profiles').where('id', '=', u.id).execute();
    await signIn(t, u.email, u.password);
    const row = await t.db.kysely
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: u.email, full_name: 'Re Created', role: 'user' });
  });

  it('reads the role from the profile', async () => {
    const u = await createUser(t, { role: 'admin' });
    const body = meResponseSchema.parse(await (await me(u.cookie)).json());
    expect(body.role).toBe('admin');
  });
});

describe('session cookies', () => {
  it('are httpOnly and SameSite=Lax, not Secure on http', async () => {
    const u = await createUser(t);
    const res = await signIn(t, u.email, u.password);
    const session = res.headers.getSetCookie().find((c) => c.includes('session_token'));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
  });

  it('are Secure when PUBLIC_URL is https', async () => {
    const s = await createTestApp({ PUBLIC_URL: 'https://vault.example' });
    try {
      const u = await createUser(s);
      expect(u.cookie).toContain('__Secure-');
      const res = await signIn(s, u.email, u.password);
      const session = res.headers.getSetCookie().find((c) => c.includes('session_token'));
      expect(session).toMatch(/; Secure/i);
    } finally {
      await s.close();
    }
  });
});

describe('sign-in and sign-out', () => {
  it('issues a new session token at each sign-in', async () => {
    const u = await createUser(t);
    const again = cookieFrom(await signIn(t, u.email, u.password));
    expect(again).not.toBe(u.cookie);
    expect((await me(u.cookie)).status).toBe(200);
    expect((await me(again)).status).toBe(200);
  });

  it('ends the session on the server: a cookie replayed after sign-out is refused', async () => {
    const u = await createUser(t);
    expect((await me(u.cookie)).status).toBe(200);
    const out = await postJson(t, '/api/auth/sign-out', {}, { cookie: u.cookie });
    expect(out.status).toBe(200);
    expect((await me(u.cookie)).status).toBe(401);
    const rows = await t.db.kysely
      .selectFrom('session')
      .select('id')
      .where('userId', '=', u.id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});
