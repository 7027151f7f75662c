// OPAQUE from Node for the benches and the server's multi and faults tiers (docs/auth.md
// "OPAQUE"): the web app's library calls (apps/web/src/auth/opaque.ts) over fetch against a
// running server, with the web app's key stretching (the library's default), so an account made
// here signs in through the UI too.
import * as opaque from '@serenity-kit/opaque';

await opaque.ready;

type Headers = Record<string, string>;

async function post(base: string, headers: Headers, path: string, body: unknown) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function ok<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers `password`; the record token that stands in for it as a new password. */
export async function opaqueRecordToken(
  base: string,
  headers: Headers,
  password: string,
): Promise<string> {
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({
    password,
  });
  const start = await ok<{ registrationId: string; registrationResponse: string }>(
    await post(base, headers, '/api/auth/opaque/register-start', { registrationRequest }),
  );
  const { registrationRecord } = opaque.client.finishRegistration({
    clientRegistrationState,
    registrationResponse: start.registrationResponse,
    password,
  });
  const { recordToken } = await ok<{ recordToken: string }>(
    await post(base, headers, '/api/auth/opaque/register-finish', {
      registrationId: start.registrationId,
      registrationRecord,
    }),
  );
  return recordToken;
}

/**
 * An OPAQUE login then /sign-in/email with its ticket: that answer, or the first refusing one
 * (a 429 or 503 of the login's start, say). A wrong password answers 401 as the server would.
 */
export async function opaqueSignIn(
  base: string,
  headers: Headers,
  email: string,
  password: string,
): Promise<Response> {
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
  const start = await post(base, headers, '/api/auth/opaque/login-start', {
    email,
    startLoginRequest,
  });
  if (!start.ok) return start;
  const { loginId, loginResponse } = (await start.json()) as {
    loginId: string;
    loginResponse: string;
  };
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse, password });
  if (!finished) return Response.json({ code: 'INVALID_EMAIL_OR_PASSWORD' }, { status: 401 });
  const fin = await post(base, headers, '/api/auth/opaque/login-finish', {
    loginId,
    finishLoginRequest: finished.finishLoginRequest,
  });
  if (!fin.ok) return fin;
  const { ticket } = (await fin.json()) as { ticket: string };
  return post(base, headers, '/api/auth/sign-in/email', { email, password: ticket });
}
