// Security properties of the auth endpoints (issue 3, Security): no e-mail enumeration by answer
// or (loosely) by timing, rate limits kept in the database with a clear 429, cross-origin state
// changes refused, and a role that users cannot give themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema, messages } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, postJson, signIn } from '../testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const uniqueEmail = () => `sec-${crypto.randomUUID()}@example.test`;

/**
 * Median durations (ms) of two kinds of call, run alternately so that load on the machine falls
 * on both alike.
 */
async function pairedMedians(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [call, into] of [
      [a, ta],
      [b, tb],
    ] as const) {
      const start = performance.now();
      await call();
      into.push(performance.now() - start);
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  return [median(ta), median(tb)];
}

/** A loose bound: neither median more than 3x the other (plus some scheduling noise). */
function expectSimilar([a, b]: [number, number]) {
  const detail = `medians ${a.toFixed(1)} ms and ${b.toFixed(1)} ms`;
  expect(a, detail).toBeLessThan(b * 3 + 25);
  expect(b, detail).toBeLessThan(a * 3 + 25);
}

describe('no e-mail enumeration', () => {
  it('answers a sign-up with a registered e-mail exactly like a new one', async () => {
    const existing = await createUser(t);
    const fresh = await postJson(t, '/api/auth/sign-up/email', {
      email: uniqueEmail(),
      password: 'secret-pw',
      name: 'Same Name',
    });
    const dup = await postJson(t, '/api/auth/sign-up/email', {
      email: existing.email,
      password: 'other-pw-1',
      name: 'Same Name',
    });
    expect(dup.status).toBe(fresh.status);
    const a = (await fresh.json()) as { token: unknown; user: Record<string, unknown> };
    const b = (await dup.json()) as { token: unknown; user: Record<string, unknown> };
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(Object.keys(b.user).sort()).toEqual(Object.keys(a.user).sort());
    expect(b.token).toBeNull();
    expect(b.user.emailVerified).toBe(false);
    expect(b.user.id).not.toBe(existing.id);
    // The existing account is untouched: its password still works, the other one does not.
    expect((await signIn(t, existing.email, existing.password)).status).toBe(200);
    expect((await signIn(t, existing.email, 'other-pw-1')).status).toBe(401);
  });

  it('answers a password-reset request for an unknown e-mail like a known one', async () => {
    const known = await createUser(t);
    const a = await postJson(t, '/api/auth/request-password-reset', { email: known.email });
    const b = await postJson(t, '/api/auth/request-password-reset', { email: uniqueEmail() });
    expect(b.status).toBe(a.status);
    expect(await b.json()).toEqual(await a.json());
  });

  it('answers a wrong password and an unknown e-mail alike at sign-in', async () => {
    const known = await createUser(t);
    const a = await signIn(t, known.email, 'wrong-password');
    const b = await signIn(t, uniqueEmail(), 'wrong-password');
    expect(b.status).toBe(a.status);
    expect(await b.json()).toEqual(await a.json());
  });

  it('takes about as long for registered and unknown e-mails (loose medians, no tight timing)', async () => {
    const known = await createUser(t);
    const runs = 5;
    const signUp = (email: string) => () =>
      postJson(t, '/api/auth/sign-up/email', { email, password: 'secret-pw', name: 'X' });
    expectSimilar(await pairedMedians(runs, signUp(known.email), () => signUp(uniqueEmail())()));
    const reset = (email: string) => postJson(t, '/api/auth/request-password-reset', { email });
    expectSimilar(
      await pairedMedians(
        runs,
        () => reset(known.email),
        () => reset(uniqueEmail()),
      ),
    );
    expectSimilar(
      await pairedMedians(
        runs,
        () => signIn(t, known.email, 'wrong-password'),
        () => signIn(t, uniqueEmail(), 'wrong-password'),
      ),
    );
  });
});

