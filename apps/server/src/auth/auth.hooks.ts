// Request checks Better Auth does not make on its own: the user's name is the spec's full name
// (required, 1–100 characters after trimming, the same rule as PATCH /api/me), both at sign-up
// and through Better Auth's update-user; and the second factor after a Google sign-in.
import type { createAuthMiddleware } from 'better-auth/api';
import { APIError } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import { MAX_FULL_NAME_LENGTH } from '@sealvault/protocol';

const NAME_PATHS = new Set(['/sign-up/email', '/update-user']);

/** The context of a Better Auth hook (hooks.before / hooks.after in auth.ts). */
export type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

export async function validateNames(ctx: HookContext): Promise<void> {
  if (!NAME_PATHS.has(ctx.path)) return;
  const body: unknown = ctx.body;
  const name = body && typeof body === 'object' && 'name' in body ? body.name : undefined;
  if (name === undefined && ctx.path === '/update-user') return;
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0)
    throw APIError.from('BAD_REQUEST', { code: 'NAME_REQUIRED', message: 'Full name is required' });
  if (trimmed.length > MAX_FULL_NAME_LENGTH)
    throw APIError.from('BAD_REQUEST', {
      code: 'NAME_TOO_LONG',
      message: `Full name must be at most ${MAX_FULL_NAME_LENGTH} characters`,
    });
  return Promise.resolve();
}

/** Stored names are trimmed (databaseHooks.user.create/update.before). */
export function trimmedName<T extends { name?: string }>(user: T): { data: T } {
  return { data: typeof user.name === 'string' ? { ...user, name: user.name.trim() } : user };
}

/** Where a Google sign-in of an account with two-factor on continues: the code step of /auth. */
export const TWO_FACTOR_STEP = '/auth?step=two-factor';
const OAUTH_CALLBACK_PATHS = new Set(['/callback/:id', '/oauth2/callback/:providerId']);
const TWO_FACTOR_COOKIE = 'two_factor';
const TWO_FACTOR_CHALLENGE_SECONDS = 600;

/**
 * Google sign-in asks for the second factor too. Better Auth's two-factor plugin only stops the
 * password sign-in paths, so an OAuth callback of an account with two-factor on would otherwise
 * hand out a full session. Here that session is ended at once and replaced by the plugin's own
 * pending challenge (the same verification values and signed cookie it makes for a password
 * sign-in), and the browser goes to the code step of /auth, remembering where it was going.
 */
export async function secondFactorAfterOAuth(ctx: HookContext): Promise<void> {
  if (!OAUTH_CALLBACK_PATHS.has(ctx.path)) return;
  const signedIn = ctx.context.newSession;
  if (!(signedIn?.user as { twoFactorEnabled?: boolean | null } | undefined)?.twoFactorEnabled)
    return;
  deleteSessionCookie(ctx, true);
  await ctx.context.internalAdapter.deleteSession(signedIn!.session.token);
  ctx.context.setNewSession(null);
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, {
    maxAge: TWO_FACTOR_CHALLENGE_SECONDS,
  });
  const identifier = `2fa-${generateRandomString(20)}`;
  const expiresAt = new Date(Date.now() + TWO_FACTOR_CHALLENGE_SECONDS * 1000);
  await ctx.context.internalAdapter.createVerificationValue({
    value: signedIn!.user.id,
    identifier,
    expiresAt,
  });
  await ctx.context.internalAdapter.createVerificationValue({
    value: '0',
    identifier: `2fa-attempts-${identifier}`,
    expiresAt,
  });
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
  const target = new URL(TWO_FACTOR_STEP, 'http://app.invalid');
  const next = ctx.context.responseHeaders?.get('location') ?? '';
  if (next.startsWith('/') && !next.startsWith('//') && next !== '/dashboard')
    target.searchParams.set('next', next);
  throw ctx.redirect(`${target.pathname}${target.search}`);
}

/** In an after hook of /change-password: the id of the user whose password changed, or null. */
export function passwordChangedBy(ctx: HookContext): string | null {
  const returned: unknown = ctx.context.returned;
  if (!returned || typeof returned !== 'object' || returned instanceof Error) return null;
  const user = 'user' in returned ? returned.user : undefined;
  const id = user && typeof user === 'object' && 'id' in user ? user.id : undefined;
  return typeof id === 'string' ? id : null;
}
