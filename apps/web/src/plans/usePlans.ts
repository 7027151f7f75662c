// The active subscription plans from GET /api/plans, cheapest first. Shared by the landing
// pricing table and the subscription page. When the plans cannot be read, the spec's fallback
// table (§9) is shown instead of an error or an endless 'Loading plans…'.
import { api, FALLBACK_PLANS, type Plan } from '@sealvault/protocol';
import { useQuery } from '@tanstack/react-query';

export const plansQueryKey = ['plans'] as const;

export function sortPlans(plans: readonly Plan[]): Plan[] {
  return plans.filter((p) => p.is_active).sort((a, b) => a.price_monthly - b.price_monthly);
}

export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: () => api.plans().catch(() => ({ plans: [...FALLBACK_PLANS] })),
    select: (data) => sortPlans(data.plans),
  });
}
