// Passkeys to sign in (issue 30), through the HTTP API with a software authenticator
// (softAuthenticator.testkit.ts): add, list, rename, sign in (no second factor asked), the checks
// on challenges, origins and user verification, removal refused for the last way to sign in, and
// account deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { cookieFrom, createUser, postJson, type TestUser } from '../../testing/users.ts';
import { softAuthenticator, type SoftCredential } from './softAuthenticator.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ORIGIN = 'http://localhost:3000';
const authn = softAuthenticator(ORIGIN);
const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });

/** Registration options, then the authenticator's answer; returns the answer's response. */
async function addPasskey(
  u: TestUser,
  name = 'Laptop',
  flags: Parameters<typeof authn.register>[1] = {},
  origin = ORIGIN,
) {
  const opts = await postJson(t, '/api/auth/passkey/register-options', {}, { cookie: u.cookie });
  expect(opts.status).toBe(200);
  const options = (await opts.json()) as {
    challenge: string;
    rp: { id: string };
    authenticatorSelection: { residentKey: string; userVerification: string };
    excludeCredentials: { id: string }[];
  };
  const cookie = cookieFrom(opts, u.cookie);
  const { credential, response } = authn.register(options.challenge, flags, origin);
  const res = await postJson(t, '/api/auth/passkey/register', { name, response }, { cookie });
  return { res, credential, options };
}

async function signInWith(credential: SoftCredential, flags = {}, origin = ORIGIN) {
  const opts = await postJson(t, '/api/auth/passkey/sign-in-options', {});
  expect(opts.status).toBe(200);
  const { challenge, allowCredentials } = (await opts.json()) as {
    challenge: string;
    allowCredentials?: unknown[];
  };
  expect(allowCredentials ?? []).toEqual([]);
  const response = authn.assert(credential, challenge, flags, origin);
  return postJson(t, '/api/auth/sign-in/passkey', { response }, { cookie: cookieFrom(opts) });
}

