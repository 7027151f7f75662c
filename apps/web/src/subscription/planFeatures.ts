// The feature list of each plan card on the subscription page: its limits, then the plans
// table's feature lines (issue 19; seeded with docs/product.md §2's: 'Priority support' for basic;
// 'Priority support', 'Advanced features' and 'Team collaboration' for pro).
import { formatPlanSize, isUnlimited, type Plan } from '@sealvault/protocol';

export function planFeatures(plan: Plan): string[] {
  return [
    isUnlimited(plan.max_vaults)
      ? 'Unlimited vaults'
      : `Up to ${plan.max_vaults} ${plan.max_vaults === 1 ? 'vault' : 'vaults'}`,
    isUnlimited(plan.max_file_size_mb)
      ? 'Unlimited file size'
      : `${formatPlanSize(plan.max_file_size_mb)} max file size`,
    ...plan.features,
  ];
}

/** Whether the user has come back from the provider's checkout (its redirect adds the order). */
export const isCheckoutReturn = (search: URLSearchParams): boolean =>
  [...search.keys()].some((k) => k.toLowerCase() === 'refno');
