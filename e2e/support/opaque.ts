// OPAQUE from the e2e helpers (docs/auth.md "OPAQUE"): the web app's own library calls
// (apps/web/src/auth/opaque.ts), made here in Node through the page's or the test's API request
// context, so accounts made through the API sign in through the UI alike. Same key stretching as
// the web app (the library's default): a record made here opens there.
import * as opaque from '@serenity-kit/opaque';
import type { APIRequestContext, APIResponse } from '@playwright/test';

await opaque.ready;

const post = (request: APIRequestContext, origin: string, path: string, data: unknown) =>
  request.post(path, { headers: { origin }, data });

async function json<T>(res: APIResponse): Promise<T> {
  if (!res.ok()) throw new Error(`${res.url()}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers `password`; the record token that stands in for it as a new password. */
export async function recordToken(
  request: APIRequestContext,
  origin: string,
  password: string,
): Promise<string> {
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({
    password,
  });
  const start = await json<{ registrationId: string; registrationResponse: string }>(
    await post(request, origin, '/api/auth/opaque/register-start', { registrationRequest }),
  );
  const { registrationRecord } = opaque.client.finishRegistration({
    clientRegistrationState,
    registrationResponse: start.registrationResponse,
    password,
  });
  const finish = await json<{ recordToken: string }>(
    await post(request, origin, '/api/auth/opaque/register-finish', {
      registrationId: start.registrationId,
      registrationRecord,
    }),
  );
  return finish.recordToken;
}

/** Signs up through the API by OPAQUE (the sign-up's answer). */
export async function signUpByApi(
  request: APIRequestContext,
  origin: string,
  user: { name: string; email: string; password: string },
): Promise<APIResponse> {
  return post(request, origin, '/api/auth/sign-up/email', {
    name: user.name,
    email: user.email,
    password: await recordToken(request, origin, user.password),
  });
}

/** Signs in through the API by OPAQUE: the answer of /sign-in/email with the login's ticket. */
export async function signInByApi(
  request: APIRequestContext,
  origin: string,
  email: string,
  password: string,
): Promise<APIResponse> {
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
  const start = await json<{ loginId: string; loginResponse: string }>(
    await post(request, origin, '/api/auth/opaque/login-start', { email, startLoginRequest }),
  );
  const finished = opaque.client.finishLogin({
    clientLoginState,
    loginResponse: start.loginResponse,
    password,
  });
  if (!finished) throw new Error(`wrong password for ${email}`);
  const { ticket } = await json<{ ticket: string }>(
    await post(request, origin, '/api/auth/opaque/login-finish', {
      loginId: start.loginId,
      finishLoginRequest: finished.finishLoginRequest,
    }),
  );
  return post(request, origin, '/api/auth/sign-in/email', { email, password: ticket });
}
