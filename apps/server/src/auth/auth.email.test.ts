// E-mail and password flows end to end through the HTTP API, with the mail read from the harness's
// mailer: sign-up and its validation, verification by the mailed link (which starts no session),
// sign-in before verifying, resending, password reset by link, password change and signing out
// every session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn } from '../testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });
const uniqueEmail = () => `flow-${crypto.randomUUID()}@example.test`;
/** The path and query of a mailed link, for an in-process request. */
const localPath = (link: string) => {
  const u = new URL(link);
  expect(u.origin).toBe(t.config.publicUrl);
  return `${u.pathname}${u.search}`;
};

async function signUp(email: string, password = 'secret-pw', name = 'New User') {
  return postJson(t, '/api/auth/sign-up/email', { email, password, name });
}

describe('sign-up', () => {
  it('refuses a password under 6 characters, a bad e-mail and a missing name with a 400', async () => {
    const short = await signUp(uniqueEmail(), '12345');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
    expect((await signUp('not-an-email')).status).toBe(400);
    const noName = await postJson(t, '/api/auth/sign-up/email', {
      email: uniqueEmail(),
      password: 'secret-pw',
    });
    expect(noName.status).toBe(400);
    for (const [name, code] of [
      ['   ', 'NAME_REQUIRED'],
      ['x'.repeat(101), 'NAME_TOO_LONG'],
    ]) {
      const res = await signUp(uniqueEmail(), 'secret-pw', name);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code });
    }
  });

  it('stores the full name trimmed, and refuses to blank it through update-user', async () => {
    const email = uniqueEmail();
    await signUp(email, 'secret-pw', '  Ada Lovelace  ');
    const row = await t.db.kysely
      .selectFrom('profiles')
      .select('full_name')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.full_name).toBe('Ada Lovelace');
    const u = await createUser(t);
    const res = await postJson(t, '/api/auth/update-user', { name: ' ' }, { cookie: u.cookie });
    expect(res.status).toBe(400);
  });

  it('accepts exactly 6 characters, creates a profile and mails a verification link', async () => {
    const email = uniqueEmail();
    const res = await signUp(email, '123456', 'Grace Hopper');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: unknown; user: { id: string } };
    expect(body.token).toBeNull(); // no session before verification
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token='))).toBe(false);
    const profile = await t.db.kysely
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({
      email,
      full_name: 'Grace Hopper',
      role: 'user',
      current_plan_id: 'free',
    });
    const mail = await t.takeMail(email);
    expect(mail.subject).toMatch(/verify/i);
    expect(mail.text).toContain(mail.link);
    expect(mail.link).toContain('/api/auth/verify-email?token=');
  });

  it('ignores a role sent with the sign-up: the role is not user-settable', async () => {
    const email = uniqueEmail();
    const res = await postJson(t, '/api/auth/sign-up/email', {
      email,
      password: 'secret-pw',
      name: 'Mallory',
      role: 'admin',
    });
    expect(res.status).toBeLessThan(500);
    const profile = await t.db.kysely
      .selectFrom('profiles')
      .select('role')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(profile?.role ?? 'user').toBe('user');
  });
});

describe('verification', () => {
  it('refuses sign-in before verification with EMAIL_NOT_VERIFIED (403); the link verifies, then the password signs in', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const early = await signIn(t, email, 'secret-pw');
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });

    const mail = await t.takeMail(email);
    const res = await t.request(localPath(mail.link), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth?verified=1');
    const row = await t.db.kysely
      .selectFrom('user')
      .select('emailVerified')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.emailVerified)).toBe(true);

    const signedIn = await signIn(t, email, 'secret-pw');
    expect(signedIn.status).toBe(200);
    expect(meResponseSchema.parse(await (await me(cookieFrom(signedIn))).json()).email).toBe(email);
  });

  // Login CSRF (issue 15, item 6): whoever opens a verification link (a victim lured to an
  // attacker's link included) must not end up signed in to that account. The link only verifies.
  it('starts no session: the link sets no session cookie, and its cookies get no user', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const mail = await t.takeMail(email);
    const res = await t.request(localPath(mail.link), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth?verified=1');
    expect(res.headers.getSetCookie().some((c) => /session_(token|data)=[^;]/.test(c))).toBe(false);
    const cookie = cookieFrom(res);
    const session = await t.request('/api/auth/get-session', cookie ? { headers: { cookie } } : {});
    expect(session.status).toBe(200);
    const body = (await session.json()) as { user?: unknown } | null;
    expect(body?.user ?? null).toBeNull();
    expect((await me(cookie)).status).toBe(401);
    const user = await t.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const sessions = await t.db.kysely
      .selectFrom('session')
      .select('id')
      .where('userId', '=', user.id)
      .execute();
    expect(sessions).toHaveLength(0);

    // The address is verified all the same: the password signs in.
    const signedIn = await signIn(t, email, 'secret-pw');
    expect(signedIn.status).toBe(200);
    expect(cookieFrom(signedIn)).toContain('session_token=');
  });

  it('leaves a signed-in browser of another account as it was', async () => {
    const other = await createUser(t);
    const email = uniqueEmail();
    await signUp(email);
    const mail = await t.takeMail(email);
    const res = await t.request(localPath(mail.link), {
      redirect: 'manual',
      headers: { cookie: other.cookie },
    });
    expect(res.status).toBe(302);
    const cookie = cookieFrom(res, other.cookie);
    expect(cookie).toBe(other.cookie);
    expect(meResponseSchema.parse(await (await me(cookie)).json()).email).toBe(other.email);
  });

  it('resends the verification mail; the new link verifies', async () => {
    const email = uniqueEmail();
    await signUp(email);
    await t.takeMail(email);
    const res = await postJson(t, '/api/auth/send-verification-email', {
      email,
      callbackURL: '/auth?verified=1',
    });
    expect(res.status).toBe(200);
    const again = await t.takeMail(email);
    const verify = await t.request(localPath(again.link), { redirect: 'manual' });
    expect(verify.status).toBe(302);
    expect((await signIn(t, email, 'secret-pw')).status).toBe(200);
  });

  it('redirects a bad token back to the app with an error, and signs nobody in', async () => {
    const res = await t.request(
      '/api/auth/verify-email?token=nonsense&callbackURL=%2Fauth%3Fverified%3D1',
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth?verified=1&error=INVALID_TOKEN');
    expect(cookieFrom(res)).not.toContain('session_token=');
  });
});

