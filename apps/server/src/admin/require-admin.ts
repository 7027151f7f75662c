// requireAdmin(): the gate of every /api/admin/* route, after requireUser() (the role is the
// profile's, docs/product.md §6). Any other account gets 403 'Admin privileges required' before
// the route reads its body, so a refused request changes nothing.
import type { MiddlewareHandler } from 'hono';
import { messages } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';

export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.var.user.role !== 'admin')
      return c.json(errorBody('forbidden', messages.plans.adminRequired), 403);
    await next();
  };
}