describe('rate limits', () => {
  it('answers 429 with a clear message after the limit, per client, counted in the database', async () => {
    const s = await createTestApp({ AUTH_RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_WINDOW: '60' });
    try {
      const from = (ip: string) => ({ 'x-sealvault-client-ip': ip });
      const attempt = (ip: string, email = 'a@example.test') =>
        postJson(s, '/api/auth/sign-in/email', { email, password: 'x' }, from(ip));
      for (let i = 0; i < 3; i++) expect((await attempt('192.0.2.1')).status).toBe(401);
      const limited = await attempt('192.0.2.1');
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({
        code: 'TOO_MANY_REQUESTS',
        message: messages.auth.tooManyRequests,
      });
      expect(Number(limited.headers.get('x-retry-after'))).toBeGreaterThan(0);
      // Another client is not affected (with another account: the account has its own budget).
      expect((await attempt('192.0.2.2', 'other@example.test')).status).toBe(401);

      for (const path of ['/api/auth/sign-up/email', '/api/auth/request-password-reset']) {
        const body = { email: uniqueEmail(), password: 'secret-pw', name: 'N' };
        for (let i = 0; i < 3; i++) await postJson(s, path, body, from('192.0.2.3'));
        expect((await postJson(s, path, body, from('192.0.2.3'))).status).toBe(429);
      }
      for (let i = 0; i < 3; i++)
        await postJson(
          s,
          '/api/auth/two-factor/verify-totp',
          { code: '000000' },
          from('192.0.2.4'),
        );
      expect(
        (await postJson(s, '/api/auth/two-factor/verify-totp', { code: '0' }, from('192.0.2.4')))
          .status,
      ).toBe(429);

      const rows = await s.db.kysely
        .selectFrom('rateLimit' as never)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});

describe('rate limits behind a reverse proxy', () => {
  it('keys on the address the proxy added to AUTH_CLIENT_IP_HEADER, not on what the client wrote', async () => {
    const s = await createTestApp({
      AUTH_RATE_LIMIT_MAX: '2',
      AUTH_CLIENT_IP_HEADER: 'X-Forwarded-For',
    });
    try {
      // A new account each time: only the per-address counters are under test here.
      const attempt = (xff: string) =>
        postJson(
          s,
          '/api/auth/sign-in/email',
          { email: `b-${crypto.randomUUID()}@example.test`, password: 'x' },
          { 'x-forwarded-for': xff },
        );
      expect((await attempt('1.1.1.1, 198.51.100.1')).status).toBe(401);
      expect((await attempt('2.2.2.2, 198.51.100.1')).status).toBe(401);
      expect((await attempt('3.3.3.3, 198.51.100.1')).status).toBe(429);
      expect((await attempt('198.51.100.2')).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('cross-origin requests', () => {
  it('refuses a cross-origin POST to the auth endpoints before it reaches them', async () => {
    const u = await createUser(t);
    const evil = { origin: 'http://evil.example', cookie: u.cookie };
    const out = await postJson(t, '/api/auth/sign-out', {}, evil);
    expect(out.status).toBe(403);
    const signInEvil = await postJson(
      t,
      '/api/auth/sign-in/email',
      { email: u.email, password: u.password },
      { origin: 'http://evil.example' },
    );
    expect(signInEvil.status).toBe(403);
    expect(signInEvil.headers.getSetCookie()).toEqual([]);
    const crossSite = await t.app.request('/api/auth/revoke-sessions', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', cookie: u.cookie },
    });
    expect(crossSite.status).toBe(403);
    // The session is still alive: nothing of the above reached Better Auth.
    expect((await t.request('/api/me', { headers: { cookie: u.cookie } })).status).toBe(200);
  });
});

describe('account deletion', () => {
  it('is not reachable through Better Auth’s own delete-user (only DELETE /api/me)', async () => {
    const u = await createUser(t);
    const res = await postJson(t, '/api/auth/delete-user', {}, { cookie: u.cookie });
    expect(res.status).toBe(404);
    expect((await t.request('/api/me', { headers: { cookie: u.cookie } })).status).toBe(200);
  });
});

describe('roles', () => {
  it('cannot be set through Better Auth’s update-user', async () => {
    const u = await createUser(t);
    await postJson(t, '/api/auth/update-user', { role: 'admin' }, { cookie: u.cookie });
    const me = meResponseSchema.parse(
      await (await t.request('/api/me', { headers: { cookie: u.cookie } })).json(),
    );
    expect(me.role).toBe('user');
  });
});
