// Plans for one's own instance (issue 33), validated with zod inside config.ts's schema:
// PLANS_MODE = saas (default: the plans, prices, trials and checkout as they are) | self-hosted.
// Self-hosted: new accounts start on DEFAULT_PLAN (by default `unlimited`: no cap on vaults, file
// size, storage or share links), and that plan's limits are the PLAN_MAX_* variables, written to
// its row at every start (plans/instance-plan.ts); an unset one is the plan's seeded value.
import { z } from 'zod';
import { planIdSchema, plansModeSchema, type PlanId } from '@sealvault/protocol';

/** A limit: a whole number of at least 1, or -1 for unlimited. */
const limit = z.coerce
  .number()
  .int('must be a whole number')
  .refine((n) => n === -1 || n >= 1, 'must be -1 (unlimited) or a whole number of at least 1')
  .optional();

export const plansEnv = {
  PLANS_MODE: plansModeSchema.default('saas'),
  DEFAULT_PLAN: planIdSchema.optional(),
  PLAN_MAX_VAULTS: limit,
  PLAN_MAX_FILE_SIZE_MB: limit,
  PLAN_MAX_STORAGE_MB: limit,
  PLAN_MAX_SHARE_LINKS: limit,
  PLAN_MAX_SHARE_MB: limit,
};

type PlansEnv = z.infer<z.ZodObject<typeof plansEnv>>;

/** The limit columns of a plan that configuration may set (-1: unlimited). */
export interface PlanLimits {
  max_vaults: number;
  max_file_size_mb: number;
  max_storage_mb: number;
  max_share_links: number;
  max_share_mb: number;
}

const LIMIT_VARIABLES = {
  max_vaults: 'PLAN_MAX_VAULTS',
  max_file_size_mb: 'PLAN_MAX_FILE_SIZE_MB',
  max_storage_mb: 'PLAN_MAX_STORAGE_MB',
  max_share_links: 'PLAN_MAX_SHARE_LINKS',
  max_share_mb: 'PLAN_MAX_SHARE_MB',
} as const satisfies Record<keyof PlanLimits, keyof PlansEnv>;

export type PlansConfig =
  | { mode: 'saas' }
  | {
      mode: 'self-hosted';
      /** The plan every new account starts on. */
      defaultPlan: PlanId;
      /** The limits configured for it; a missing one keeps the plan's seeded value. */
      limits: Partial<PlanLimits>;
    };

/** Throws an Error naming the variable when a value does not fit the mode. */
export function plansConfigFrom(e: PlansEnv): PlansConfig {
  const limits: Partial<PlanLimits> = {};
  for (const [column, variable] of Object.entries(LIMIT_VARIABLES) as [
    keyof PlanLimits,
    keyof typeof plansEnv,
  ][]) {
    const value = e[variable];
    if (typeof value === 'number') limits[column] = value;
  }
  if (e.PLANS_MODE === 'saas') {
    // In SaaS mode the plans are the product's; a variable that would be ignored is a mistake.
    const stray = [
      ...(e.DEFAULT_PLAN ? ['DEFAULT_PLAN'] : []),
      ...Object.values(LIMIT_VARIABLES).filter((v) => e[v] !== undefined),
    ];
    if (stray.length > 0)
      throw new Error(`${stray.join(', ')}: only read when PLANS_MODE=self-hosted`);
    return { mode: 'saas' };
  }
  return { mode: 'self-hosted', defaultPlan: e.DEFAULT_PLAN ?? 'unlimited', limits };
}

/** The plan a new account starts on: Free in SaaS mode, the operator's otherwise. */
export const initialPlanOf = (config: PlansConfig): PlanId =>
  config.mode === 'self-hosted' ? config.defaultPlan : 'free';