describe('passkeys to sign in', () => {
  it('adds, lists and renames a passkey, then signs in with it', async () => {
    const u = await createUser(t);
    const { res, credential, options } = await addPasskey(u, '  MacBook  ');
    expect(res.status).toBe(200);
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    const { passkey } = (await res.json()) as { passkey: { id: string; name: string } };
    expect(passkey.name).toBe('MacBook');

    // The next registration excludes it.
    const again = await postJson(t, '/api/auth/passkey/register-options', {}, { cookie: u.cookie });
    const { excludeCredentials } = (await again.json()) as { excludeCredentials: { id: string }[] };
    expect(excludeCredentials.map((c) => c.id)).toEqual([credential.id.toString('base64url')]);

    const renamed = await postJson(
      t,
      '/api/auth/passkey/rename',
      { id: passkey.id, name: 'Work laptop' },
      { cookie: u.cookie },
    );
    expect(renamed.status).toBe(200);
    const list = await t.request('/api/auth/passkey/list', { headers: { cookie: u.cookie } });
    const { passkeys } = (await list.json()) as {
      passkeys: { id: string; name: string; lastUsedAt: string | null }[];
    };
    expect(passkeys).toMatchObject([{ id: passkey.id, name: 'Work laptop', lastUsedAt: null }]);

    const signed = await signInWith(credential);
    expect(signed.status).toBe(200);
    const session = cookieFrom(signed);
    expect(session).toContain('session_token=');
    const who = await me(session);
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ email: u.email });
    const after = await t.request('/api/auth/passkey/list', { headers: { cookie: session } });
    const used = ((await after.json()) as { passkeys: { lastUsedAt: string | null }[] }).passkeys;
    expect(used[0]?.lastUsedAt).not.toBeNull();
  });

  it('a passkey sign-in satisfies two-factor', async () => {
    const u = await createUser(t);
    const { credential } = await addPasskey(u);
    await t.db.kysely
      .updateTable('user')
      .set({ twoFactorEnabled: t.db.kind === 'sqlite' ? 1 : true } as never)
      .where('id', '=', u.id)
      .execute();
    const signed = await signInWith(credential);
    expect(signed.status).toBe(200);
    expect(await signed.json()).not.toHaveProperty('twoFactorRedirect');
    expect((await me(cookieFrom(signed))).status).toBe(200);
  });

  it('refuses a reused challenge, another origin, no user verification and an unknown passkey', async () => {
    const u = await createUser(t);
    const { credential } = await addPasskey(u);

    const opts = await postJson(t, '/api/auth/passkey/sign-in-options', {});
    const { challenge } = (await opts.json()) as { challenge: string };
    const cookie = cookieFrom(opts);
    const ok = await postJson(
      t,
      '/api/auth/sign-in/passkey',
      { response: authn.assert(credential, challenge) },
      { cookie },
    );
    expect(ok.status).toBe(200);
    const replay = await postJson(
      t,
      '/api/auth/sign-in/passkey',
      { response: authn.assert(credential, challenge) },
      { cookie },
    );
    expect(replay.status).toBe(400);
    expect(cookieFrom(replay)).not.toContain('session_token=');

    const evil = await signInWith(credential, {}, 'http://evil.test');
    expect(evil.status).toBe(401);
    expect(await evil.json()).toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    const noUv = await signInWith(credential, { userVerified: false });
    expect(noUv.status).toBe(401);

    const stranger = authn.register('x').credential;
    const unknown = await signInWith(stranger);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ code: 'PASSKEY_NOT_FOUND' });

    // A registration without user verification, or from another origin, adds nothing.
    expect((await addPasskey(u, 'No UV', { userVerified: false })).res.status).toBe(400);
    expect((await addPasskey(u, 'Evil', {}, 'http://evil.test')).res.status).toBe(400);
    const list = await t.request('/api/auth/passkey/list', { headers: { cookie: u.cookie } });
    expect(((await list.json()) as { passkeys: unknown[] }).passkeys).toHaveLength(1);
  });

  it('validates bodies with a 4xx, needs a session, and keeps each account to its own passkeys', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const { res } = await addPasskey(a);
    const { passkey } = (await res.json()) as { passkey: { id: string } };

    expect((await postJson(t, '/api/auth/passkey/register-options', {})).status).toBe(401);
    expect((await t.request('/api/auth/passkey/list')).status).toBe(401);
    const empty = await postJson(
      t,
      '/api/auth/passkey/rename',
      { id: passkey.id, name: '   ' },
      { cookie: a.cookie },
    );
    expect(empty.status).toBe(400);
    const junk = await postJson(t, '/api/auth/sign-in/passkey', { response: { id: 1 } });
    expect(junk.status).toBe(400);
    const noChallenge = await postJson(t, '/api/auth/sign-in/passkey', {
      response: { id: 'a', rawId: 'a', type: 'public-key', response: {} },
    });
    expect(noChallenge.status).toBe(400);

    const renameOther = await postJson(
      t,
      '/api/auth/passkey/rename',
      { id: passkey.id, name: 'Mine now' },
      { cookie: b.cookie },
    );
    expect(renameOther.status).toBe(404);
    const removeOther = await postJson(
      t,
      '/api/auth/passkey/remove',
      { id: passkey.id },
      { cookie: b.cookie },
    );
    expect(removeOther.status).toBe(404);
    const list = await t.request('/api/auth/passkey/list', { headers: { cookie: b.cookie } });
    expect(((await list.json()) as { passkeys: unknown[] }).passkeys).toEqual([]);
  });

  it('refuses to remove the last way to sign in, and removes passkeys otherwise', async () => {
    const u = await createUser(t);
    const first = await addPasskey(u, 'One');
    const second = await addPasskey(u, 'Two');
    const idOf = async (r: Response) =>
      ((await r.json()) as { passkey: { id: string } }).passkey.id;
    const one = await idOf(first.res);
    const two = await idOf(second.res);

    // With a password, every passkey may go.
    const removed = await postJson(
      t,
      '/api/auth/passkey/remove',
      { id: one },
      { cookie: u.cookie },
    );
    expect(removed.status).toBe(200);

    // A passkey-only account (no password, no Google) keeps its last passkey.
    await t.db.kysely.deleteFrom('account').where('userId', '=', u.id).execute();
    const refused = await postJson(
      t,
      '/api/auth/passkey/remove',
      { id: two },
      { cookie: u.cookie },
    );
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'LAST_SIGN_IN_METHOD',
      message:
        'This passkey is your only way to sign in. Add a password, Google or another passkey before removing it.',
    });
    expect((await signInWith(second.credential)).status).toBe(200);
    expect((await signInWith(first.credential)).status).toBe(401);
  });

  it('deleting the account deletes its passkeys; nothing secret is logged', async () => {
    const u = await createUser(t);
    const { credential } = await addPasskey(u);
    const del = await t.request('/api/me', {
      method: 'DELETE',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ password: u.password }),
    });
    expect(del.status).toBeLessThan(300);
    const rows = await t.db.kysely
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await signInWith(credential)).status).toBe(401);
    expect(t.logs()).not.toContain(credential.id.toString('base64url'));
  });

  it('sign-in options and the list answer every page visit from one address; adding stops at 30 a minute', async () => {
    const from = { 'x-sealvault-client-ip': '192.0.2.40' };
    const u = await createUser(t);
    for (let i = 0; i < 40; i++) {
      expect((await postJson(t, '/api/auth/passkey/sign-in-options', {}, from)).status).toBe(200);
      const list = await t.request('/api/auth/passkey/list', {
        headers: { cookie: u.cookie, ...from },
      });
      expect(list.status).toBe(200);
    }
    const options = () =>
      postJson(t, '/api/auth/passkey/register-options', {}, { cookie: u.cookie, ...from });
    for (let i = 0; i < 30; i++) expect((await options()).status).toBe(200);
    expect((await options()).status).toBe(429);
  });
});
