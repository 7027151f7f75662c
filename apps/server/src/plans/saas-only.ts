// saasOnly(): routes that sell plans (a checkout, a trial) exist in SaaS mode only. On a
// self-hosted instance (PLANS_MODE=self-hosted, plans/plans.config.ts) they answer 404 before
// reading anything, as the web app shows no pricing and no checkout there.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

// Ours (the spec shows none for it).
export const NOT_SOLD_HERE = 'Plans are not sold on this server.';

export function saasOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.var.config.plans.mode !== 'saas') throw notFound(NOT_SOLD_HERE);
    await next();
  };
}
