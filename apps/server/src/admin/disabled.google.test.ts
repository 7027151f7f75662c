// A disabled account cannot come back through Google either ([Note: disabled accounts] in
// users.service.ts): Better Auth's session create hook refuses it at the OAuth callback, which
// lands on /auth with the disabled code and sets no session; enabled again, it signs in.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_DISABLED_CODE, meResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { startOidcProvider, type TestOidcProvider } from '../testing/oidc.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { googleSignIn, googleTestClient, googleTestEnv } from '../testing/google.ts';
import { send } from '../testing/vaults.ts';

let op: TestOidcProvider;
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  op = await startOidcProvider([googleTestClient]);
  t = await createTestApp(googleTestEnv(op));
  admin = await createUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await op.close();
});

const who = {
  sub: crypto.randomUUID(),
  email: `g-${crypto.randomUUID()}@example.test`,
  email_verified: true,
  name: 'Grace Google',
};
const signIn = () => googleSignIn(t, op, who);

it('refuses a disabled account at the Google callback, and lets it in once enabled', async () => {
  const first = await signIn();
  expect(first.location).toBe('/dashboard');
  const me = await t.request('/api/me', { headers: { cookie: first.cookie } });
  const { id } = meResponseSchema.parse(await me.json());

  const off = await send(t, admin.cookie, 'PATCH', `/api/admin/users/${id}`, { disabled: true });
  expect(off.status).toBe(200);
  expect((await t.request('/api/me', { headers: { cookie: first.cookie } })).status).toBe(401);

  const refused = await signIn();
  expect(refused.location).toContain(`error=${ACCOUNT_DISABLED_CODE}`);
  expect(refused.cookie).not.toContain('session_token=');
  expect(
    await t.db.kysely.selectFrom('session').select('id').where('userId', '=', id).execute(),
  ).toEqual([]);

  await send(t, admin.cookie, 'PATCH', `/api/admin/users/${id}`, { disabled: false });
  expect((await signIn()).location).toBe('/dashboard');
});
