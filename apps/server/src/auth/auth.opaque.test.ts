// OPAQUE account passwords ([Note: OPAQUE passwords] in opaque.password.ts): sign-up, sign-in,
// change, reset and the routes that re-check the password run on tickets and record tokens, no
// request body holds the password, the attempt budget is spent once per guess, unknown e-mails
// look like known ones, legacy accounts move on their next sign-in, and tickets are single-use and
// short-lived, on whichever instance.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as opaque from '@serenity-kit/opaque';
import * as OTPAuth from 'otpauth';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, markVerified, postJson, signIn } from '../testing/users.ts';
import { opaqueClient } from './opaque.testkit.ts';
import { resolveOpaqueServerSetup } from './opaque.secret.ts';

await opaque.ready;
const SETUP = opaque.server.createSetup();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ OPAQUE_SERVER_SETUP: SETUP }, { opaqueOnly: true });
});
afterAll(() => t.close());

const newEmail = (tag: string) => `${tag}-${crypto.randomUUID()}@example.test`;
const PASSWORD = 'opaque horse battery 42';

const storedPassword = async (app: TestApp, email: string) => {
  const row = await app.db.kysely
    .selectFrom('account')
    .innerJoin('user', 'user.id', 'account.userId')
    .select(sql<string | null>`account.password`.as('password'))
    .where('user.email', '=', email)
    .where('account.providerId', '=', 'credential')
    .executeTakeFirstOrThrow();
  return row.password;
};

const userIdOf = async (app: TestApp, email: string) =>
  (
    await app.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id;

/** Signs up by OPAQUE and marks the address verified; the session cookie of a sign-in. */
async function opaqueUser(app: TestApp, tag: string, password = PASSWORD) {
  const email = newEmail(tag);
  const c = opaqueClient(app.request);
  expect((await c.signUp(email, password)).status).toBe(200);
  await markVerified(app, await userIdOf(app, email));
  const res = await c.signIn(email, password);
  expect(res.status).toBe(200);
  return { email, cookie: cookieFrom(res), client: c };
}

/** The password in every encoding a body could carry it in. */
const encodings = (password: string) => {
  const bytes = Buffer.from(password, 'utf8');
  return [
    password,
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    JSON.stringify(password).slice(1, -1),
  ];
};
const expectNoPassword = (bodies: string[], password: string) => {
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) for (const e of encodings(password)) expect(body).not.toContain(e);
};

