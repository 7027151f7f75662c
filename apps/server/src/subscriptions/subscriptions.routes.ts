// /api/subscription: the signed-in user's plan (docs/product.md §7 remote procedures as endpoints).
//   GET  /               the subscription, its limits (get_user_subscription_limits) and usage
//   POST /upgrade        upgrade_user_subscription: only a switch down to free without payment;
//                        SaaS mode only (404 on a self-hosted instance, plans/saas-only.ts)
//   POST /admin-upgrade  upgrade_user_subscription_admin: admins only, any plan, no payment
//   POST /trial          the account's one trial of a paid plan, from Free (trials.service.ts);
//                        SaaS mode only (404 on a self-hosted instance, plans/saas-only.ts)
import { Hono } from 'hono';
import {
  adminUpgradeRequestSchema,
  trialRequestSchema,
  upgradeRequestSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody } from '../http/validate.ts';
import * as service from './subscriptions.service.ts';
import { startTrial } from './trials.service.ts';
import { saasOnly } from '../plans/saas-only.ts';

export function subscriptionsRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', requireUser())
    .get('/', async (c) => c.json(await service.subscriptionResponse(c.var, c.var.user.id)))
    .post('/upgrade', saasOnly(), async (c) => {
      const { plan_id } = await jsonBody(c, upgradeRequestSchema);
      return c.json(await service.requestPlanChange(c.var, c.var.user.id, plan_id));
    })
    .post('/admin-upgrade', async (c) => {
      const input = await jsonBody(c, adminUpgradeRequestSchema);
      return c.json(await service.adminUpgrade(c.var, c.var.user, input));
    })
    .post('/trial', saasOnly(), async (c) => {
      const { plan_id } = await jsonBody(c, trialRequestSchema);
      return c.json(await startTrial(c.var, c.var.user.id, plan_id));
    });
}
