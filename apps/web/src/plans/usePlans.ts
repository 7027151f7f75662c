// The active subscription plans from GET /api/plans, cheapest first. Shared by the landing
// pricing table and, later, the subscription page.
import { api, type Plan } from '@sealvault/protocol';
import { useQuery } from '@tanstack/react-query';

export const plansQueryKey = ['plans'] as const;

export function sortPlans(plans: readonly Plan[]): Plan[] {
  return plans.filter((p) => p.is_active).sort((a, b) => a.price_monthly - b.price_monthly);
}

export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: () => api.plans(),
    select: (data) => sortPlans(data.plans),
  });
}
