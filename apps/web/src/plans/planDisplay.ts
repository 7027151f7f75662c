// How a plan reads on screen (docs/product.md §9 Display, §2 Subscription page labels).
import type { Plan, PlanId } from '@sealvault/protocol';
import { isUnlimited } from '@sealvault/protocol/plan-rules';
import { msg } from '../i18n/i18n.ts';

/** The label each paid plan carries on its card (docs/product.md §2, Subscription page). */
export const planBadges: Partial<Record<PlanId, string>> = {
  basic: msg('Most Popular'),
  pro: msg('Professional'),
  unlimited: msg('Best Value'),
};

export const isFreePlan = (plan: Pick<Plan, 'price_monthly'>): boolean => plan.price_monthly === 0;

/** '$0' for free plans, '$4.95' for paid ones; the period is shown beside it. */
export function formatPrice(priceMonthly: number): { amount: string; period: string } {
  if (priceMonthly === 0) return { amount: '$0', period: msg('forever') };
  return { amount: `$${priceMonthly.toFixed(2)}`, period: msg('/month') };
}

/** 'Unlimited' for -1, otherwise the number. */
export const formatVaultLimit = (maxVaults: number): string =>
  isUnlimited(maxVaults) ? msg('Unlimited') : String(maxVaults);
