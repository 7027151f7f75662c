// The feature list of each plan card on the subscription page (spec §2: 'Priority support' for
// basic; 'Priority support', 'Advanced features' and 'Team collaboration' for pro).
import { formatPlanSize, isUnlimited, type Plan } from '@sealvault/protocol';

export function planFeatures(plan: Plan): string[] {
  const features = [
    isUnlimited(plan.max_vaults)
      ? 'Unlimited vaults'
      : `Up to ${plan.max_vaults} ${plan.max_vaults === 1 ? 'vault' : 'vaults'}`,
    isUnlimited(plan.max_file_size_mb)
      ? 'Unlimited file size'
      : `${formatPlanSize(plan.max_file_size_mb)} max file size`,
    'End-to-end AES-256 encryption',
  ];
  if (plan.id === 'basic') features.push('Priority support');
  if (plan.id === 'pro')
    features.push(
      'Priority support',
      'Advanced features',
      'Team collaboration',
      'Hide vaults from your dashboard',
    );
  if (plan.id === 'unlimited') features.push('Priority support');
  return features;
}

/** Whether the user has come back from the provider's checkout (its redirect adds the order). */
export const isCheckoutReturn = (search: URLSearchParams): boolean =>
  [...search.keys()].some((k) => k.toLowerCase() === 'refno');
