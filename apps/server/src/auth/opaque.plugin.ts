// The OPAQUE endpoints (RFC 9807 §5–6; [Note: OPAQUE passwords] in opaque.password.ts), a Better
// Auth plugin under /api/auth/opaque/*. Registration: register-start evaluates the OPRF on the
// client's blinded password under a fresh record id (the OPAQUE user identifier), register-finish
// stores the client's record and answers a one-time record token. Login: login-start spends one
// attempt of the budget, evaluates the OPRF against the account's record (or, for an e-mail with
// no OPAQUE record, against the library's fake record, so both answers look alike) and keeps the
// server's state in the database; login-finish checks the client's key confirmation and answers a
// ticket. Nothing here sees the password or anything a password can be tested against offline
// without the server setup.
import { createHmac } from 'node:crypto';
import * as opaque from '@serenity-kit/opaque';
import type { BetterAuthPlugin, GenericEndpointContext } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import {
  opaqueLoginFinishBodySchema,
  opaqueLoginStartBodySchema,
  opaqueRegisterFinishBodySchema,
  opaqueRegisterStartBodySchema,
} from '@sealvault/protocol';
import type { Db } from '../db/database.ts';
import type { AttemptBudget } from './attempts.ts';
import { opaqueRequired } from './opaque.password.ts';
import { randomId, recordIdOf, type OpaqueStore } from './opaque.store.ts';
import { spendPasswordAttempt } from './password-guard.ts';

await opaque.ready;

export interface OpaqueDeps {
  db: Db;
  store: OpaqueStore;
  serverSetup: string;
  /** The auth secret: keys the fake identifiers of unknown e-mails. */
  secret: string;
  budget: AttemptBudget;
  now?: () => number;
}

const invalidCredentials = () =>
  APIError.from('UNAUTHORIZED', {
    code: 'INVALID_EMAIL_OR_PASSWORD',
    message: 'Invalid email or password',
  });

/** Runs a library call on client input; a malformed message is a 400, never a 500. */
function parsed<T>(run: () => T): T {
  try {
    return run();
  } catch {
    throw APIError.from('BAD_REQUEST', { code: 'INVALID_OPAQUE_MESSAGE', message: 'Bad request' });
  }
}

export function opaquePlugin({
  db,
  store,
  serverSetup,
  secret,
  budget,
  now = Date.now,
}: OpaqueDeps) {
  /** The record the e-mail's account names, or null (unknown e-mail, Google only) or 'legacy'. */
  const recordOf = async (ctx: GenericEndpointContext, email: string) => {
    const found = await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase(), {
      includeAccounts: true,
    });
    const credential = found?.accounts.find(
      (a) => a.providerId === 'credential' && a.accountId === found.user.id,
    );
    if (!found || !credential?.password) return { user: null, recordId: null };
    const recordId = recordIdOf(credential.password);
    if (!recordId) return { user: found.user, recordId: 'legacy' as const };
    return { user: found.user, recordId };
  };

  /**
   * A stable identifier per unknown e-mail, so its fake record answers alike every time. Its
   * `unknown:` prefix keeps it apart from every record id (43 base64url characters).
   */
  const fakeIdentifier = (email: string) =>
    `unknown:${createHmac('sha256', secret)
      .update(`sealvault opaque fake v1\0${email.toLowerCase()}`)
      .digest('base64url')}`;

  return {
    id: 'sealvault-opaque',
    endpoints: {
      opaqueRegisterStart: createAuthEndpoint(
        '/opaque/register-start',
        { method: 'POST', body: opaqueRegisterStartBodySchema },
        async (ctx) => {
          const registrationId = randomId();
          const { registrationResponse } = parsed(() =>
            opaque.server.createRegistrationResponse({
              serverSetup,
              userIdentifier: registrationId,
              registrationRequest: ctx.body.registrationRequest,
            }),
          );
          return ctx.json({ registrationId, registrationResponse });
        },
      ),
      opaqueRegisterFinish: createAuthEndpoint(
        '/opaque/register-finish',
        { method: 'POST', body: opaqueRegisterFinishBodySchema },
        async (ctx) => {
          const { registrationId, registrationRecord } = ctx.body;
          // The record is checked by the library when a login first uses it. An id that is taken
          // (a finish sent twice) is refused; nothing is overwritten.
          const recordToken = await store.addRecord(registrationId, registrationRecord, now());
          if (!recordToken) throw opaqueRequired();
          return ctx.json({ recordToken });
        },
      ),
      opaqueLoginStart: createAuthEndpoint(
        '/opaque/login-start',
        { method: 'POST', body: opaqueLoginStartBodySchema },
        async (ctx) => {
          const { email, startLoginRequest } = ctx.body;
          const { user, recordId } = await recordOf(ctx, email);
          // A legacy account signs in the old way (its next sign-in moves it): no attempt here,
          // the password sign-in that follows spends it.
          if (recordId === 'legacy') return ctx.json({ legacy: true as const });
          // [Note: password attempt budget] in attempts.ts: each start is one guess.
          await spendPasswordAttempt(ctx, db, budget, {
            id: user?.id ?? null,
            email,
          });
          // One look-up either way, so an unknown e-mail answers as fast as a known one.
          const record = await store.record(recordId ?? '-');
          const { serverLoginState, loginResponse } = parsed(() =>
            opaque.server.startLogin({
              serverSetup,
              userIdentifier: record && recordId ? recordId : fakeIdentifier(email),
              registrationRecord: record,
              startLoginRequest,
            }),
          );
          const loginId = await store.startLogin(record ? recordId : null, serverLoginState, now());
          return ctx.json({ loginId, loginResponse });
        },
      ),
      opaqueLoginFinish: createAuthEndpoint(
        '/opaque/login-finish',
        { method: 'POST', body: opaqueLoginFinishBodySchema },
        async (ctx) => {
          const login = await store.takeLogin(ctx.body.loginId, now());
          if (!login) throw invalidCredentials();
          try {
            opaque.server.finishLogin({
              serverLoginState: login.state,
              finishLoginRequest: ctx.body.finishLoginRequest,
            });
          } catch {
            throw invalidCredentials();
          }
          if (!login.recordId) throw invalidCredentials();
          return ctx.json({ ticket: await store.issueTicket(login.recordId, now()) });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