describe('OPAQUE sign-up and sign-in', () => {
  it('signs up, refuses sign-in until the e-mail is verified, then signs in; no body holds the password', async () => {
    const email = newEmail('signup');
    const c = opaqueClient(t.request);
    expect((await c.signUp(email, PASSWORD)).status).toBe(200);
    const stored = await storedPassword(t, email);
    expect(stored).toMatch(/^opaque\$v1\$[A-Za-z0-9_-]{43}$/);
    const record = await t.db.kysely
      .selectFrom('opaque_records')
      .select(['record', 'claim_hash'])
      .where('id', '=', stored!.slice('opaque$v1$'.length))
      .executeTakeFirstOrThrow();
    expect(record.claim_hash).toBeNull();

    const early = await c.signIn(email, PASSWORD);
    expect(early.status).toBe(403);
    expect(((await early.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');

    const mail = await t.takeMail(email);
    const link = new URL(mail.link);
    const verify = await t.request(`${link.pathname}${link.search}`, { redirect: 'manual' });
    expect(verify.status).toBe(302);

    const ok = await c.signIn(email, PASSWORD);
    expect(ok.status).toBe(200);
    const cookie = cookieFrom(ok);
    expect(cookie).toContain('sealvault.session_token=');
    expect(cookie).toContain('sealvault.known_device=');
    const me = await t.request('/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);

    expectNoPassword(c.bodies, PASSWORD);
    expect(t.logs()).not.toContain(PASSWORD);
  });

  it('refuses a new password in the clear on sign-up, change and reset (400)', async () => {
    const plain = await postJson(t, '/api/auth/sign-up/email', {
      name: 'Plain',
      email: newEmail('plain'),
      password: PASSWORD,
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { code: string }).code).toBe('OPAQUE_REQUIRED');
    const u = await opaqueUser(t, 'plainchange');
    const ticket = await opaqueClient(t.request).ticket(u.email, PASSWORD);
    const change = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: ticket, newPassword: 'a new plain password' },
      { cookie: u.cookie },
    );
    expect(change.status).toBe(400);
  });

  it('refuses a wrong password, which spends the attempt budget like a sign-in (429 after it)', async () => {
    const app = await createTestApp(
      { OPAQUE_SERVER_SETUP: SETUP, AUTH_RATE_LIMIT_MAX: '3', AUTH_CLIENT_IP_HEADER: 'x-ip' },
      { opaqueOnly: true },
    );
    try {
      const email = newEmail('budget');
      const c = opaqueClient(app.request);
      expect((await c.signUp(email, PASSWORD)).status).toBe(200);
      await markVerified(app, await userIdOf(app, email));
      // Each guess from another address, so only the account's counter can refuse the fourth.
      const from = (ip: string) =>
        opaqueClient((p, init = {}) =>
          app.request(p, { ...init, headers: { ...init.headers, 'x-ip': ip } }),
        );
      for (let i = 0; i < 3; i++)
        expect(await from(`10.0.0.${i}`).login(email, 'a wrong password')).toEqual({
          wrong: true,
        });
      const refused = await from('10.0.0.9').login(email, PASSWORD);
      expect('refused' in refused && refused.refused.status).toBe(429);
      const counters = await app.db.kysely
        .selectFrom(sql`auth_attempts`.as('a'))
        .select([sql<string>`key`.as('key'), sql<number>`count`.as('count')])
        .execute();
      expect(counters.find((r) => r.key === `account:${email}`)?.count).toBe(4);
    } finally {
      await app.close();
    }
  });

  it("does not lock the owner's known device out while others guess", async () => {
    const app = await createTestApp(
      { OPAQUE_SERVER_SETUP: SETUP, AUTH_RATE_LIMIT_MAX: '3', AUTH_CLIENT_IP_HEADER: 'x-ip' },
      { opaqueOnly: true },
    );
    try {
      const from = (ip: string, cookie = '') =>
        opaqueClient(
          (p, init = {}) => app.request(p, { ...init, headers: { ...init.headers, 'x-ip': ip } }),
          cookie,
        );
      const email = newEmail('device');
      const owner = from('192.0.2.1');
      expect((await owner.signUp(email, PASSWORD)).status).toBe(200);
      await markVerified(app, await userIdOf(app, email));
      const device = cookieFrom(await owner.signIn(email, PASSWORD));
      expect(device).toContain('sealvault.known_device=');
      // The owner's own sign-in spent one of the account's 3; two guesses spend the rest.
      for (let i = 0; i < 2; i++)
        expect(await from(`198.51.100.${i}`).login(email, 'a guess')).toEqual({ wrong: true });
      const stranger = await from('198.51.100.9').login(email, PASSWORD);
      expect('refused' in stranger && stranger.refused.status).toBe(429);
      // The owner's browser, from an address of its own, still gets in.
      expect((await from('192.0.2.2', device).signIn(email, PASSWORD)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers an unknown e-mail like a known one', async () => {
    const u = await opaqueUser(t, 'known');
    const start = async (email: string) => {
      const { startLoginRequest } = opaque.client.startLogin({ password: 'a guess' });
      const res = await postJson(t, '/api/auth/opaque/login-start', { email, startLoginRequest });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, string>;
    };
    const known = await start(u.email);
    const unknown = await start(newEmail('nobody'));
    expect(Object.keys(unknown).sort()).toEqual(Object.keys(known).sort());
    expect(unknown.loginResponse).toHaveLength(known.loginResponse!.length);
    expect(unknown.loginId).toHaveLength(known.loginId!.length);
    const c = opaqueClient(t.request);
    expect(await c.login(newEmail('nobody'), PASSWORD)).toEqual({ wrong: true });
    expect((await c.signIn(newEmail('nobody'), PASSWORD)).status).toBe(401);
    // A forged finish is refused alike for both.
    for (const loginId of [known.loginId, unknown.loginId]) {
      const fin = await postJson(t, '/api/auth/opaque/login-finish', {
        loginId,
        finishLoginRequest: 'A'.repeat(86),
      });
      expect(fin.status).toBe(401);
      expect(((await fin.json()) as { code: string }).code).toBe('INVALID_EMAIL_OR_PASSWORD');
    }
  });

  it('stores a registration once: a second finish of the same id is refused, nothing overwritten', async () => {
    const { registrationRequest, clientRegistrationState } = opaque.client.startRegistration({
      password: PASSWORD,
    });
    const start = await postJson(t, '/api/auth/opaque/register-start', { registrationRequest });
    const { registrationId, registrationResponse } = (await start.json()) as Record<string, string>;
    const { registrationRecord } = opaque.client.finishRegistration({
      clientRegistrationState,
      registrationResponse: registrationResponse!,
      password: PASSWORD,
    });
    const finish = () =>
      postJson(t, '/api/auth/opaque/register-finish', { registrationId, registrationRecord });
    const [a, b] = await Promise.all([finish(), finish()]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it('answers malformed OPAQUE messages with 400, never 500', async () => {
    for (const [p, body] of [
      ['/api/auth/opaque/register-start', { registrationRequest: 'not base64url!' }],
      ['/api/auth/opaque/register-start', { registrationRequest: 'AAAA' }],
      ['/api/auth/opaque/register-finish', { registrationId: 'x', registrationRecord: 'AAAA' }],
      ['/api/auth/opaque/login-start', { email: 'a@b.test', startLoginRequest: 'AAAA' }],
      ['/api/auth/opaque/login-start', { email: 'a@b.test' }],
      ['/api/auth/opaque/login-finish', { loginId: 'x', finishLoginRequest: 'AAAA' }],
    ] as const) {
      const res = await postJson(t, p, body);
      expect(res.status, `${p} ${JSON.stringify(body)}`).toBe(400);
    }
  });
});

describe('tickets', () => {
  it('are single-use and expire after 60 seconds', async () => {
    const u = await opaqueUser(t, 'ticket');
    const c = opaqueClient(t.request);
    const ticket = await c.ticket(u.email, PASSWORD);
    expect((await signIn(t, u.email, ticket)).status).toBe(200);
    expect((await signIn(t, u.email, ticket)).status).toBe(401);

    const late = await c.ticket(u.email, PASSWORD);
    await t.db.kysely
      .updateTable('opaque_tickets')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await signIn(t, u.email, late)).status).toBe(401);

    // A ticket proves one account's password only.
    const other = await opaqueUser(t, 'ticket-other');
    const foreign = await c.ticket(other.email, PASSWORD);
    expect((await signIn(t, u.email, foreign)).status).toBe(401);
  });

  it('start on one instance, finish and sign in on another sharing the database and setup', async () => {
    const u = await opaqueUser(t, 'multi');
    const second = t.otherInstance();
    const c = opaqueClient(t.request);
    const r = await c.login(u.email, PASSWORD, second);
    if (!('ticket' in r)) throw new Error('no ticket');
    const res = await postJson({ ...t, request: second }, '/api/auth/sign-in/email', {
      email: u.email,
      password: r.ticket,
    });
    expect(res.status).toBe(200);
  });
});

describe('routes that re-check the password', () => {
  it('verify-password and DELETE /api/me take a ticket, once', async () => {
    const u = await opaqueUser(t, 'verify');
    const c = opaqueClient(t.request, u.cookie);
    const ticket = await c.ticket(u.email, PASSWORD);
    expect((await c.post('/api/auth/verify-password', { password: ticket })).status).toBe(200);
    expect((await c.post('/api/auth/verify-password', { password: ticket })).status).toBe(400);
    expect((await c.post('/api/auth/verify-password', { password: PASSWORD })).status).toBe(400);

    const del = await t.request('/api/me', {
      method: 'DELETE',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ password: await c.ticket(u.email, PASSWORD) }),
    });
    expect(del.status).toBe(200);
    expect((await t.request('/api/me', { headers: { cookie: u.cookie } })).status).toBe(401);
  });

  it('two-factor is enabled and disabled with tickets and still asked after an OPAQUE sign-in', async () => {
    const u = await opaqueUser(t, 'totp');
    const c = opaqueClient(t.request, u.cookie);
    const enable = await c.post('/api/auth/two-factor/enable', {
      password: await c.ticket(u.email, PASSWORD),
    });
    expect(enable.status).toBe(200);
    const { totpURI } = (await enable.json()) as { totpURI: string };
    const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
    const confirmed = await c.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect(confirmed.status).toBe(200);
    // Turning two-factor on renews the session.
    const renewed = opaqueClient(t.request, cookieFrom(confirmed, u.cookie));

    const signedIn = await opaqueClient(t.request).signIn(u.email, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookieFrom(signedIn)).not.toContain('session_token');

    const disable = await renewed.post('/api/auth/two-factor/disable', {
      password: await renewed.ticket(u.email, PASSWORD),
    });
    expect(disable.status).toBe(200);
  });
});

describe('password change and reset', () => {
  it('changes the password with a ticket and a new record; other sessions end', async () => {
    const u = await opaqueUser(t, 'change');
    const otherSession = cookieFrom(await opaqueClient(t.request).signIn(u.email, PASSWORD));
    const c = opaqueClient(t.request, u.cookie);
    const NEW = 'a brand new opaque password';
    const res = await c.post('/api/auth/change-password', {
      currentPassword: await c.ticket(u.email, PASSWORD),
      newPassword: await c.register(NEW),
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    expect((await t.request('/api/me', { headers: { cookie: otherSession } })).status).toBe(401);
    expect(await c.login(u.email, PASSWORD)).toEqual({ wrong: true });
    expect((await opaqueClient(t.request).signIn(u.email, NEW)).status).toBe(200);
    expectNoPassword(c.bodies, PASSWORD);
    expectNoPassword(c.bodies, NEW);
  });

  it('resets the password with the link and a new record; every session ends', async () => {
    const u = await opaqueUser(t, 'reset');
    const c = opaqueClient(t.request);
    expect(
      (
        await c.post('/api/auth/request-password-reset', {
          email: u.email,
          redirectTo: '/auth?step=reset',
        })
      ).status,
    ).toBe(200);
    let mail = await t.takeMail(u.email); // the sign-up's verification mail first
    while (!mail.link.includes('/reset-password/')) mail = await t.takeMail(u.email);
    const token = /\/reset-password\/([^/?#]+)/.exec(new URL(mail.link).pathname)?.[1];
    const NEW = 'a reset opaque password';
    const res = await c.post('/api/auth/reset-password', {
      token,
      newPassword: await c.register(NEW),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await t.request('/api/me', { headers: { cookie: u.cookie } })).status).toBe(401);
    expect(await c.login(u.email, PASSWORD)).toEqual({ wrong: true });
    expect((await c.signIn(u.email, NEW)).status).toBe(200);
    expectNoPassword(c.bodies, NEW);
  });
});

describe('legacy accounts', () => {
  it('sign in the old way once, move to OPAQUE (old hash gone), then sign in by OPAQUE', async () => {
    // The default test app still takes passwords in the clear: its users are legacy accounts.
    const app = await createTestApp({ OPAQUE_SERVER_SETUP: SETUP });
    try {
      const u = await createUser(app, { password: PASSWORD });
      const legacyHash = await storedPassword(app, u.email);
      expect(legacyHash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      const c = opaqueClient(app.request);
      expect(await c.login(u.email, PASSWORD)).toEqual({ legacy: true });
      // A wrong password does not move it.
      expect((await c.signIn(u.email, 'not the password')).status).toBe(401);
      expect(await storedPassword(app, u.email)).toBe(legacyHash);

      expect((await c.signIn(u.email, PASSWORD)).status).toBe(200);
      const moved = await storedPassword(app, u.email);
      expect(moved).toMatch(/^opaque\$v1\$/);
      expect('ticket' in (await c.login(u.email, PASSWORD))).toBe(true);
      // The old way is closed now.
      expect((await signIn(app, u.email, PASSWORD)).status).toBe(401);
      const fresh = opaqueClient(app.request);
      expect((await fresh.signIn(u.email, PASSWORD)).status).toBe(200);
      expectNoPassword(fresh.bodies, PASSWORD);
    } finally {
      await app.close();
    }
  });
});

describe('the OPAQUE server setup', () => {
  it('is generated once into DATA_DIR/opaque-server-setup (0600) and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-opaque-'));
    try {
      const first = resolveOpaqueServerSetup(undefined, dir);
      expect(fs.statSync(path.join(dir, 'opaque-server-setup')).mode & 0o777).toBe(0o600);
      expect(resolveOpaqueServerSetup(undefined, dir)).toBe(first);
      expect(resolveOpaqueServerSetup(SETUP, dir)).toBe(SETUP);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed OPAQUE_SERVER_SETUP at start, naming it', () => {
    expect(() => loadConfig({ OPAQUE_SERVER_SETUP: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPAQUE_SERVER_SETUP: 'short' })).toThrow(/OPAQUE_SERVER_SETUP/);
    // Well-formed base64url of the right length, but not a setup.
    const bogus = 'A'.repeat(171);
    expect(() => resolveOpaqueServerSetup(bogus, os.tmpdir())).toThrow(
      /OPAQUE_SERVER_SETUP is not a valid OPAQUE server setup/,
    );
  });
});
