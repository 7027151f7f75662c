// The client side of OPAQUE for server tests ([Note: OPAQUE passwords] in opaque.password.ts): the
// same library calls the web app makes (apps/web/src/auth/opaque.ts), through the real endpoints,
// with a cheap Argon2id (the key stretching is the client's alone; the server cannot tell). Every
// JSON body sent is recorded, so a test can check that no body holds the password.
import * as opaque from '@serenity-kit/opaque';
import {
  opaqueLoginFinishResponseSchema,
  opaqueLoginStartResponseSchema,
  opaqueRegisterFinishResponseSchema,
  opaqueRegisterStartResponseSchema,
  OPAQUE_MOVE_HEADER,
} from '@sealvault/protocol';

await opaque.ready;

/** Far cheaper than the web app's (memory-constrained) stretching, so suites stay fast. */
const keyStretching = { 'argon2id-custom': { iterations: 1, memory: 256, parallelism: 1 } };

type Send = (path: string, init?: RequestInit) => Promise<Response>;

export interface OpaqueClient {
  /** Every JSON body this client sent, in order. */
  bodies: string[];
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Response>;
  /** Registers `password`; the record token that stands in for it as a new password. */
  register: (password: string) => Promise<string>;
  /**
   * An OPAQUE login: the ticket, `legacy` (the account still has a hash), `wrong` (the client
   * found the password wrong, as for an unknown e-mail) or the refusing response (429, 400).
   */
  login: (
    email: string,
    password: string,
    finishOn?: Send,
  ) => Promise<{ ticket: string } | { legacy: true } | { wrong: true } | { refused: Response }>;
  /** A ticket for the password, or throws. */
  ticket: (email: string, password: string) => Promise<string>;
  /** Signs up by OPAQUE: the sign-up response. */
  signUp: (email: string, password: string, name?: string) => Promise<Response>;
  /** Signs in as the web app does: OPAQUE, or the old way (moving the account) when legacy. */
  signIn: (email: string, password: string, cookie?: string) => Promise<Response>;
}

export function opaqueClient(send: Send, cookie = ''): OpaqueClient {
  const bodies: string[] = [];
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, via = send) => {
    const text = JSON.stringify(body);
    bodies.push(text);
    return via(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
      body: text,
    });
  };
  const ok = async (res: Response) => {
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return await res.json();
  };

  const register = async (password: string) => {
    const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({
      password,
    });
    const start = opaqueRegisterStartResponseSchema.parse(
      await ok(await post('/api/auth/opaque/register-start', { registrationRequest })),
    );
    const { registrationRecord } = opaque.client.finishRegistration({
      clientRegistrationState,
      registrationResponse: start.registrationResponse,
      password,
      keyStretching,
    });
    const finish = opaqueRegisterFinishResponseSchema.parse(
      await ok(
        await post('/api/auth/opaque/register-finish', {
          registrationId: start.registrationId,
          registrationRecord,
        }),
      ),
    );
    return finish.recordToken;
  };

  const login: OpaqueClient['login'] = async (email, password, finishOn = send) => {
    const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
    const res = await post('/api/auth/opaque/login-start', { email, startLoginRequest });
    if (!res.ok) return { refused: res };
    const start = opaqueLoginStartResponseSchema.parse(await res.json());
    if ('legacy' in start) return { legacy: true };
    const finished = opaque.client.finishLogin({
      clientLoginState,
      loginResponse: start.loginResponse,
      password,
      keyStretching,
    });
    if (!finished) return { wrong: true };
    const fin = await post(
      '/api/auth/opaque/login-finish',
      { loginId: start.loginId, finishLoginRequest: finished.finishLoginRequest },
      {},
      finishOn,
    );
    if (!fin.ok) return { refused: fin };
    return opaqueLoginFinishResponseSchema.parse(await fin.json());
  };

  return {
    bodies,
    post,
    register,
    login,
    ticket: async (email, password) => {
      const r = await login(email, password);
      if (!('ticket' in r)) throw new Error(`no ticket: ${JSON.stringify(r)}`);
      return r.ticket;
    },
    signUp: async (email, password, name = 'Test User') =>
      post('/api/auth/sign-up/email', { name, email, password: await register(password) }),
    signIn: async (email, password) => {
      const r = await login(email, password);
      if ('ticket' in r) return post('/api/auth/sign-in/email', { email, password: r.ticket });
      if ('legacy' in r) {
        const recordToken = await register(password);
        return post(
          '/api/auth/sign-in/email',
          { email, password },
          { [OPAQUE_MOVE_HEADER]: recordToken },
        );
      }
      if ('refused' in r) return r.refused;
      return Response.json(
        { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
        { status: 401 },
      );
    },
  };
}
