// OPAQUE for the account password (RFC 9807, issue 30; docs/auth.md "OPAQUE"): the one module of
// the web app that handles the account password on its way to the server. The password stays in
// the browser; what the Better Auth calls carry instead is a ticket (proof of the password, from an
// OPAQUE login) or a record token (a new password, from an OPAQUE registration). The key
// stretching (Argon2id, the library's "memory-constrained" default) runs in the library's WASM in
// a Worker (opaque.worker.ts), in its own chunk so the landing page does not carry it.
import {
  messages,
  opaqueLoginFinishResponseSchema,
  opaqueLoginStartResponseSchema,
  opaqueRegisterFinishResponseSchema,
  opaqueRegisterStartResponseSchema,
  OPAQUE_MOVE_HEADER,
} from '@sealvault/protocol';
import type * as OpaqueLibrary from '@serenity-kit/opaque';
import type { z } from 'zod';
import { authClient } from './authClient.ts';
import type { AuthClientError } from './authErrors.ts';
import { msg } from '../i18n/i18n.ts';

type Failure = { error: AuthClientError };

type Client = (typeof OpaqueLibrary)['client'];
type Op = 'startRegistration' | 'finishRegistration' | 'startLogin' | 'finishLogin';

/** A call to the Worker (opaque.worker.ts) and its answer. */
export interface OpaqueCall {
  id: number;
  op: Op;
  params: unknown;
}
export type OpaqueReply = { id: number; result: unknown } | { id: number; error: string };

/** The library's client calls on this thread (where there is no Worker, as in unit tests). */
let inThread: Promise<Client> | null = null;
const onThisThread = <O extends Op>(op: O, params: Parameters<Client[O]>[0]) =>
  (inThread ??= import('@serenity-kit/opaque').then(async (opaque) => {
    await opaque.ready;
    return opaque.client;
  })).then((client) => (client[op] as (p: typeof params) => ReturnType<Client[O]>)(params));

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

function startWorker(): Worker {
  const w = new Worker(new URL('./opaque.worker.ts', import.meta.url), {
    type: 'module',
    name: 'opaque',
  });
  w.addEventListener('message', (e: MessageEvent<OpaqueReply>) => {
    const call = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (!call) return;
    if ('error' in e.data) call.reject(new Error(e.data.error));
    else call.resolve(e.data.result);
  });
  w.addEventListener('error', () => {
    // A Worker that failed to load: every waiting call fails, the next one starts another.
    for (const call of pending.values()) call.reject(new Error('OPAQUE worker failed'));
    pending.clear();
    worker = null;
  });
  return w;
}

/**
 * One of the library's client calls, in the Worker: the key stretching (Argon2id, about half a
 * second) runs off the page, which stays responsive (its spinner turns).
 */
function run<O extends Op>(
  op: O,
  params: Parameters<Client[O]>[0],
): Promise<ReturnType<Client[O]>> {
  let w: Worker;
  try {
    if (typeof Worker === 'undefined') throw new Error('no Worker');
    w = worker ??= startWorker();
  } catch {
    return onThisThread(op, params);
  }
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    w.postMessage({ id, op, params } satisfies OpaqueCall);
  });
}

// Started (its chunk fetched and compiled) as soon as a screen that asks for the password loads
// (only those import this module), so a sign-in's click pays for the key stretching alone.
if (typeof Worker !== 'undefined') {
  try {
    worker ??= startWorker();
  } catch {
    // Started again at the first call, or the calls run on this thread.
  }
}

/** POSTs to /api/auth/opaque/<path>; the parsed answer, or Better Auth's error with its status. */
async function call<S extends z.ZodType>(
  path: string,
  body: unknown,
  schema: S,
): Promise<{ data: z.infer<S> } | Failure> {
  const res = await fetch(`/api/auth/opaque/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (json ?? {}) as { code?: string; message?: string };
    return { error: { status: res.status, code: e.code, message: e.message } };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { data: parsed.data } : { error: { status: 500 } };
}

/** Registers `password`: the record token that stands in for it as a new password. */
export async function newPasswordToken(password: string): Promise<{ token: string } | Failure> {
  const { clientRegistrationState, registrationRequest } = await run('startRegistration', {
    password,
  });
  const start = await call(
    'register-start',
    { registrationRequest },
    opaqueRegisterStartResponseSchema,
  );
  if ('error' in start) return start;
  const { registrationRecord } = await run('finishRegistration', {
    clientRegistrationState,
    registrationResponse: start.data.registrationResponse,
    password,
  });
  const finish = await call(
    'register-finish',
    { registrationId: start.data.registrationId, registrationRecord },
    opaqueRegisterFinishResponseSchema,
  );
  return 'error' in finish ? finish : { token: finish.data.recordToken };
}

type Login = { ticket: string } | { legacy: true } | { wrong: true } | Failure;

async function login(email: string, password: string): Promise<Login> {
  const { clientLoginState, startLoginRequest } = await run('startLogin', { password });
  const start = await call(
    'login-start',
    { email, startLoginRequest },
    opaqueLoginStartResponseSchema,
  );
  if ('error' in start) return start;
  if ('legacy' in start.data) return { legacy: true };
  // An unknown e-mail and a wrong password end here alike: the server's answer does not open.
  const finished = await run('finishLogin', {
    clientLoginState,
    loginResponse: start.data.loginResponse,
    password,
  });
  if (!finished) return { wrong: true };
  const fin = await call(
    'login-finish',
    { loginId: start.data.loginId, finishLoginRequest: finished.finishLoginRequest },
    opaqueLoginFinishResponseSchema,
  );
  return 'error' in fin ? fin : { ticket: fin.data.ticket };
}

/** What goes in the sign-in's password field, and the headers of that request. */
export type SignInProof = { password: string; headers: Record<string, string> } | Failure;

/**
 * The sign-in's stand-in for the password: a ticket. An account that still has a password hash
 * signs in the old way once, carrying a new record that replaces the hash when it succeeds.
 */
export async function signInProof(email: string, password: string): Promise<SignInProof> {
  const r = await login(email, password);
  if ('ticket' in r) return { password: r.ticket, headers: {} };
  if ('legacy' in r) {
    const record = await newPasswordToken(password);
    if ('error' in record) return record;
    return { password, headers: { [OPAQUE_MOVE_HEADER]: record.token } };
  }
  if ('wrong' in r)
    return {
      error: {
        status: 401,
        code: 'INVALID_EMAIL_OR_PASSWORD',
        message: msg('Invalid email or password'),
      },
    };
  return r;
}

/**
 * The signed-in user's proof of the password for the routes that re-check it (verify-password,
 * change-password, two-factor, account deletion): a ticket, or the password itself while the
 * account still has a legacy hash. A wrong password reads as the server's answer would.
 */
export async function passwordProof(password: string): Promise<{ password: string } | Failure> {
  const { data } = await authClient.getSession();
  if (!data) return { error: { status: 401 } };
  const r = await login(data.user.email, password);
  if ('ticket' in r) return { password: r.ticket };
  if ('legacy' in r) return { password };
  if ('wrong' in r)
    return {
      error: { status: 400, code: 'INVALID_PASSWORD', message: messages.auth.invalidPassword },
    };
  return r;
}
