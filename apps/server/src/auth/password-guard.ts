// The Better Auth side of [Note: password attempt budget] (attempts.ts): before any route that
// checks the password or a second factor runs, the attempt is counted against the account and the
// client address, and refused with 429 and the protocol's text when either is over the budget.
import { APIError, getSessionFromCtx } from 'better-auth/api';
import { messages } from '@sealvault/protocol';
import type { Db } from '../db/database.ts';
import { attemptKeys, spendAttempt, type AttemptBudget } from './attempts.ts';
import { CLIENT_IP_HEADER } from './client-ip.ts';
import type { HookContext } from './auth.hooks.ts';

/** Better Auth routes that verify the account password or a second factor. */
export const PASSWORD_CHECKING_PATHS: ReadonlySet<string> = new Set([
  '/sign-in/email',
  '/verify-password',
  '/change-password',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/two-factor/verify-otp',
]);

const TWO_FACTOR_COOKIE = 'two_factor';

/** The user id of a pending two-factor sign-in (the plugin's signed cookie), if any. */
export async function pendingTwoFactorUserId(ctx: HookContext): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return pending?.value ?? null;
}

/** The e-mail of the account the attempt is against, or null when it names none. */
async function accountEmail(ctx: HookContext): Promise<string | null> {
  if (ctx.path === '/sign-in/email') {
    const body: unknown = ctx.body;
    const email = body && typeof body === 'object' && 'email' in body ? body.email : undefined;
    return typeof email === 'string' ? email : null;
  }
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.email;
  if (!ctx.path.startsWith('/two-factor/verify-')) return null;
  const userId = await pendingTwoFactorUserId(ctx);
  if (!userId) return null;
  const user = await ctx.context.internalAdapter.findUserById(userId);
  return user?.email ?? null;
}

export function tooManyAttempts(retryAfter: number): APIError {
  return new APIError(
    'TOO_MANY_REQUESTS',
    { code: 'TOO_MANY_REQUESTS', message: messages.auth.tooManyRequests },
    { 'X-Retry-After': String(retryAfter) },
  );
}

export async function guardPasswordAttempt(
  ctx: HookContext,
  db: Db,
  budget: AttemptBudget,
): Promise<void> {
  if (!PASSWORD_CHECKING_PATHS.has(ctx.path)) return;
  const ip = ctx.request?.headers.get(CLIENT_IP_HEADER) ?? ctx.headers?.get(CLIENT_IP_HEADER);
  const keys = attemptKeys({ email: await accountEmail(ctx), ip });
  const outcome = await spendAttempt(db, keys, budget, Date.now());
  if (!outcome.allowed) throw tooManyAttempts(outcome.retryAfter);
}
