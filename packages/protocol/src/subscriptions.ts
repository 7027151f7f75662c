// Subscriptions, checkout and vault visibility (docs/product.md §2 Subscription page, §3 user_subscriptions,
// §4 Plan and Vault visibility, §5 Plans, §7 remote procedures and the card payment provider).
// Endpoints: GET /api/subscription, POST /api/subscription/upgrade (upgrade_user_subscription:
// only a switch down to free), POST /api/subscription/admin-upgrade
// (upgrade_user_subscription_admin), GET /api/payments/config, POST /api/payments/checkout,
// POST /api/payments/ipn (the provider's signed notification) and
// PATCH /api/vaults/:vaultId/visibility, and POST /api/subscription/trial (issue 19: a paid plan
// tried once per account, trials.ts).
import { z } from 'zod';
import { limitsSchema, planIdSchema, type PlanId } from './plans.ts';
import { vaultSchema } from './vaults.ts';

/** The plans that are bought through checkout (everything but free). */
export const paidPlanIdSchema = z.enum(['basic', 'pro', 'unlimited']);
export type PaidPlanId = z.infer<typeof paidPlanIdSchema>;

/** Spec §5 "Only Pro may hide vaults": the Pro plan exactly, checked by the server. */
export const canHideVaults = (planId: PlanId): boolean => planId === 'pro';

/**
 * The account's trial of a paid plan (one per account, TRIAL_DAYS long, no card). `outcome`:
 * running; lapsed (it ended without a payment: back to Free, vaults over Free's allowance are
 * read-only, trials.ts); paid (a payment took over); granted (an admin put the account on a plan).
 */
export const trialSchema = z.object({
  plan_id: paidPlanIdSchema,
  started_at: z.string(),
  /** When it ends, or ended (earlier than planned if the plan changed first). */
  ends_at: z.string(),
  outcome: z.enum(['running', 'lapsed', 'paid', 'granted']),
});
export type Trial = z.infer<typeof trialSchema>;

export const subscriptionSchema = z.object({
  plan_id: planIdSchema,
  status: z.literal('active'),
  /** When the current plan started. */
  started_at: z.string(),
  /** End of the paid period (a paid upgrade stores now + 1 month); null without a paid period. */
  current_period_end: z.string().nullable(),
  /** A downgrade scheduled for current_period_end (docs/product.md §2 FAQ), applied by the server's job. */
  pending_plan_id: planIdSchema.nullable(),
  /** The account's trial; null if it never had one (then it may start one from Free). */
  trial: trialSchema.nullable(),
  /**
   * True when the account's e-mail had a trial on an earlier account, deleted since: this one
   * gets none (one trial per e-mail address). Absent from older servers.
   */
  earlier_trial: z.boolean().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/subscription and the answer of every plan change. */
export const subscriptionResponseSchema = z.object({
  subscription: subscriptionSchema,
  limits: limitsSchema,
  vault_count: z.number().int().nonnegative(),
  /** Vaults that only read: over the Free plan's allowance after a trial lapsed (trials.ts). */
  read_only_vaults: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

/** POST /api/subscription/upgrade: without a payment only a switch down to free is allowed. */
export const upgradeRequestSchema = z.object({ plan_id: planIdSchema });
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** POST /api/subscription/trial: starts the account's one trial of a paid plan, from Free. */
export const trialRequestSchema = z.object({ plan_id: paidPlanIdSchema });
export type TrialRequest = z.infer<typeof trialRequestSchema>;

/** POST /api/subscription/admin-upgrade: any plan, admins only, for themselves or a user id. */
export const adminUpgradeRequestSchema = z.object({
  plan_id: planIdSchema,
  bypass_payment: z.literal(true),
  user_id: z.string().min(1).max(100).optional(),
});
export type AdminUpgradeRequest = z.infer<typeof adminUpgradeRequestSchema>;

/** GET /api/payments/config: what the inline cart needs; product codes are public values. */
export const paymentsConfigSchema = z.discriminatedUnion('configured', [
  z.object({ configured: z.literal(false) }),
  z.object({
    configured: z.literal(true),
    merchant_code: z.string(),
    /** The provider's checkout host, e.g. https://secure.2checkout.com. */
    checkout_host: z.string(),
    products: z.record(paidPlanIdSchema, z.string()),
  }),
]);
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/**
 * The page a checkout runs in, `${CHECKOUT_PAGE_PATH}?ref=<reference>`: a document of its own with
 * the provider's script, never an app page ([Note: checkout document], server http/security.ts).
 */
export const CHECKOUT_PAGE_PATH = '/checkout';

/** POST /api/payments/checkout: starts a checkout for one plan. */
export const checkoutRequestSchema = z.object({ plan_id: paidPlanIdSchema });
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({
  /** Our order reference; the cart passes it on and the notification brings it back. */
  reference: z.string(),
  merchant_code: z.string(),
  checkout_host: z.string(),
  plan_id: paidPlanIdSchema,
  product_code: z.string(),
  product_name: z.string(),
  currency: z.literal('USD'),
  return_url: z.string(),
  /** The hidden buy-link fallback (docs/product.md §7), for the same product and reference. */
  buy_link_url: z.string(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** PATCH /api/vaults/:vaultId/visibility. */
export const vaultVisibilityRequestSchema = z.object({ is_hidden: z.boolean() });
export type VaultVisibilityRequest = z.infer<typeof vaultVisibilityRequestSchema>;
export const vaultVisibilityResponseSchema = z.object({ vault: vaultSchema });

/** Texts of this feature. Spec texts are verbatim; the rest are ours (the spec shows none). */
export const subscriptionMessages = {
  hideRequiresPro: 'Upgrade to the Pro plan to hide vaults from your dashboard.',
  // Ours:
  paymentsNotConfigured:
    'Payments are not configured on this server. Please contact the administrator to upgrade your plan.',
  paymentRequired: 'Upgrading to a paid plan requires a payment. Please use Pay Now.',
  unknownUser: 'No user with this id.',
  paymentError: (message: string) =>
    `Payment processing error: ${message}. Please try again or contact support.`,
  overLimit: (count: number, max: number) =>
    `You have ${count} vaults and your plan allows ${max}. Your existing vaults stay available, but you cannot create new ones until you delete some or upgrade.`,
} as const;