describe('password reset by link', () => {
  it('mails a link that lands on the app with a token; the token sets a new password', async () => {
    const u = await createUser(t);
    const req = await postJson(t, '/api/auth/request-password-reset', {
      email: u.email,
      redirectTo: '/auth?reset=1',
    });
    expect(req.status).toBe(200);
    const mail = await t.takeMail(u.email);
    expect(mail.subject).toMatch(/reset/i);
    const landing = await t.request(localPath(mail.link), { redirect: 'manual' });
    expect(landing.status).toBe(302);
    const location = new URL(landing.headers.get('location') ?? '', t.config.publicUrl);
    expect(location.pathname).toBe('/auth');
    expect(location.searchParams.get('reset')).toBe('1');
    const token = location.searchParams.get('token') ?? '';
    expect(token).not.toBe('');

    const tooShort = await postJson(t, '/api/auth/reset-password', { newPassword: '123', token });
    expect(tooShort.status).toBe(400);
    const reset = await postJson(t, '/api/auth/reset-password', {
      newPassword: 'brand-new-pw',
      token,
    });
    expect(reset.status).toBe(200);
    expect((await signIn(t, u.email, u.password)).status).toBe(401);
    expect((await signIn(t, u.email, 'brand-new-pw')).status).toBe(200);
    // The old session ended with the reset, and the token works once only.
    expect((await me(u.cookie)).status).toBe(401);
    const replay = await postJson(t, '/api/auth/reset-password', {
      newPassword: 'x-123456',
      token,
    });
    expect(replay.status).toBe(400);
  });
});

describe('account settings', () => {
  it('changes the password with the current one, and not without it', async () => {
    const u = await createUser(t);
    const wrong = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: 'not-it-at-all', newPassword: 'changed-pw' },
      { cookie: u.cookie },
    );
    expect(wrong.status).toBe(400);
    const ok = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: u.password, newPassword: 'changed-pw', revokeOtherSessions: true },
      { cookie: u.cookie },
    );
    expect(ok.status).toBe(200);
    expect((await signIn(t, u.email, 'changed-pw')).status).toBe(200);
    expect((await signIn(t, u.email, u.password)).status).toBe(401);
  });

  it('changes the name through PATCH /api/me, validated to 1–100 characters', async () => {
    const u = await createUser(t);
    const patch = (body: unknown) =>
      t.request('/api/me', {
        method: 'PATCH',
        headers: { cookie: u.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await patch({ full_name: '   ' })).status).toBe(400);
    expect((await patch({ full_name: 'x'.repeat(101) })).status).toBe(400);
    expect((await patch({})).status).toBe(400);
    const res = await patch({ full_name: '  Katherine Johnson ' });
    expect(res.status).toBe(200);
    expect(meResponseSchema.parse(await res.json()).full_name).toBe('Katherine Johnson');
    const session = (await (
      await t.request('/api/auth/get-session', { headers: { cookie: u.cookie } })
    ).json()) as { user: { name: string } };
    expect(session.user.name).toBe('Katherine Johnson');
  });

  it('signs out every session at once', async () => {
    const u = await createUser(t);
    const second = cookieFrom(await signIn(t, u.email, u.password));
    const list = await t.request('/api/auth/list-sessions', { headers: { cookie: u.cookie } });
    expect(((await list.json()) as unknown[]).length).toBe(2);
    const res = await postJson(t, '/api/auth/revoke-sessions', {}, { cookie: second });
    expect(res.status).toBe(200);
    expect((await me(u.cookie)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
  });
});
