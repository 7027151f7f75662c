// The sign-up policy (issue 33) on Google sign-in, against a real OpenID provider on 127.0.0.1
// (testing/oidc.ts), as auth.google.test.ts: a first Google sign-in creates an account, so it is
// refused when sign-up is closed, and needs an invitation (for that e-mail, if it names one) when
// sign-up is by invitation; an existing account signs in with Google whatever the mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdInvitationSchema, meResponseSchema, type SignupMode } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { startOidcProvider, type Identity, type TestOidcProvider } from '../testing/oidc.ts';
import { createUser } from '../testing/users.ts';
import {
  googleSignIn as signInWithGoogle,
  googleTestClient,
  googleTestEnv,
} from '../testing/google.ts';
import { send } from '../testing/vaults.ts';

let op: TestOidcProvider;
let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  op = await startOidcProvider([googleTestClient]);
  t = await createTestApp({ ...googleTestEnv(op), SIGNUP_MODE: 'invite' });
  adminCookie = await asIf('open', async () => (await createUser(t, { role: 'admin' })).cookie);
});
afterAll(async () => {
  await t.close();
  await op.close();
});

/** Runs `fn` under another SIGNUP_MODE, as a restart with it would, then goes back. */
async function asIf<T>(mode: SignupMode, fn: () => Promise<T>): Promise<T> {
  const before = t.config.signup.mode;
  t.config.signup.mode = mode;
  try {
    return await fn();
  } finally {
    t.config.signup.mode = before;
  }
}

const identity = (over: Partial<Identity> = {}): Identity => ({
  sub: crypto.randomUUID(),
  email: `g-${crypto.randomUUID()}@example.test`,
  email_verified: true,
  name: 'Google User',
  ...over,
});

/** Google sign-in as the web app starts it, with an invitation's header when given one. */
const googleSignIn = (who: Identity, invite?: string) =>
  signInWithGoogle(t, op, who, {
    errorCallbackURL: '/auth?mode=signup',
    headers: invite ? { 'x-sealvault-invite': invite } : {},
  });

async function invite(body: { email?: string } = {}) {
  const res = await send(t, adminCookie, 'POST', '/api/admin/invitations', body);
  expect(res.status).toBe(201);
  return createdInvitationSchema.parse(await res.json());
}

const accountsOf = async (email: string) =>
  t.db.kysely.selectFrom('user').select('id').where('email', '=', email).execute();

const me = async (cookie: string) => t.request('/api/me', { headers: { cookie } });

describe('Google sign-in under SIGNUP_MODE=closed', () => {
  it('refuses a new account and says why on /auth, making nothing', async () => {
    const who = identity();
    const { location, error, cookie } = await asIf('closed', () => googleSignIn(who));
    expect(location.startsWith('/auth?mode=signup&')).toBe(true);
    expect(error).toBe('SIGNUP_CLOSED');
    expect(cookie).not.toContain('session_token=');
    expect(await accountsOf(who.email)).toEqual([]);
  });

  it('signs an existing account in (joining its verified e-mail)', async () => {
    const local = await asIf('open', () => createUser(t));
    const { location, cookie } = await asIf('closed', () =>
      googleSignIn(identity({ email: local.email })),
    );
    expect(location).toBe('/dashboard');
    expect(meResponseSchema.parse(await (await me(cookie)).json()).id).toBe(local.id);
  });

  it('signs in an account that Google made earlier', async () => {
    const who = identity();
    await asIf('open', () => googleSignIn(who));
    const { location, cookie } = await asIf('closed', () => googleSignIn(who));
    expect(location).toBe('/dashboard');
    expect((await me(cookie)).status).toBe(200);
  });
});

describe('Google sign-in under SIGNUP_MODE=invite', () => {
  it('refuses a new account without an invitation', async () => {
    const who = identity();
    const { error, cookie } = await googleSignIn(who);
    expect(error).toBe('INVITE_REQUIRED');
    expect(cookie).not.toContain('session_token=');
    expect(await accountsOf(who.email)).toEqual([]);
  });

  it('refuses an invitation made for another e-mail, and leaves it open', async () => {
    const made = await invite({ email: `someone-else-${crypto.randomUUID()}@example.test` });
    const who = identity();
    const { error } = await googleSignIn(who, made.token);
    expect(error).toBe('INVITE_INVALID');
    expect(await accountsOf(who.email)).toEqual([]);
    const row = await t.db.kysely
      .selectFrom('invitations')
      .select('used_at')
      .where('id', '=', made.invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });

  it('makes the account with an invitation for its e-mail, once', async () => {
    const who = identity();
    const made = await invite({ email: who.email });
    const first = await googleSignIn(who, made.token);
    expect(first.location).toBe('/dashboard');
    const profile = meResponseSchema.parse(await (await me(first.cookie)).json());
    expect(profile.email).toBe(who.email);
    const row = await t.db.kysely
      .selectFrom('invitations')
      .select(['used_at', 'used_by'])
      .where('id', '=', made.invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.used_at).not.toBeNull();
    expect(row.used_by).toBe(profile.id);
    // The used invitation makes no second account.
    const other = identity();
    expect((await googleSignIn(other, made.token)).error).toBe('INVITE_INVALID');
    expect(await accountsOf(other.email)).toEqual([]);
    // The account signs in again without one.
    expect((await googleSignIn(who)).location).toBe('/dashboard');
  });

  it('makes the account with an invitation for anyone', async () => {
    const who = identity();
    const made = await invite();
    expect((await googleSignIn(who, made.token)).location).toBe('/dashboard');
    expect(await accountsOf(who.email)).toHaveLength(1);
  });
});
