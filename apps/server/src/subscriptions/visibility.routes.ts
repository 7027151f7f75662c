// PATCH /api/vaults/:vaultId/visibility {is_hidden}: hides a vault from the dashboard or shows it
// again (docs/product.md §4 Vault visibility). Only the Pro plan may hide (docs/product.md §5, checked here, not only in
// the UI); showing a vault again is allowed on every plan. Another user's vault is 404.
import { Hono } from 'hono';
import {
  canHideVaults,
  messages,
  planIdSchema,
  subscriptionMessages,
  vaultIdSchema,
  vaultVisibilityRequestSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import * as vaults from '../vaults/vaults.repository.ts';
import { getVault } from '../vaults/vaults.service.ts';

export function visibilityRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().use('*', requireUser()).patch('/', async (c) => {
    const vaultId = c.req.param('vaultId') ?? '';
    if (!vaultIdSchema.safeParse(vaultId).success) throw notFound(messages.vaults.notFound);
    const { is_hidden } = await jsonBody(c, vaultVisibilityRequestSchema);
    const { db, user } = c.var;
    // One transaction, so a plan change cannot slip between the check and the write.
    await db.kysely.transaction().execute(async (trx) => {
      if (!(await vaults.findVault(trx, user.id, vaultId)))
        throw notFound(messages.vaults.notFound);
      if (is_hidden) {
        const profile = await trx
          .selectFrom('profiles')
          .select('current_plan_id')
          .where('id', '=', user.id)
          .executeTakeFirst();
        const plan = planIdSchema.safeParse(profile?.current_plan_id);
        if (!plan.success || !canHideVaults(plan.data))
          throw new HttpError(403, 'forbidden', subscriptionMessages.hideRequiresPro);
      }
      await vaults.updateVault(trx, user.id, vaultId, {
        is_hidden: is_hidden ? 1 : 0,
        updated_at: c.var.now().toISOString(),
      });
    });
    return c.json({ vault: await getVault(c.var, user.id, vaultId) });
  });
}
