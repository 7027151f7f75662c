// The Better Auth side of [Note: password attempt budget] (attempts.ts): before any route that
// checks the password or a second factor runs, the attempt is counted against the account (or, on
// a device that signed in to it before, against that device: [Note: known devices] in
// known-device.ts) and the client address, and refused with 429 and the protocol's text when
// either is over the budget. After a sign-in, the device is remembered.
import { APIError, getSessionFromCtx } from 'better-auth/api';
import { messages } from '@sealvault/protocol';
import type { Db } from '../db/database.ts';
import { attemptKeys, spendAttempt, type AttemptBudget } from './attempts.ts';
import { CLIENT_IP_HEADER } from './client-ip.ts';
import { isTicket } from './opaque.store.ts';
import type { HookContext } from './auth.hooks.ts';
import {
  KNOWN_DEVICE_COOKIE,
  KNOWN_DEVICE_MAX_AGE,
  knownDeviceOf,
  vouchesForAny,
  withKnownDevice,
} from './known-device.ts';

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

/** The account the attempt is against (its id when known without a lookup), or null. */
async function accountOf(ctx: HookContext): Promise<{ id: string | null; email: string } | null> {
  if (ctx.path === '/sign-in/email') {
    const body: unknown = ctx.body;
    const email = body && typeof body === 'object' && 'email' in body ? body.email : undefined;
    return typeof email === 'string' ? { id: null, email } : null;
  }
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user;
  if (!ctx.path.startsWith('/two-factor/verify-')) return null;
  const userId = await pendingTwoFactorUserId(ctx);
  if (!userId) return null;
  const user = await ctx.context.internalAdapter.findUserById(userId);
  return user ?? null;
}

/** [Note: known devices] The device id, when this browser signed in to the account before. */
async function knownDevice(
  ctx: HookContext,
  account: { id: string | null; email: string } | null,
): Promise<string | null> {
  if (!account) return null;
  const cookie = ctx.getCookie(ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE).name);
  const now = Date.now();
  // Only a cookie that vouches for some account is worth a look-up of the e-mail's user.
  if (!vouchesForAny(cookie, ctx.context.secret, now)) return null;
  const id =
    account.id ?? (await ctx.context.internalAdapter.findUserByEmail(account.email))?.user.id;
  return id ? knownDeviceOf(cookie, ctx.context.secret, id, now) : null;
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
  // [Note: OPAQUE passwords] in opaque.password.ts: the OPAQUE login that issued a ticket spent
  // this attempt at its start; a forged ticket verifies nothing, so it needs no budget either.
  if (carriesTicket(ctx.body)) return;
  await spendPasswordAttempt(ctx, db, budget, await accountOf(ctx));
}

/** True when the body's password (or current password) is an OPAQUE ticket. */
function carriesTicket(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as { password?: unknown; currentPassword?: unknown };
  return isTicket(b.password) || isTicket(b.currentPassword);
}

/** Counts one attempt against the account (or its known device) and the address, or throws 429. */
export async function spendPasswordAttempt(
  ctx: HookContext,
  db: Db,
  budget: AttemptBudget,
  account: { id: string | null; email: string } | null,
): Promise<void> {
  const ip = ctx.request?.headers.get(CLIENT_IP_HEADER) ?? ctx.headers?.get(CLIENT_IP_HEADER);
  const device = await knownDevice(ctx, account);
  const keys = attemptKeys({ email: account?.email, ip, device });
  const outcome = await spendAttempt(db, keys, budget, Date.now());
  if (!outcome.allowed) throw tooManyAttempts(outcome.retryAfter);
}

/**
 * In the after hook: a sign-in that started a session makes this browser a known device of the
 * account ([Note: known devices]). With two-factor on, a password sign-in's session is replaced by
 * the pending challenge in the plugin's after hook (which runs after ours), so only the code step
 * that completes it counts; an OAuth callback of such an account never gets here
 * (secondFactorAfterOAuth redirects first).
 */
export function rememberKnownDevice(ctx: HookContext): void {
  const signedIn = ctx.context.newSession;
  if (!signedIn) return;
  const twoFactor = (signedIn.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled;
  // A password sign-in of a two-factor account is not done until its second step; a passkey
  // sign-in is (it satisfies two-factor: passkeys.plugin.ts).
  if (twoFactor && !ctx.path.startsWith('/two-factor/') && ctx.path !== '/sign-in/passkey') return;
  const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, {
    maxAge: KNOWN_DEVICE_MAX_AGE,
  });
  const value = withKnownDevice(
    ctx.getCookie(cookie.name),
    ctx.context.secret,
    signedIn.user.id,
    Date.now(),
  );
  ctx.setCookie(cookie.name, value, cookie.attributes);
}
