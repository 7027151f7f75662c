// [Note: TOTP replay] (totp-replay.ts): each TOTP code works once per account, driven through
// Better Auth's two-factor flow as auth.two-factor.test.ts drives it (issue 15, item 7).
import * as OTPAuth from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn, type TestUser } from '../testing/users.ts';
import { hotp } from './totp-replay.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** The code of the step `periods` steps from now (0 = current). */
function codeFor(totpURI: string, periods = 0): string {
  const totp = OTPAuth.URI.parse(totpURI) as OTPAuth.TOTP;
  return totp.generate({ timestamp: Date.now() + periods * totp.period * 1000 });
}

/** A user with two-factor on (enrolled and confirmed with the current step's code). */
async function withTwoFactor(): Promise<{ u: TestUser; totpURI: string }> {
  const u = await createUser(t);
  const enable = await postJson(
    t,
    '/api/auth/two-factor/enable',
    { password: u.password },
    { cookie: u.cookie },
  );
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const confirm = await postJson(
    t,
    '/api/auth/two-factor/verify-totp',
    { code: codeFor(totpURI, -1) },
    { cookie: u.cookie },
  );
  expect(confirm.status).toBe(200);
  return { u, totpURI };
}

/** Signs in with the password, then finishes with the code. */
async function signInWithCode(u: TestUser, code: string): Promise<Response> {
  const pending = cookieFrom(await signIn(t, u.email, u.password));
  return postJson(t, '/api/auth/two-factor/verify-totp', { code }, { cookie: pending });
}

describe('TOTP codes', () => {
  it('computes the same codes as an authenticator app (RFC 6238)', () => {
    // RFC 6238 Appendix B, SHA-1, 8 digits: T = 59 s → 94287082.
    expect(hotp(Buffer.from('12345678901234567890'), 1, 8)).toBe('94287082');
  });

  it('complete one sign-in only: the same code is refused for a second one', async () => {
    const { u, totpURI } = await withTwoFactor();
    const code = codeFor(totpURI);
    const first = await signInWithCode(u, code);
    expect(first.status).toBe(200);
    expect(cookieFrom(first)).toContain('session_token=');

    const second = await signInWithCode(u, code);
    expect(second.status).toBe(401);
    expect(await second.json()).toMatchObject({ code: 'INVALID_CODE' });
    expect(second.headers.getSetCookie().join()).not.toContain('session_token=');
  });

  it('refuse a code of a step before the last one used, and the confirmation code', async () => {
    const { u, totpURI } = await withTwoFactor(); // confirmed with step -1
    expect((await signInWithCode(u, codeFor(totpURI, -1))).status).toBe(401);
    expect((await signInWithCode(u, codeFor(totpURI, 1))).status).toBe(200);
    expect((await signInWithCode(u, codeFor(totpURI, 0))).status).toBe(401);
  });

  it('accept the code of a later step', async () => {
    const { u, totpURI } = await withTwoFactor();
    expect((await signInWithCode(u, codeFor(totpURI))).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    expect((await signInWithCode(u, codeFor(totpURI))).status).toBe(200);
  });

  it('are per account: another account’s use of its own codes changes nothing', async () => {
    const a = await withTwoFactor();
    const b = await withTwoFactor();
    expect((await signInWithCode(b.u, codeFor(b.totpURI))).status).toBe(200);
    expect((await signInWithCode(a.u, codeFor(a.totpURI))).status).toBe(200);
  });
});
