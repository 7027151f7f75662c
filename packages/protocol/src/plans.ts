// The plan schemas shared by web and server (docs/product.md §3 subscription_plans, §9 limits).
// A limit of -1 means unlimited, for max_vaults, max_file_size_mb, max_storage_mb, max_share_links
// and max_share_mb.
import { z } from 'zod';

// The rules and tables without zod live in planRules.ts ([Note: schema-free modules] in index.ts);
// they are re-exported here so every existing import keeps working.
export * from './planRules.ts';

export const planIdSchema = z.enum(['free', 'basic', 'pro', 'unlimited']);
export type PlanId = z.infer<typeof planIdSchema>;

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  description: z.string(),
  price_monthly: z.number().nonnegative(),
  max_vaults: z.number().int().min(-1),
  max_file_size_mb: z.number().int().min(-1),
  /** Total ciphertext a user may keep in files on this server, in MiB (-1: unlimited). */
  max_storage_mb: z.number().int().min(-1).optional(),
  /** Share links that may be active at once (issue 29; -1: unlimited). */
  max_share_links: z.number().int().min(-1).optional(),
  /** MiB of ciphertext the active share links may hold together (issue 29; -1: unlimited). */
  max_share_mb: z.number().int().min(-1).optional(),
  /** What the plan's card lists beside its limits (the plans table's `features`, issue 19). */
  features: z.array(z.string()),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof planSchema>;

export const plansResponseSchema = z.object({ plans: z.array(planSchema) });
export type PlansResponse = z.infer<typeof plansResponseSchema>;

/** The limits a user has (docs/product.md §3 "Limits", the result of get_user_subscription_limits). */
export const limitsSchema = z.object({
  /** The plan these limits are of (the Free plan has a rule of its own: freePlanAllows). */
  plan_id: planIdSchema.optional(),
  max_vaults: z.number().int().min(-1),
  max_file_size_mb: z.number().int().min(-1),
  plan_name: z.string(),
  /** Total ciphertext a user may keep in files on this server, in MiB (-1: unlimited). */
  max_storage_mb: z.number().int().min(-1).optional(),
  /** Share links that may be active at once (issue 29; -1: unlimited). */
  max_share_links: z.number().int().min(-1).optional(),
  /** MiB of ciphertext the active share links may hold together (issue 29; -1: unlimited). */
  max_share_mb: z.number().int().min(-1).optional(),
  /** Ciphertext bytes the user's files take on this server now (GET /api/limits only). */
  storage_used_bytes: z.number().int().nonnegative().optional(),
});
export type Limits = z.infer<typeof limitsSchema>;
