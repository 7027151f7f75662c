// Two-factor sign-in with TOTP (RFC 6238) through Better Auth's twoFactor plugin: enrol with the
// password, confirm with a code computed here with otpauth, sign-in then asks for a code, backup
// codes work once each, and disabling needs the password again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, createUser, postJson, signIn } from '../testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => t.request('/api/me', { headers: { cookie } });

/** A code for the period `periods` steps from now (0 = current). */
function codeFor(totpURI: string, periods = 0): string {
  const totp = OTPAuth.URI.parse(totpURI);
  if (!(totp instanceof OTPAuth.TOTP)) throw new Error('not a TOTP URI');
  return totp.generate({ timestamp: Date.now() + periods * totp.period * 1000 });
}

describe('two-factor sign-in with TOTP', () => {
  it('enrols, confirms with a code, then asks for a code at sign-in; backup codes; disabling', async () => {
    const u = await createUser(t, { email: `totp-${crypto.randomUUID()}@example.test` });

    const wrongPw = await postJson(
      t,
      '/api/auth/two-factor/enable',
      { password: 'not-my-password' },
      { cookie: u.cookie },
    );
    expect(wrongPw.status).toBe(400);

    const enable = await postJson(
      t,
      '/api/auth/two-factor/enable',
      { password: u.password },
      { cookie: u.cookie },
    );
    expect(enable.status).toBe(200);
    const { totpURI, backupCodes } = (await enable.json()) as {
      totpURI: string;
      backupCodes: string[];
    };
    const parsed = OTPAuth.URI.parse(totpURI);
    expect(parsed.issuer).toBe('SealVault');
    expect(parsed.label).toBe(u.email);
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);

    // Not enabled until a code confirms it: sign-in still gives a session directly.
    const before = await signIn(t, u.email, u.password);
    expect(((await before.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).not.toBe(
      true,
    );

    const badConfirm = await postJson(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: '000000' },
      { cookie: u.cookie },
    );
    expect(badConfirm.status).toBe(401);
    const confirm = await postJson(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: codeFor(totpURI) },
      { cookie: u.cookie },
    );
    expect(confirm.status).toBe(200);

    // Sign-in now stops at the second factor: no session until a code is given.
    const first = await signIn(t, u.email, u.password);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookieFrom(first);
    expect(pending).not.toContain('session_token=');
    expect((await me(pending)).status).toBe(401);
    const wrong = await postJson(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: '123456' === codeFor(totpURI) ? '654321' : '123456' },
      { cookie: pending },
    );
    expect(wrong.status).toBe(401);
    const second = await postJson(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: codeFor(totpURI, 1) },
      { cookie: pending },
    );
    expect(second.status).toBe(200);
    const session = cookieFrom(second, pending);
    expect(session).toContain('session_token=');
    expect((await me(session)).status).toBe(200);

    // A backup code signs in once.
    const code = backupCodes[0] ?? '';
    const viaBackup = async () => {
      const start = cookieFrom(await signIn(t, u.email, u.password));
      return postJson(t, '/api/auth/two-factor/verify-backup-code', { code }, { cookie: start });
    };
    const backup = await viaBackup();
    expect(backup.status).toBe(200);
    expect((await me(cookieFrom(backup))).status).toBe(200);
    expect((await viaBackup()).status).toBe(401);

    // Disabling needs the password again.
    const noPw = await postJson(
      t,
      '/api/auth/two-factor/disable',
      { password: 'wrong-password' },
      { cookie: session },
    );
    expect(noPw.status).toBe(400);
    const disable = await postJson(
      t,
      '/api/auth/two-factor/disable',
      { password: u.password },
      { cookie: session },
    );
    expect(disable.status).toBe(200);
    const after = await signIn(t, u.email, u.password);
    expect(cookieFrom(after)).toContain('session_token=');
  });
});
