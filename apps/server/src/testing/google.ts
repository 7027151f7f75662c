// Google sign-in in the server's tests: a test app whose Google provider is the local OpenID
// provider (testing/oidc.ts), and the sign-in as the web app starts it, followed through the
// provider to the app's callback as a browser would.
import type { TestApp } from './harness.ts';
import type { Identity, OidcClient, TestOidcProvider } from './oidc.ts';
import { cookieFrom, postJson } from './users.ts';

/** The app's origin in these tests, which the client's redirect URI names. */
export const GOOGLE_TEST_ORIGIN = 'http://localhost:3000';

/** The Google client the tests register at the local provider. */
export const googleTestClient: OidcClient = {
  client_id: 'sealvault-test',
  client_secret: 'sealvault-test-secret',
  redirect_uris: [`${GOOGLE_TEST_ORIGIN}/api/auth/callback/google`],
};

/** The environment of a test app whose Google sign-in is `op`, with googleTestClient. */
export const googleTestEnv = (op: TestOidcProvider): Record<string, string> => ({
  PUBLIC_URL: GOOGLE_TEST_ORIGIN,
  GOOGLE_CLIENT_ID: googleTestClient.client_id,
  GOOGLE_CLIENT_SECRET: googleTestClient.client_secret,
  GOOGLE_ISSUER: op.issuer,
});

/**
 * Signs in with Google as `who`: where the app's callback sends the browser, its `error` code if
 * any, and the cookies it ends with (a session's if one was made).
 */
export async function googleSignIn(
  t: TestApp,
  op: TestOidcProvider,
  who: Identity,
  opts: { errorCallbackURL?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; location: string; error: string | null; cookie: string }> {
  const start = await postJson(
    t,
    '/api/auth/sign-in/social',
    {
      provider: 'google',
      callbackURL: '/dashboard',
      errorCallbackURL: opts.errorCallbackURL ?? '/auth',
    },
    opts.headers ?? {},
  );
  if (start.status !== 200) throw new Error(`sign-in/social: ${start.status}`);
  const { url } = (await start.json()) as { url: string };
  op.loginAs(who);
  const callback = await op.browse(url);
  const appCookie = cookieFrom(start);
  const res = await t.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: appCookie },
    redirect: 'manual',
  });
  const location = res.headers.get('location') ?? '';
  return {
    status: res.status,
    location,
    error: new URL(location, GOOGLE_TEST_ORIGIN).searchParams.get('error'),
    cookie: cookieFrom(res, appCookie),
  };
}
