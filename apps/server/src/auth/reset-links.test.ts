// Reset links die with the password they were meant to replace (issue 15, item 5; reset-tokens.ts):
// a completed reset or a password change invalidates every other outstanding reset link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, postJson, signIn, type TestUser } from '../testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Requests a reset mail and returns the token of its link. */
async function resetToken(u: TestUser): Promise<string> {
  const req = await postJson(t, '/api/auth/request-password-reset', {
    email: u.email,
    redirectTo: '/auth?step=reset',
  });
  expect(req.status).toBe(200);
  const mail = await t.takeMail(u.email);
  const token = /\/reset-password\/([^/?#]+)/.exec(new URL(mail.link).pathname)?.[1];
  if (!token) throw new Error(`no token in ${mail.link}`);
  return token;
}

const reset = (token: string, newPassword: string) =>
  postJson(t, '/api/auth/reset-password', { token, newPassword });

/** The landing of a mailed link: 302 to the app with the token, or with error=INVALID_TOKEN. */
async function landing(token: string): Promise<URL> {
  const res = await t.request(`/api/auth/reset-password/${token}?callbackURL=%2Fauth`, {
    redirect: 'manual',
  });
  return new URL(res.headers.get('location') ?? '', t.config.publicUrl);
}

describe('reset links', () => {
  it('stop working when another reset completes', async () => {
    const u = await createUser(t);
    const first = await resetToken(u);
    const second = await resetToken(u);
    expect((await reset(second, 'second-new-pw')).status).toBe(200);

    expect((await landing(first)).searchParams.get('error')).toBe('INVALID_TOKEN');
    const late = await reset(first, 'attacker-pw-1');
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await signIn(t, u.email, 'attacker-pw-1')).status).toBe(401);
    expect((await signIn(t, u.email, 'second-new-pw')).status).toBe(200);
  });

  it('stop working when the password is changed', async () => {
    const u = await createUser(t);
    const token = await resetToken(u);
    const change = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: u.password, newPassword: 'changed-pw-1', revokeOtherSessions: true },
      { cookie: u.cookie },
    );
    expect(change.status).toBe(200);

    const late = await reset(token, 'attacker-pw-2');
    expect(late.status).toBe(400);
    expect((await signIn(t, u.email, 'attacker-pw-2')).status).toBe(401);
    expect((await signIn(t, u.email, 'changed-pw-1')).status).toBe(200);
  });

  it('leave other users’ reset links alone', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const theirs = await resetToken(other);
    const mine = await resetToken(u);
    expect((await reset(mine, 'my-new-pw-1')).status).toBe(200);
    expect((await reset(theirs, 'their-new-pw')).status).toBe(200);
  });
});
