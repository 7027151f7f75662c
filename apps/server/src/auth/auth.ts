// Better Auth on our own database (architecture.md, Server: Auth). E-mail and password with a
// verification mail and a reset mail, Google by OpenID Connect (genericOAuth with discovery, so a
// local provider can stand in for Google in tests), TOTP two-factor with backup codes, database
// sessions in httpOnly cookies, rate limits kept in the database. Mounted at /api/auth/* by
// auth.routes.ts; the HTTP contract the web app uses is written down in docs/auth.md.
import { betterAuth } from 'better-auth';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins/two-factor';
import {
  ACCOUNT_DISABLED_CODE,
  MIN_SIGNUP_PASSWORD_LENGTH,
  adminMessages,
} from '@sealvault/protocol';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { passwordResetMail, verificationMail } from '../mail/templates.ts';
import { ensureProfile } from '../profiles/profiles.repository.ts';
import { runUserDeletion, type UserDeletedHook } from '../profiles/user-deletion.ts';
import { markEarlierTrial } from '../subscriptions/trial-emails.ts';
import {
  passwordChangedBy,
  secondFactorAfterOAuth,
  trimmedName,
  validateNames,
} from './auth.hooks.ts';
import { resolveAuthSecret } from './auth.secret.ts';
import { passkeys, relyingPartyOf } from './passkeys/passkeys.plugin.ts';
import { CLIENT_IP_HEADER } from './client-ip.ts';
import { opaqueHashing, moveLegacyAccount, refusePlainNewPassword } from './opaque.password.ts';
import { opaquePlugin } from './opaque.plugin.ts';
import { resolveOpaqueServerSetup } from './opaque.secret.ts';
import { opaqueStore } from './opaque.store.ts';
import { guardPasswordAttempt, rememberKnownDevice } from './password-guard.ts';
import { revokeResetTokens } from './reset-tokens.ts';
import { refuseReplayedTotp } from './totp-replay.ts';
import {
  gateNewUser,
  guardEmailSignUp,
  keepInviteForOAuth,
  recordInvitationUse,
  type SignupPolicyDeps,
} from './signup-policy.ts';
import { initialPlanOf } from '../plans/plans.config.ts';
import { isDisabled } from '../admin/users.repository.ts';

export const AUTH_BASE_PATH = '/api/auth';
/** Where a verification link lands when the web app did not name a callbackURL itself. */
export const VERIFIED_LANDING = '/auth?verified=1';
export const GOOGLE_PROVIDER_ID = 'google';

export interface AuthDeps {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  /** What deleting an account removes, in order (account-deletion.ts). */
  userDeletion: readonly UserDeletedHook[];
  /**
   * How account passwords are hashed; Better Auth's own (scrypt, N = 16384, r = 16) when absent,
   * as in every server process. Only the in-process test harness passes one (testing/harness.ts,
   * [Note: test password hashing]); nothing in the config can choose it.
   */
  passwordHashing?: PasswordHashing;
  /**
   * Lets sign-up, change and reset take a password in the clear, stored as a legacy hash. Only the
   * test harness passes it (the suites that predate OPAQUE; [Note: OPAQUE passwords]).
   */
  acceptPlainPasswords?: boolean;
}

export interface PasswordHashing {
  hash: (password: string) => Promise<string>;
  verify: (data: { hash: string; password: string }) => Promise<boolean>;
}

