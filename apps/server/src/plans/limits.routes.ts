// GET /api/limits: the signed-in user's plan limits (spec §3 "Limits").
import { Hono } from 'hono';
import type { Limits } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { getLimits } from './limits.service.ts';

export function limitsRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', requireUser())
    .get('/', async (c) =>
      c.json((await getLimits(c.var.db.kysely, c.var.user.id, c.var.logger)) satisfies Limits),
    );
}
