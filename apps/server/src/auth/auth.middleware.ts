// requireUser(): the gate of every signed-in API route. It reads the Better Auth session from the
// request's cookie and the role from the profile (the single source of truth, docs/product.md §6), and puts
// them on c.var.user; without a valid session it answers 401 'User not authenticated'.
import type { MiddlewareHandler } from 'hono';
import { adminMessages, messages } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';
import { ensureProfile, findProfile } from '../profiles/profiles.repository.ts';
import { initialPlanOf } from '../plans/plans.config.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
}

export function requireUser(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = await c.var.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) return c.json(errorBody('unauthorized', messages.auth.notAuthenticated), 401);
    const { user } = session;
    let profile = await findProfile(c.var.db.kysely, user.id);
    if (!profile) {
      await ensureProfile(c.var.db.kysely, user, c.var.now(), initialPlanOf(c.var.config.plans));
      profile = await findProfile(c.var.db.kysely, user.id);
    }
    // [Note: disabled accounts] in admin/users.service.ts: its sessions were deleted when it was
    // disabled; one that is left (made in that instant) is refused all the same.
    if (profile?.disabled_at)
      return c.json(errorBody('unauthorized', adminMessages.accountDisabled), 401);
    c.set('user', {
      id: user.id,
      email: user.email,
      name: user.name,
      role: profile?.role === 'admin' ? 'admin' : 'user',
    });
    c.set('sessionId', session.session.id);
    await next();
  };
}
