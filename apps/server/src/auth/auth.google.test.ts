// Google sign-in by OpenID Connect, end to end against a real provider (oidc-provider) running on
// 127.0.0.1: the whole redirect flow, a forged state and an id_token for another audience refused,
// linking into a verified local account and never into an unverified one, and the second factor
// still asked of an account that has two-factor on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { authConfigResponseSchema, meResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { startOidcProvider, type Identity, type TestOidcProvider } from '../testing/oidc.ts';
import { cookieFrom, createUser, postJson } from '../testing/users.ts';

const PUBLIC_URL = 'http://localhost:3000';
const client = {
  client_id: 'sealvault-test',
  client_secret: 'sealvault-test-secret',
  redirect_uris: [`${PUBLIC_URL}/api/auth/callback/google`],
};
const otherClient = {
  client_id: 'another-app',
  client_secret: 'another-app-secret',
  redirect_uris: ['http://localhost:4000/callback'],
};

let op: TestOidcProvider;
let t: TestApp;
beforeAll(async () => {
  op = await startOidcProvider([client, otherClient]);
  t = await createTestApp({
    PUBLIC_URL,
    GOOGLE_CLIENT_ID: client.client_id,
    GOOGLE_CLIENT_SECRET: client.client_secret,
    GOOGLE_ISSUER: op.issuer,
  });
});
afterAll(async () => {
  await t.close();
  await op.close();
});

const identity = (over: Partial<Identity> = {}): Identity => ({
  sub: crypto.randomUUID(),
  email: `g-${crypto.randomUUID()}@example.test`,
  email_verified: true,
  name: 'Google User',
  ...over,
});

interface FlowOptions {
  tamper?: (callback: URL, authorize: URL) => Promise<void> | void;
}

/** Starts Google sign-in as the web app does, logs in at the provider, returns the callback. */
async function googleSignIn(who: Identity, opts: FlowOptions = {}) {
  const start = await postJson(t, '/api/auth/sign-in/social', {
    provider: 'google',
    callbackURL: '/dashboard',
    errorCallbackURL: '/auth',
  });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(op.issuer);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('scope')?.split(' ').sort()).toEqual([
    'email',
    'openid',
    'profile',
  ]);
  op.loginAs(who);
  const callback = await op.browse(url);
  expect(callback.origin).toBe(PUBLIC_URL);
  expect(callback.pathname).toBe('/api/auth/callback/google');
  await opts.tamper?.(callback, authorize);
  const appCookie = cookieFrom(start);
  const res = await t.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: appCookie },
    redirect: 'manual',
  });
  op.replaceIdToken(null);
  const cookie = cookieFrom(res, appCookie);
  return { res, location: res.headers.get('location') ?? '', cookie };
}

const me = async (cookie: string) => t.request('/api/me', { headers: { cookie } });

