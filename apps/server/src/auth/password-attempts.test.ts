// [Note: password attempt budget] (attempts.ts): every route that checks the account password or
// a second factor spends from the sign-in budget, per account and per client address, and answers
// 429 with the protocol's text when it is spent (issue 15, item 3).
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { errorBodySchema, messages } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, type TestUser } from '../testing/users.ts';

const MAX = 3;
const from = (ip: string) => ({ 'x-sealvault-client-ip': ip });

interface Route {
  name: string;
  call: (t: TestApp, u: TestUser, ip: string) => Promise<Response>;
}

const post = (path: string, body: (u: TestUser) => unknown): Route => ({
  name: `POST ${path}`,
  call: (t, u, ip) => postJson(t, path, body(u), { cookie: u.cookie, ...from(ip) }),
});

const routes: Route[] = [
  post('/api/auth/sign-in/email', (u) => ({ email: u.email, password: u.password })),
  post('/api/auth/verify-password', (u) => ({ password: u.password })),
  post('/api/auth/change-password', (u) => ({
    currentPassword: u.password,
    newPassword: 'another pass 43',
  })),
  post('/api/auth/two-factor/enable', (u) => ({ password: u.password })),
  post('/api/auth/two-factor/disable', (u) => ({ password: u.password })),
  post('/api/auth/two-factor/get-totp-uri', (u) => ({ password: u.password })),
  post('/api/auth/two-factor/generate-backup-codes', (u) => ({ password: u.password })),
  post('/api/auth/two-factor/verify-totp', () => ({ code: '123456' })),
  post('/api/auth/two-factor/verify-backup-code', () => ({ code: 'abcde-fghij' })),
  {
    name: 'DELETE /api/me',
    call: (t, u, ip) =>
      t.request('/api/me', {
        method: 'DELETE',
        headers: { cookie: u.cookie, 'content-type': 'application/json', ...from(ip) },
        body: JSON.stringify({ password: u.password }),
      }),
  },
];

async function expectRefused(res: Response, route: string) {
  expect(res.status, route).toBe(429);
  expect(Number(res.headers.get('x-retry-after')), route).toBeGreaterThan(0);
  const body: unknown = await res.json();
  if (route.startsWith('DELETE /api/me'))
    expect(errorBodySchema.parse(body)).toEqual({
      error: { code: 'rate_limited', message: messages.auth.tooManyRequests },
    });
  else expect(body).toEqual({ code: 'TOO_MANY_REQUESTS', message: messages.auth.tooManyRequests });
}

const wrongSignIn = (t: TestApp, email: string, ip: string) =>
  postJson(t, '/api/auth/sign-in/email', { email, password: 'wrong password' }, from(ip));

describe('the password attempt budget', () => {
  it.each(routes)(
    '$name spends from the account’s sign-in budget and refuses when it is spent',
    async ({ name, call }) => {
      const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
      try {
        const u = await createUser(t); // its sign-in is one attempt on the account
        // Wrong guesses from other addresses each, so that only the account's counter fills.
        for (let i = 1; i < MAX; i++)
          expect((await wrongSignIn(t, u.email, `198.51.100.${i}`)).status).toBe(401);
        // Even with the right password, from a fresh address: refused before it is checked.
        await expectRefused(await call(t, u, '203.0.113.9'), name);
        // Another account is not affected.
        const other = await createUser(t);
        expect((await call(t, other, '203.0.113.10')).status).not.toBe(429);
      } finally {
        await t.close();
      }
    },
  );

  it.each(routes)(
    '$name spends from the client address’s budget across accounts',
    async ({ name, call }) => {
      const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
      try {
        const u = await createUser(t);
        for (let i = 0; i < MAX; i++)
          await wrongSignIn(t, `guess-${crypto.randomUUID()}@example.test`, '192.0.2.50');
        await expectRefused(await call(t, u, '192.0.2.50'), name);
        expect((await call(t, u, '192.0.2.51')).status).not.toBe(429);
      } finally {
        await t.close();
      }
    },
  );

  it('counts the code step of a pending two-factor sign-in against the account', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: '5' });
    try {
      const u = await createUser(t); // 1
      const enable = await postJson(
        t,
        '/api/auth/two-factor/enable',
        { password: u.password },
        { cookie: u.cookie, ...from('198.51.100.1') },
      ); // 2
      const { totpURI } = (await enable.json()) as { totpURI: string };
      const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
      const confirm = await postJson(
        t,
        '/api/auth/two-factor/verify-totp',
        { code: totp.generate() },
        { cookie: u.cookie, ...from('198.51.100.2') },
      ); // 3
      expect(confirm.status).toBe(200);
      const start = await postJson(
        t,
        '/api/auth/sign-in/email',
        { email: u.email, password: u.password },
        from('198.51.100.3'),
      ); // 4
      const pending = cookieFrom(start);
      const guess = (ip: string) =>
        postJson(
          t,
          '/api/auth/two-factor/verify-totp',
          { code: '000000' },
          {
            cookie: pending,
            ...from(ip),
          },
        );
      expect((await guess('198.51.100.4')).status).toBe(401); // 5
      await expectRefused(await guess('198.51.100.5'), 'verify-totp');
    } finally {
      await t.close();
    }
  });

  it('DELETE /api/me keeps the account when refused, and the budget is shared with sign-in', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
    try {
      const u = await createUser(t); // 1
      const del = (password: string, ip: string) =>
        t.request('/api/me', {
          method: 'DELETE',
          headers: { cookie: u.cookie, 'content-type': 'application/json', ...from(ip) },
          body: JSON.stringify({ password }),
        });
      expect((await del('wrong one', '198.51.100.1')).status).toBe(400); // 2
      expect((await del('wrong two', '198.51.100.2')).status).toBe(400); // 3
      await expectRefused(await del(u.password, '198.51.100.3'), 'DELETE /api/me');
      await expectRefused(
        await postJson(
          t,
          '/api/auth/sign-in/email',
          { email: u.email, password: u.password },
          from('198.51.100.4'),
        ),
        'sign-in',
      );
      expect((await t.request('/api/me', { headers: { cookie: u.cookie } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
