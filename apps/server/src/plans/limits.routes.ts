// GET /api/limits: the signed-in user's plan limits (docs/product.md §3 "Limits") and storage used.
import { Hono } from 'hono';
import type { Limits } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { getLimits, storageUsed } from './limits.service.ts';

export function limitsRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().use('*', requireUser()).get('/', async (c) => {
    const db = c.var.db.kysely;
    const limits = await getLimits(db, c.var.user.id, c.var.logger);
    const used = await storageUsed(db, c.var.user.id);
    return c.json({ ...limits, storage_used_bytes: used } satisfies Limits);
  });
}
