// The sign-up policy (issue 33, [Note: sign-up policy] in signup-policy.ts) on e-mail sign-up:
// SIGNUP_MODE open, closed and invite; invitations single use, bound to their e-mail, expiring
// and revocable. Google's new accounts are in signup-policy.google.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authConfigResponseSchema,
  createdInvitationSchema,
  signupMessages,
  type SignupMode,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, postJson, signIn } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));

async function appIn(mode: SignupMode): Promise<TestApp> {
  const t = await createTestApp({ SIGNUP_MODE: mode });
  apps.push(t);
  return t;
}

const newEmail = () => `u-${crypto.randomUUID()}@example.test`;

function signUp(t: TestApp, email: string, invite?: string) {
  return postJson(
    t,
    '/api/auth/sign-up/email',
    { email, password: 'correct horse 42', name: 'New User' },
    invite === undefined ? {} : { 'x-sealvault-invite': invite },
  );
}

const userCount = async (t: TestApp, email: string) =>
  (await t.db.kysely.selectFrom('user').select('id').where('email', '=', email).execute()).length;

const authConfig = async (t: TestApp) =>
  authConfigResponseSchema.parse(await (await t.request('/api/auth-config')).json());

describe('SIGNUP_MODE=open (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    apps.push(t);
  });

  it('tells the web app, with the plans mode and nothing secret', async () => {
    const res = await t.request('/api/auth-config');
    expect(await res.json()).toEqual({ google: false, signup: 'open', plans: 'saas' });
  });

  it('lets anyone sign up without an invitation', async () => {
    const email = newEmail();
    expect((await signUp(t, email)).status).toBe(200);
    expect(await userCount(t, email)).toBe(1);
  });
});

describe('SIGNUP_MODE=closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appIn('closed');
  });

  it('is told to the web app', async () => {
    expect((await authConfig(t)).signup).toBe('closed');
  });

  it('refuses every sign-up with 403 and says why, creating no account', async () => {
    const email = newEmail();
    for (const res of [await signUp(t, email), await signUp(t, email, 'A'.repeat(43))]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'SIGNUP_CLOSED',
        message: signupMessages.closed,
      });
    }
    expect(await userCount(t, email)).toBe(0);
    expect(t.mails.filter((m) => m.to === email)).toEqual([]);
  });

  it('still signs an existing account in', async () => {
    // Made while sign-up was open, as before a restart with SIGNUP_MODE=closed.
    t.config.signup.mode = 'open';
    const existing = await createUser(t);
    t.config.signup.mode = 'closed';
    const res = await signIn(t, existing.email, existing.password);
    expect(res.status).toBe(200);
  });
});

describe('SIGNUP_MODE=invite', () => {
  let t: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    t = await appIn('invite');
    // The first admin: made while open, as an operator would before closing sign-up.
    t.config.signup.mode = 'open';
    adminCookie = (await createUser(t, { role: 'admin' })).cookie;
    t.config.signup.mode = 'invite';
  });

  async function invite(body: { email?: string; expires_in_hours?: number } = {}) {
    const res = await send(t, adminCookie, 'POST', '/api/admin/invitations', body);
    expect(res.status).toBe(201);
    return createdInvitationSchema.parse(await res.json());
  }

  const invitationRow = (id: string) =>
    t.db.kysely
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('is told to the web app', async () => {
    expect((await authConfig(t)).signup).toBe('invite');
  });

  it('refuses a sign-up without an invitation, or with one that does not exist, creating nothing', async () => {
    const email = newEmail();
    const none = await signUp(t, email);
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({
      code: 'INVITE_REQUIRED',
      message: signupMessages.inviteRequired,
    });
    for (const token of ['B'.repeat(43), 'not a token']) {
      const res = await signUp(t, email, token);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe(
        token === 'not a token' ? 'INVITE_REQUIRED' : 'INVITE_INVALID',
      );
    }
    expect(await userCount(t, email)).toBe(0);
  });

  it('lets an invitation make one account, once, and records which', async () => {
    const made = await invite();
    const email = newEmail();
    const user = await createUser(t, { email, invite: made.token });
    const row = await invitationRow(made.invitation.id);
    expect(row.used_at).not.toBeNull();
    expect(row.used_by).toBe(user.id);
    // Used: another e-mail cannot have it, nor can the same one again.
    for (const other of [newEmail(), email]) {
      const again = await signUp(t, other, made.token);
      expect(again.status).toBe(403);
      expect(await again.json()).toMatchObject({
        code: 'INVITE_INVALID',
        message: signupMessages.inviteInvalid,
      });
    }
    const res = await send(t, adminCookie, 'GET', '/api/admin/invitations');
    const listed = ((await res.json()) as { invitations: { id: string; status: string }[] })
      .invitations;
    expect(listed.find((i) => i.id === made.invitation.id)?.status).toBe('used');
  });

  it('lets an invitation made for an e-mail be used by that e-mail only', async () => {
    const email = newEmail();
    const made = await invite({ email });
    const stranger = newEmail();
    const refused = await signUp(t, stranger, made.token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('INVITE_INVALID');
    expect(await userCount(t, stranger)).toBe(0);
    // The invited address, in any case, may.
    const res = await signUp(t, email.toUpperCase(), made.token);
    expect(res.status).toBe(200);
    expect(await userCount(t, email)).toBe(1);
  });

  it('refuses an expired invitation', async () => {
    t.clock.now = new Date(Date.now() - 2 * 3_600_000);
    const made = await invite({ expires_in_hours: 1 });
    t.clock.now = new Date();
    const email = newEmail();
    const res = await signUp(t, email, made.token);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('INVITE_INVALID');
    expect(await userCount(t, email)).toBe(0);
  });

  it('accepts an invitation before its expiry', async () => {
    const made = await invite({ expires_in_hours: 1 });
    const email = newEmail();
    expect((await signUp(t, email, made.token)).status).toBe(200);
  });

  it('refuses a revoked invitation', async () => {
    const made = await invite();
    const revoke = await send(
      t,
      adminCookie,
      'DELETE',
      `/api/admin/invitations/${made.invitation.id}`,
    );
    expect(revoke.status).toBe(200);
    const email = newEmail();
    const res = await signUp(t, email, made.token);
    expect(res.status).toBe(403);
    expect(await userCount(t, email)).toBe(0);
  });

  it('answers an already registered e-mail as usual and leaves the invitation open', async () => {
    const made = await invite();
    t.config.signup.mode = 'open';
    const existing = await createUser(t);
    t.config.signup.mode = 'invite';
    const res = await signUp(t, existing.email, made.token);
    // Better Auth's answer to a known e-mail, the same as to a new one (no enumeration).
    expect(res.status).toBe(200);
    expect((await invitationRow(made.invitation.id)).used_at).toBeNull();
    expect(await userCount(t, existing.email)).toBe(1);
  });

  it('gives one account when two sign-ups race for one invitation', async () => {
    const made = await invite();
    const emails = [newEmail(), newEmail(), newEmail()];
    const answers = await Promise.all(emails.map((e) => signUp(t, e, made.token)));
    const created = await Promise.all(emails.map((e) => userCount(t, e)));
    expect(created.reduce((a, b) => a + b, 0)).toBe(1);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect(((await r.json()) as { code: string }).code).toBe('INVITE_INVALID');
    }
  });

  it('still signs an existing account in without an invitation', async () => {
    t.config.signup.mode = 'open';
    const existing = await createUser(t);
    t.config.signup.mode = 'invite';
    expect((await signIn(t, existing.email, existing.password)).status).toBe(200);
  });
});
