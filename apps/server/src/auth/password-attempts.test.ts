// [Note: password attempt budget] (attempts.ts): every route that checks the account password or
// a second factor spends from the sign-in budget, per account and per client address, and answers
// 429 with the protocol's text when it is spent (issue 15, item 3). A device that has signed in to
// the account before is kept out of the account's counter, so guesses from elsewhere cannot lock
// the owner out ([Note: known devices] in known-device.ts; issue 25, finding 3).
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { errorBodySchema, messages } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, type TestUser } from '../testing/users.ts';

const MAX = 3;
const from = (ip: string) => ({ 'x-sealvault-client-ip': ip });
const KNOWN_DEVICE = /(^|; )((__Secure-)?sealvault\.known_device)=[^;]*/;
/** The same cookies without the known-device one: the session as another device would hold it. */
const elsewhere = (u: TestUser): TestUser => ({
  ...u,
  cookie: u.cookie
    .split('; ')
    .filter((pair) => !pair.includes('known_device='))
    .join('; '),
});

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
        // Even with the right password, from a fresh address and a device that has not signed in
        // to the account: refused before it is checked.
        await expectRefused(await call(t, elsewhere(u), '203.0.113.9'), name);
        // Another account is not affected.
        const other = await createUser(t);
        expect((await call(t, elsewhere(other), '203.0.113.10')).status).not.toBe(429);
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
        // The address's counter holds for a known device too.
        await expectRefused(await call(t, u, '192.0.2.50'), name);
        expect((await call(t, elsewhere(u), '192.0.2.51')).status).not.toBe(429);
      } finally {
        await t.close();
      }
    },
  );

  it('counts the code step of a pending two-factor sign-in against the account', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: '5' });
    try {
      const u = elsewhere(await createUser(t)); // 1
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
      const u = elsewhere(await createUser(t)); // 1
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

const signInFrom = (t: TestApp, u: TestUser, ip: string, cookie = '') =>
  postJson(
    t,
    '/api/auth/sign-in/email',
    { email: u.email, password: u.password },
    { ...from(ip), ...(cookie ? { cookie } : {}) },
  );
const knownDeviceOf = (cookie: string) => KNOWN_DEVICE.exec(cookie)?.[0].replace(/^; /, '') ?? '';

describe('known devices (issue 25, finding 3)', () => {
  it('wrong passwords from anywhere do not lock the owner out of a device that signed in before', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
    try {
      const u = await createUser(t); // 1 on the account; this device is now known
      const device = knownDeviceOf(u.cookie);
      expect(device).not.toBe('');
      for (let i = 0; i < 2 * MAX; i++) await wrongSignIn(t, u.email, `198.51.100.${i + 1}`);
      // A device that never signed in to the account waits, even with the right password.
      await expectRefused(await signInFrom(t, u, '203.0.113.1'), 'sign-in');
      // The owner's device signs in, also from another address, and can use its session.
      const res = await signInFrom(t, u, '203.0.113.2', device);
      expect(res.status).toBe(200);
      const session = cookieFrom(res, device);
      expect((await t.request('/api/me', { headers: { cookie: session } })).status).toBe(200);
      const change = await postJson(
        t,
        '/api/auth/verify-password',
        { password: u.password },
        { cookie: session, ...from('203.0.113.3') },
      );
      expect(change.status).not.toBe(429);
      // DELETE /api/me (our route, not Better Auth's) reads the same cookie.
      const del = await t.request('/api/me', {
        method: 'DELETE',
        headers: { cookie: session, 'content-type': 'application/json', ...from('203.0.113.4') },
        body: JSON.stringify({ password: 'not the password' }),
      });
      expect(del.status).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('a known device has a budget of its own: guesses with its cookie are limited anywhere', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
    try {
      const u = await createUser(t);
      const device = knownDeviceOf(u.cookie);
      const guess = (ip: string) =>
        postJson(
          t,
          '/api/auth/sign-in/email',
          { email: u.email, password: 'wrong password' },
          { cookie: device, ...from(ip) },
        );
      for (let i = 0; i < MAX; i++) expect((await guess(`198.51.100.${i + 1}`)).status).toBe(401);
      await expectRefused(await guess('198.51.100.99'), 'sign-in');
      // The account's own counter was not spent by them: a fresh device still gets its tries.
      expect((await signInFrom(t, u, '203.0.113.1')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('only counts for the account it signed in to, and only when its signature holds', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(MAX) });
    try {
      const victim = await createUser(t);
      const attacker = await createUser(t);
      const own = knownDeviceOf(attacker.cookie);
      const [name = '', value = ''] = own.split('=');
      const [payload = '', signature = ''] = decodeURIComponent(value).split('.');
      for (let i = 1; i < MAX; i++) await wrongSignIn(t, victim.email, `198.51.100.${i}`);
      // The attacker's own known-device cookie does not exempt it on the victim's account.
      await expectRefused(await signInFrom(t, victim, '203.0.113.1', own), 'sign-in');
      // Nor does one naming the victim without a valid signature.
      const forged = Buffer.from(
        JSON.stringify([[victim.id, 'forged-device', Math.floor(Date.now() / 1000)]]),
      ).toString('base64url');
      for (const cookie of [
        `${name}=${forged}.${signature}`,
        `${name}=${payload}.${signature.slice(0, -2)}AA`,
        `${name}=garbage`,
      ])
        await expectRefused(await signInFrom(t, victim, '203.0.113.2', cookie), 'sign-in');
    } finally {
      await t.close();
    }
  });

  it('the cookie is HttpOnly, SameSite=Lax, long-lived, names no secret, and Secure on https', async () => {
    for (const publicUrl of ['http://localhost:3000', 'https://vault.example']) {
      const t = await createTestApp({ PUBLIC_URL: publicUrl });
      try {
        const u = await createUser(t, { email: `owner-${crypto.randomUUID()}@example.test` });
        const res = await signInFrom(t, u, '203.0.113.1');
        const line = res.headers.getSetCookie().find((c) => c.includes('known_device='));
        expect(line).toBeDefined();
        expect(line).toMatch(/; HttpOnly/i);
        expect(line).toMatch(/; SameSite=Lax/i);
        expect(line).toMatch(/; Path=\//i);
        expect(Number(/Max-Age=(\d+)/i.exec(line!)?.[1])).toBeGreaterThan(30 * 24 * 3600);
        if (publicUrl.startsWith('https')) {
          expect(line).toMatch(/^__Secure-sealvault\.known_device=/);
          expect(line).toMatch(/; Secure/i);
        } else {
          expect(line).toMatch(/^sealvault\.known_device=/);
          expect(line).not.toMatch(/; Secure/i);
        }
        const value = decodeURIComponent(line!.split(';')[0]!.split('=').slice(1).join('='));
        const decoded = Buffer.from(value.split('.')[0]!, 'base64url').toString('utf8');
        for (const text of [value, decoded]) {
          expect(text).not.toContain(u.email.split('@')[0]);
          expect(text).not.toContain(u.password);
          expect(text).not.toContain(t.config.auth.secret ?? 'no configured secret');
        }
      } finally {
        await t.close();
      }
    }
  });

  it('is set only once a sign-in completes: not while the second factor is pending', async () => {
    const t = await createTestApp();
    try {
      const u = elsewhere(await createUser(t));
      const enable = await postJson(
        t,
        '/api/auth/two-factor/enable',
        { password: u.password },
        { cookie: u.cookie },
      );
      const { totpURI } = (await enable.json()) as { totpURI: string };
      const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
      const confirm = await postJson(
        t,
        '/api/auth/two-factor/verify-totp',
        { code: totp.generate() },
        { cookie: u.cookie },
      );
      expect(confirm.status).toBe(200);
      const start = await signInFrom(t, u, '203.0.113.1');
      expect(((await start.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(
        true,
      );
      expect(knownDeviceOf(cookieFrom(start))).toBe('');
      // The next time step, so the code is not a replay of the confirmation's.
      const next = totp.generate({ timestamp: Date.now() + 30_000 });
      const finish = await postJson(
        t,
        '/api/auth/two-factor/verify-totp',
        { code: next },
        { cookie: cookieFrom(start), ...from('203.0.113.1') },
      );
      expect(finish.status).toBe(200);
      expect(knownDeviceOf(cookieFrom(finish))).not.toBe('');
    } finally {
      await t.close();
    }
  });
});
