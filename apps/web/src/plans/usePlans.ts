// The active subscription plans from GET /api/plans, cheapest first. Shared by the landing
// pricing table and the subscription page. When the plans cannot be read, the spec's fallback
// table (§9) is shown instead of an error or an endless 'Loading plans…'.
import type { Plan } from '@sealvault/protocol';
import { FALLBACK_PLANS } from '@sealvault/protocol/plan-rules';
import { useQuery } from '@tanstack/react-query';

export const plansQueryKey = ['plans'] as const;

export function sortPlans(plans: readonly Plan[]): Plan[] {
  return plans.filter((p) => p.is_active).sort((a, b) => a.price_monthly - b.price_monthly);
}

export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    // The client and its schemas load with the first read ([Note: schema-free modules] in
    // packages/protocol/src/index.ts): the landing page shows before any zod schema is built.
    queryFn: () =>
      import('@sealvault/protocol/client')
        .then(({ api }) => api.plans())
        .catch(() => ({ plans: [...FALLBACK_PLANS] })),
    select: (data) => sortPlans(data.plans),
  });
}