export function createAuth({
  config,
  db,
  logger,
  mailer,
  userDeletion,
  passwordHashing,
  acceptPlainPasswords = false,
}: AuthDeps) {
  const { auth: ac, publicUrl } = config;
  const limited = { window: ac.rateLimit.window, max: ac.rateLimit.max };
  const secret = resolveAuthSecret(ac.secret, config.dataDir);
  // [Note: OPAQUE passwords] in opaque.password.ts.
  const opaqueServerSetup = resolveOpaqueServerSetup(ac.opaqueServerSetup, config.dataDir);
  const opaqueRecords = opaqueStore(db);
  // [Note: sign-up policy] in signup-policy.ts. Read at each request, not once here.
  const signupPolicy: SignupPolicyDeps = {
    db,
    mode: () => config.signup.mode,
    now: () => new Date(),
  };
  /** The plan a new account starts on (plans/plans.config.ts): Free, or the instance's own. */
  const initialPlan = () => initialPlanOf(config.plans);

  /**
   * Mail goes out after the answer, not before it: awaiting SMTP would make "known e-mail"
   * answers slower than "unknown e-mail" ones and reveal which addresses are registered.
   */
  const deliver = (message: MailMessage) => {
    mailer.send(message).catch((err: unknown) => {
      logger.error(
        { err: { message: err instanceof Error ? err.message : String(err) } },
        'mail delivery failed',
      );
    });
    return Promise.resolve();
  };

  const ensureProfileOf = async (userId: string) => {
    const user = await db.kysely
      .selectFrom('user')
      .select(['id', 'email', 'name'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (user) await ensureProfile(db.kysely, user, new Date(), initialPlan());
  };

  return betterAuth({
    appName: 'SealVault',
    baseURL: publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [publicUrl],
    database: { db: db.kysely, type: db.kind },
    telemetry: { enabled: false },
    logger: {
      // Better Auth's own messages go to pino at debug level; some of them name an e-mail.
      log: (level, message) => {
        logger[level === 'error' ? 'error' : 'debug']({ source: 'better-auth' }, message);
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: MIN_SIGNUP_PASSWORD_LENGTH, // docs/product.md §5
      maxPasswordLength: 128,
      password: opaqueHashing(opaqueRecords, passwordHashing),
      revokeSessionsOnPasswordReset: true,
      // Every other reset link of the user dies with the old password (reset-tokens.ts).
      onPasswordReset: ({ user }) => revokeResetTokens(db, user.id),
      sendResetPassword: ({ user, url }) => deliver(passwordResetMail(user.email, user.name, url)),
    },
    emailVerification: {
      sendOnSignUp: true,
      // The link only verifies the address; it never starts a session. Whoever opens it (a victim
      // lured to an attacker's own link, too) is not signed in to that account (login CSRF,
      // issue 15 item 6): the landing asks for the password like any sign-in.
      autoSignInAfterVerification: false,
      sendVerificationEmail: ({ user, url }) => {
        const link = new URL(url);
        const callback = link.searchParams.get('callbackURL');
        if (!callback || callback === '/') link.searchParams.set('callbackURL', VERIFIED_LANDING);
        return deliver(verificationMail(user.email, user.name, link.toString()));
      },
    },
    user: {
      deleteUser: {
        enabled: true,
        beforeDelete: (user) =>
          runUserDeletion({ db, userId: user.id, logger, secret }, userDeletion),
      },
    },
    account: {
      accountLinking: {
        enabled: true,
        // A Google identity joins a local account only when Google says its e-mail is verified
        // AND the local account verified that same e-mail (Better Auth's requireLocalEmailVerified,
        // on by default; stated here so it never silently flips). Google is deliberately not a
        // "trusted provider": that would skip the email_verified check.
        requireLocalEmailVerified: true,
        trustedProviders: [],
        allowDifferentEmails: false,
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 10,
      max: 100,
      customRules: {
        '/sign-in/*': limited,
        '/sign-up/*': limited,
        '/request-password-reset': limited,
        '/reset-password': limited,
        '/send-verification-email': limited,
        '/change-password': limited,
        '/two-factor/*': limited,
        '/opaque/*': limited,
        // Read by every page load of the app; a session lookup like any /api/* request's.
        '/get-session': false,
      },
    },
    advanced: {
      cookiePrefix: 'sealvault',
      useSecureCookies: publicUrl.startsWith('https:'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // Errors of browser redirects (an OAuth callback whose state cannot be matched) land on the
    // app's /auth screen with ?error=<code>, never on Better Auth's own error page. An error that
    // is not one of its answers (a database write the full disk refused) is thrown on to the app's
    // handler (http/errors.ts: 503 'storage_full' JSON), not answered with a bare 500.
    onAPIError: { errorURL: `${publicUrl}/auth`, throw: true },
    // Account deletion goes through DELETE /api/me, which insists on the password.
    disabledPaths: ['/delete-user', '/delete-user/callback'],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await validateNames(ctx);
        // [Note: sign-up policy] in signup-policy.ts.
        await guardEmailSignUp(ctx, signupPolicy);
        await keepInviteForOAuth(ctx);
        refusePlainNewPassword(ctx, acceptPlainPasswords);
        // [Note: password attempt budget] in attempts.ts.
        await guardPasswordAttempt(ctx, db, limited);
        // [Note: TOTP replay] in totp-replay.ts.
        await refuseReplayedTotp(ctx, db);
      }),
      after: createAuthMiddleware(async (ctx) => {
        await secondFactorAfterOAuth(ctx);
        const changed = ctx.path === '/change-password' ? passwordChangedBy(ctx) : null;
        if (changed) await revokeResetTokens(db, changed);
        await moveLegacyAccount(ctx, db, opaqueRecords);
        // [Note: known devices] in known-device.ts.
        rememberKnownDevice(ctx);
      }),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => {
            // [Note: sign-up policy] in signup-policy.ts: throws when no account may be made.
            await gateNewUser(user, context, signupPolicy);
            return trimmedName(user);
          },
          after: async (user, context) => {
            await ensureProfile(db.kysely, user, new Date(), initialPlan());
            await recordInvitationUse(user, context, signupPolicy);
            // [Note: one trial per e-mail] in subscriptions/trial-emails.ts.
            await markEarlierTrial(db.kysely, secret, user, new Date());
          },
        },
        update: {
          before: (user) => Promise.resolve(trimmedName(user)),
          after: async (user) => {
            await ensureProfile(db.kysely, user, new Date(), initialPlan());
            await db.kysely
              .updateTable('profiles')
              .set({ full_name: user.name || null, updated_at: new Date().toISOString() })
              .where('id', '=', user.id)
              .execute();
          },
        },
      },
      session: {
        create: {
          // [Note: disabled accounts] in admin/users.service.ts: no session for a disabled
          // account, whichever way it signs in.
          before: async (session) => {
            if (await isDisabled(db.kysely, session.userId))
              throw APIError.from('FORBIDDEN', {
                code: ACCOUNT_DISABLED_CODE,
                message: adminMessages.accountDisabled,
              });
          },
          after: (session) => ensureProfileOf(session.userId),
        },
      },
    },
    plugins: [
      twoFactor({ issuer: 'SealVault' }),
      opaquePlugin({
        db,
        store: opaqueRecords,
        serverSetup: opaqueServerSetup,
        secret,
        budget: limited,
      }),
      passkeys({ db, rp: relyingPartyOf(publicUrl) }),
      genericOAuth({
        config: ac.google
          ? [
              {
                providerId: GOOGLE_PROVIDER_ID,
                name: 'Google',
                clientId: ac.google.clientId,
                clientSecret: ac.google.clientSecret,
                discoveryUrl: `${ac.google.issuer}/.well-known/openid-configuration`,
                requireIdTokenVerification: true,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
                // Signing out of SealVault ends our session only, never the user's Google one.
                disableProviderLogout: true,
              },
            ]
          : [],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