describe('Google sign-in (OpenID Connect)', () => {
  it('is announced by /api/auth-config only when configured', async () => {
    const on = authConfigResponseSchema.parse(await (await t.request('/api/auth-config')).json());
    expect(on.google).toBe(true);
    const plain = await createTestApp();
    try {
      const off = await (await plain.request('/api/auth-config')).json();
      expect(authConfigResponseSchema.parse(off).google).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it('signs a new user in through the whole redirect flow and creates a verified account', async () => {
    const who = identity({ name: 'Alan Turing' });
    const { res, location, cookie } = await googleSignIn(who);
    expect(res.status).toBe(302);
    expect(location).toBe('/dashboard');
    const profile = meResponseSchema.parse(await (await me(cookie)).json());
    expect(profile).toMatchObject({ email: who.email, full_name: 'Alan Turing', role: 'user' });
    const user = await t.db.kysely
      .selectFrom('user')
      .select('emailVerified')
      .where('id', '=', profile.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.emailVerified)).toBe(true);
    // Signing out ends our session only: no redirect to the provider's logout.
    const out = await postJson(t, '/api/auth/sign-out', {}, { cookie });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    expect((await me(cookie)).status).toBe(401);
  });

  it('refuses a callback whose state was forged', async () => {
    const { location, cookie } = await googleSignIn(identity(), {
      tamper: (callback) => {
        callback.searchParams.set('state', 'forged-state-value');
      },
    });
    expect(location).toBe(`${PUBLIC_URL}/auth?error=state_mismatch`);
    expect(cookie).not.toContain('session_token=');
  });

  it('refuses an id_token issued for another client (wrong audience)', async () => {
    const who = identity();
    const { location, cookie } = await googleSignIn(who, {
      tamper: async (_callback, authorize) => {
        const nonce = authorize.searchParams.get('nonce') ?? '';
        op.replaceIdToken(await op.idTokenFor(otherClient, nonce));
      },
    });
    expect(location).toBe('/auth?error=unable_to_get_user_info');
    expect(t.logs()).toContain('id_token failed verification');
    expect(cookie).not.toContain('session_token=');
    const rows = await t.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', who.email)
      .execute();
    expect(rows).toEqual([]);
  });

  it('joins the local account that verified the same e-mail', async () => {
    const local = await createUser(t);
    const { location, cookie } = await googleSignIn(identity({ email: local.email }));
    expect(location).toBe('/dashboard');
    expect(meResponseSchema.parse(await (await me(cookie)).json()).id).toBe(local.id);
    const accounts = await t.db.kysely
      .selectFrom('account')
      .select('providerId')
      .where('userId', '=', local.id)
      .execute();
    expect(accounts.map((a) => a.providerId).sort()).toEqual(['credential', 'google']);
  });

  it('asks for the second factor of an account with two-factor on before any session', async () => {
    const local = await createUser(t);
    const enable = await postJson(
      t,
      '/api/auth/two-factor/enable',
      { password: local.password },
      { cookie: local.cookie },
    );
    const totp = OTPAuth.URI.parse(((await enable.json()) as { totpURI: string }).totpURI);
    if (!(totp instanceof OTPAuth.TOTP)) throw new Error('not a TOTP URI');
    const confirm = await postJson(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: totp.generate() },
      { cookie: local.cookie },
    );
    expect(confirm.status).toBe(200);

    const { res, location, cookie } = await googleSignIn(identity({ email: local.email }));
    expect(res.status).toBe(302);
    expect(location).toBe('/auth?step=two-factor');
    expect(cookie).not.toContain('session_token=');
    expect((await me(cookie)).status).toBe(401);
    const sessions = await t.db.kysely
      .selectFrom('session')
      .select('id')
      .where('userId', '=', local.id)
      .execute();
    expect(sessions).toHaveLength(1); // only the one createUser signed in with

    const code = totp.generate({ timestamp: Date.now() + totp.period * 1000 });
    const second = await postJson(t, '/api/auth/two-factor/verify-totp', { code }, { cookie });
    expect(second.status).toBe(200);
    const session = cookieFrom(second, cookie);
    expect(meResponseSchema.parse(await (await me(session)).json()).id).toBe(local.id);
  });

  it('never joins an unverified local account', async () => {
    const local = await createUser(t, { verified: false });
    const { location, cookie } = await googleSignIn(identity({ email: local.email }));
    expect(location).toBe('/auth?error=account_not_linked');
    expect(cookie).not.toContain('session_token=');
    const accounts = await t.db.kysely
      .selectFrom('account')
      .select('providerId')
      .where('userId', '=', local.id)
      .execute();
    expect(accounts.map((a) => a.providerId)).toEqual(['credential']);
  });

  it('does not join a verified local account when Google has not verified the e-mail', async () => {
    const local = await createUser(t);
    const { location, cookie } = await googleSignIn(
      identity({ email: local.email, email_verified: false }),
    );
    expect(location).toBe('/auth?error=account_not_linked');
    expect(cookie).not.toContain('session_token=');
    const accounts = await t.db.kysely
      .selectFrom('account')
      .select('providerId')
      .where('userId', '=', local.id)
      .execute();
    expect(accounts.map((a) => a.providerId)).toEqual(['credential']);
  });
});
