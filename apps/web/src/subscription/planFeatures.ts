// The feature list of each plan card on the subscription page: its limits, then the plans
// table's feature lines (issue 19; seeded with docs/product.md §2's: 'Priority support' for basic;
// 'Priority support', 'Advanced features' and 'Team collaboration' for pro).
import { formatPlanSize, isUnlimited, type Plan } from '@sealvault/protocol';
import { formatNumber } from '../i18n/format.ts';
import { i18n } from '../i18n/i18n.ts';

/** In the language shown now: call it when rendering. */
export function planFeatures(plan: Plan): string[] {
  const count = formatNumber(plan.max_vaults);
  return [
    isUnlimited(plan.max_vaults)
      ? i18n.t('Unlimited vaults')
      : plan.max_vaults === 1
        ? i18n.t('Up to {{count}} vault', { count })
        : i18n.t('Up to {{count}} vaults', { count }),
    isUnlimited(plan.max_file_size_mb)
      ? i18n.t('Unlimited file size')
      : i18n.t('{{size}} max file size', { size: formatPlanSize(plan.max_file_size_mb) }),
    ...plan.features.map((f) => i18n.t(f)),
  ];
}

/** Whether the user has come back from the provider's checkout (its redirect adds the order). */
export const isCheckoutReturn = (search: URLSearchParams): boolean =>
  [...search.keys()].some((k) => k.toLowerCase() === 'refno');
