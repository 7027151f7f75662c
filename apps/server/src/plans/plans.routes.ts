// GET /api/plans: the active subscription plans, public (the landing page prices from it).
import { Hono } from 'hono';
import type { PlansResponse } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { listActivePlans } from './plans.repository.ts';

export function plansRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', async (c) => {
    const plans = await listActivePlans(c.var.db.kysely);
    return c.json({ plans } satisfies PlansResponse);
  });
}
