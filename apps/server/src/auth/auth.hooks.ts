// Request checks Better Auth does not make on its own: the user's name is the spec's full name
// (required, 1–100 characters after trimming, the same rule as PATCH /api/me), both at sign-up
// and through Better Auth's update-user.
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { MAX_FULL_NAME_LENGTH } from '@sealvault/protocol';

const NAME_PATHS = new Set(['/sign-up/email', '/update-user']);

export const validateNames = createAuthMiddleware(async (ctx) => {
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
});

/** Stored names are trimmed (databaseHooks.user.create/update.before). */
export function trimmedName<T extends { name?: string }>(user: T): { data: T } {
  return { data: typeof user.name === 'string' ? { ...user, name: user.name.trim() } : user };
}
