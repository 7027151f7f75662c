// Plans for one's own instance (issue 33; plans/plans.config.ts). In self-hosted mode the
// operator's DEFAULT_PLAN is the plan new accounts start on, and its limits are the PLAN_MAX_*
// variables: at every start they are written to that plan's row, a variable left unset giving
// back the plan's seeded value, so the row always says what the configuration says and every
// reader of limits (limits.service.ts getLimits, GET /api/plans) sees the same numbers. In SaaS
// mode nothing is written.
import type { Kysely } from 'kysely';
import type { PlanId } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import type { PlanLimits, PlansConfig } from './plans.config.ts';
import { SEED_PLANS, SEED_SHARE_LIMITS, SEED_STORAGE_MB } from './plans.seed.ts';

/** A plan's limits as seeded (plans.seed.ts). */
export function seededLimits(planId: PlanId): PlanLimits {
  const plan = SEED_PLANS.find((p) => p.id === planId);
  if (!plan) throw new Error(`unknown plan ${planId}`);
  const [links, shareMb] = SEED_SHARE_LIMITS[planId];
  return {
    max_vaults: plan.max_vaults,
    max_file_size_mb: plan.max_file_size_mb,
    max_storage_mb: SEED_STORAGE_MB[planId],
    max_share_links: links,
    max_share_mb: shareMb,
  };
}

/** The limits the instance's plan gets: the configured ones over the seeded ones. */
export function instanceLimits(config: Extract<PlansConfig, { mode: 'self-hosted' }>): PlanLimits {
  return { ...seededLimits(config.defaultPlan), ...config.limits };
}

/** At start-up, after the migrations (server.ts): the self-hosted plan's limits into its row. */
export async function applyInstancePlan(
  db: Kysely<Database>,
  config: PlansConfig,
  now: Date,
): Promise<void> {
  if (config.mode !== 'self-hosted') return;
  await db
    .updateTable('subscription_plans')
    .set({ ...instanceLimits(config), updated_at: now.toISOString() })
    .where('id', '=', config.defaultPlan)
    .execute();
}
