// Passkeys to sign in (issue 30; docs/auth.md "Passkeys"): a Better Auth plugin on SimpleWebAuthn.
// Settings adds, names, lists and removes them; the sign-in page signs in with one (a button, and
// the browser's autofill: conditional mediation). A passkey sign-in asks user verification, so it
// is two factors in one (possession and a PIN or biometric) and satisfies two-factor: the
// two-factor plugin only intercepts the password sign-in paths.
//
// Each ceremony's challenge lives in Better Auth's verification table under a random identifier,
// named by a signed, httpOnly cookie of 5 minutes, and is consumed (deleted) by the first answer
// that names it, good or bad: a challenge is never used twice.
import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { BetterAuthPlugin, GenericEndpointContext as Ctx } from 'better-auth';
import {
  APIError,
  createAuthEndpoint,
  freshSessionMiddleware,
  sessionMiddleware,
} from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import {
  MAX_PASSKEYS,
  passkeyMessages,
  passkeyRegisterBodySchema,
  passkeyRemoveBodySchema,
  passkeyRenameBodySchema,
  passkeySignInBodySchema,
} from '@sealvault/protocol';
import type { Db } from '../../db/database.ts';
import {
  countPasskeys,
  credentialIdsOf,
  deletePasskey,
  findByCredentialId,
  insertPasskey,
  listPasskeys,
  markUsed,
  otherSignInMethods,
  renamePasskey,
} from './passkeys.repository.ts';

export const PASSKEY_SIGN_IN_PATH = '/sign-in/passkey';
const CHALLENGE_COOKIE = 'webauthn_challenge';
const CHALLENGE_MAX_AGE = 5 * 60;
const TIMEOUT_MS = 120_000;

type Ceremony = 'registration' | 'authentication';

/** The relying party: SealVault's own origin (PUBLIC_URL); its host name is the RP ID. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'SealVault' };
}

const fail = (
  status: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT',
  code: string,
  message: string,
) => new APIError(status, { code, message });

export function passkeys({ db, rp }: { db: Db; rp: RelyingParty }) {
  const q = db.kysely;

  /** Stores the challenge of a ceremony and names it in the signed cookie. */
  const remember = async (ctx: Ctx, ceremony: Ceremony, challenge: string, userId?: string) => {
    const identifier = `webauthn-${generateRandomString(32)}`;
    await ctx.context.internalAdapter.createVerificationValue({
      identifier,
      value: JSON.stringify({ ceremony, challenge, userId: userId ?? null }),
      expiresAt: new Date(Date.now() + CHALLENGE_MAX_AGE * 1000),
    });
    const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, { maxAge: CHALLENGE_MAX_AGE });
    await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
  };

  /** The challenge the cookie names, consumed; null when missing, expired, or another ceremony's. */
  const consume = async (ctx: Ctx, ceremony: Ceremony, userId?: string) => {
    const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
    const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (!identifier) return null;
    ctx.setCookie(cookie.name, '', { ...cookie.attributes, maxAge: 0 });
    const row = await ctx.context.internalAdapter.consumeVerificationValue(identifier);
    if (!row || new Date(row.expiresAt).getTime() < Date.now()) return null;
    const stored = JSON.parse(row.value) as {
      ceremony: Ceremony;
      challenge: string;
      userId: string | null;
    };
    if (stored.ceremony !== ceremony) return null;
    if (userId !== undefined && stored.userId !== userId) return null;
    return stored.challenge;
  };

  return {
    id: 'sealvault-passkeys',
    endpoints: {
      passkeyRegisterOptions: createAuthEndpoint(
        '/passkey/register-options',
        { method: 'POST', use: [freshSessionMiddleware] },
        async (ctx) => {
          const { user } = ctx.context.session;
          const existing = await credentialIdsOf(q, user.id);
          if (existing.length >= MAX_PASSKEYS)
            throw fail('CONFLICT', 'TOO_MANY_PASSKEYS', passkeyMessages.tooMany);
          const options = await generateRegistrationOptions({
            rpName: rp.name,
            rpID: rp.id,
            userName: user.email,
            userDisplayName: user.name || user.email,
            // The WebAuthn user handle: random, not the account id (it is stored on the device).
            attestationType: 'none',
            excludeCredentials: existing.map((c) => ({
              id: c.id,
              transports: c.transports as AuthenticatorTransport[],
            })),
            authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
            timeout: TIMEOUT_MS,
          });
          await remember(ctx, 'registration', options.challenge, user.id);
          return ctx.json(options);
        },
      ),
      passkeyRegister: createAuthEndpoint(
        '/passkey/register',
        { method: 'POST', use: [freshSessionMiddleware], body: passkeyRegisterBodySchema },
        async (ctx) => {
          const { user } = ctx.context.session;
          const challenge = await consume(ctx, 'registration', user.id);
          if (!challenge)
            throw fail('BAD_REQUEST', 'CHALLENGE_NOT_FOUND', passkeyMessages.addFailed);
          let verified;
          try {
            verified = await verifyRegistrationResponse({
              response: ctx.body.response as unknown as RegistrationResponseJSON,
              expectedChallenge: challenge,
              expectedOrigin: rp.origin,
              expectedRPID: rp.id,
              requireUserVerification: true,
            });
          } catch {
            throw fail('BAD_REQUEST', 'REGISTRATION_FAILED', passkeyMessages.addFailed);
          }
          if (!verified.verified)
            throw fail('BAD_REQUEST', 'REGISTRATION_FAILED', passkeyMessages.addFailed);
          const { credential, credentialBackedUp } = verified.registrationInfo;
          if (await findByCredentialId(q, credential.id)) {
            throw fail('CONFLICT', 'PASSKEY_EXISTS', passkeyMessages.alreadyAdded);
          }
          if ((await countPasskeys(q, user.id)) >= MAX_PASSKEYS) {
            throw fail('CONFLICT', 'TOO_MANY_PASSKEYS', passkeyMessages.tooMany);
          }
          const id = randomUUID();
          await insertPasskey(q, {
            id,
            userId: user.id,
            name: ctx.body.name,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            transports: credential.transports ?? [],
            backedUp: credentialBackedUp,
            createdAt: new Date(),
          });
          const added = (await listPasskeys(q, user.id)).find((p) => p.id === id);
          return ctx.json({ passkey: added });
        },
      ),
      passkeyList: createAuthEndpoint(
        '/passkey/list',
        { method: 'GET', use: [sessionMiddleware] },
        async (ctx) => ctx.json({ passkeys: await listPasskeys(q, ctx.context.session.user.id) }),
      ),
      passkeyRename: createAuthEndpoint(
        '/passkey/rename',
        { method: 'POST', use: [sessionMiddleware], body: passkeyRenameBodySchema },
        async (ctx) => {
          const ok = await renamePasskey(
            q,
            ctx.context.session.user.id,
            ctx.body.id,
            ctx.body.name,
          );
          if (!ok) throw fail('NOT_FOUND', 'PASSKEY_NOT_FOUND', passkeyMessages.notFound);
          return ctx.json({ status: true });
        },
      ),
      passkeyRemove: createAuthEndpoint(
        '/passkey/remove',
        { method: 'POST', use: [freshSessionMiddleware], body: passkeyRemoveBodySchema },
        async (ctx) => {
          const userId = ctx.context.session.user.id;
          const mine = await listPasskeys(q, userId);
          if (!mine.some((p) => p.id === ctx.body.id)) {
            throw fail('NOT_FOUND', 'PASSKEY_NOT_FOUND', passkeyMessages.notFound);
          }
          // Removing the last way to sign in is refused (issue 30): no password, no Google, and
          // this is the only passkey.
          if (mine.length === 1 && (await otherSignInMethods(q, userId)) === 0) {
            throw fail('CONFLICT', 'LAST_SIGN_IN_METHOD', passkeyMessages.lastSignInMethod);
          }
          await deletePasskey(q, userId, ctx.body.id);
          return ctx.json({ status: true });
        },
      ),
      passkeySignInOptions: createAuthEndpoint(
        '/passkey/sign-in-options',
        { method: 'POST' },
        async (ctx) => {
          // Discoverable credentials only: the browser offers the passkeys it holds for this site,
          // so the server names no account (and learns none) before the answer.
          const options = await generateAuthenticationOptions({
            rpID: rp.id,
            userVerification: 'required',
            timeout: TIMEOUT_MS,
          });
          await remember(ctx, 'authentication', options.challenge);
          return ctx.json(options);
        },
      ),
      passkeySignIn: createAuthEndpoint(
        PASSKEY_SIGN_IN_PATH,
        { method: 'POST', body: passkeySignInBodySchema },
        async (ctx) => {
          const challenge = await consume(ctx, 'authentication');
          if (!challenge)
            throw fail('BAD_REQUEST', 'CHALLENGE_NOT_FOUND', passkeyMessages.signInFailed);
          const response = ctx.body.response as unknown as AuthenticationResponseJSON;
          const passkey = await findByCredentialId(q, response.id);
          if (!passkey)
            throw fail('UNAUTHORIZED', 'PASSKEY_NOT_FOUND', passkeyMessages.unknownPasskey);
          let verified;
          try {
            verified = await verifyAuthenticationResponse({
              response,
              expectedChallenge: challenge,
              expectedOrigin: rp.origin,
              expectedRPID: rp.id,
              credential: {
                id: passkey.credentialId,
                publicKey: Buffer.from(passkey.publicKey, 'base64url'),
                counter: passkey.counter,
                transports: passkey.transports,
              },
              requireUserVerification: true,
            });
          } catch {
            throw fail('UNAUTHORIZED', 'AUTHENTICATION_FAILED', passkeyMessages.signInFailed);
          }
          if (!verified.verified)
            throw fail('UNAUTHORIZED', 'AUTHENTICATION_FAILED', passkeyMessages.signInFailed);
          const user = await ctx.context.internalAdapter.findUserById(passkey.userId);
          if (!user)
            throw fail('UNAUTHORIZED', 'PASSKEY_NOT_FOUND', passkeyMessages.unknownPasskey);
          await markUsed(q, passkey.id, verified.authenticationInfo.newCounter, new Date());
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({
            redirect: false,
            user: { id: user.id, email: user.email, name: user.name },
          });
        },
      ),
    },
    // Adding a passkey (a challenge, then a credential stored) is held to 30 a minute per address.
    // The rest stays under Better Auth's general limit (100 per 10 s per address): the sign-in
    // page asks for sign-in options on every visit (the autofill's wait) and Settings lists the
    // passkeys on every visit, so counting those at 30 a minute refused page loads to an office
    // behind one address. A sign-in itself is /sign-in/passkey, under the sign-in limit
    // (AUTH_RATE_LIMIT_*).
    rateLimit: [
      {
        pathMatcher: (path: string) =>
          path === '/passkey/register-options' || path === '/passkey/register',
        window: 60,
        max: 30,
      },
    ],
  } satisfies BetterAuthPlugin;
}
