// Server state of the subscription page (TanStack Query): the subscription with its limits and
// usage, the payment configuration, and the plan changes. A change refreshes everything that
// shows the plan: the top bar (/api/me), the limits and the vault list (hidden vaults).
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  subscriptionsApi,
  type PaidPlanId,
  type PlanId,
  type SubscriptionResponse,
} from '@sealvault/protocol';
import { meQueryKey } from '../auth/useAccount.ts';
import { vaultKeysQuery } from '../vaults/useVaults.ts';

export const subscriptionQueryKey = ['subscription'] as const;

/** With `pollMs`, refetches at that interval until `until` holds for the answer. */
export function useSubscription(
  opts: { pollMs?: number; until?: (data: SubscriptionResponse) => boolean } = {},
) {
  const { pollMs, until } = opts;
  return useQuery({
    queryKey: subscriptionQueryKey,
    queryFn: () => subscriptionsApi.get(),
    refetchInterval: (query) => {
      const data = query.state.data;
      return pollMs && !(data && until?.(data)) ? pollMs : false;
    },
  });
}

export function usePaymentsConfig() {
  return useQuery({
    queryKey: ['payments-config'],
    queryFn: () => subscriptionsApi.paymentsConfig(),
    staleTime: Infinity,
  });
}

/** Refreshes every view of the plan after a change. */
export function useRefreshPlan() {
  const qc = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: subscriptionQueryKey }),
        qc.invalidateQueries({ queryKey: meQueryKey }),
        qc.invalidateQueries({ queryKey: vaultKeysQuery.limits }),
        qc.invalidateQueries({ queryKey: vaultKeysQuery.all }),
      ]),
    [qc],
  );
}

export type PlanChange =
  | { kind: 'admin'; planId: PlanId }
  | { kind: 'request'; planId: PlanId }
  | { kind: 'trial'; planId: PaidPlanId };

/**
 * upgrade_user_subscription_admin, upgrade_user_subscription (free, or keeping the plan), or the
 * account's one trial of a paid plan.
 */
export function useChangePlan() {
  const refresh = useRefreshPlan();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: PlanChange) =>
      change.kind === 'admin'
        ? subscriptionsApi.adminUpgrade({ plan_id: change.planId, bypass_payment: true })
        : change.kind === 'trial'
          ? subscriptionsApi.startTrial({ plan_id: change.planId })
          : subscriptionsApi.upgrade({ plan_id: change.planId }),
    onSuccess: async (data) => {
      qc.setQueryData(subscriptionQueryKey, data);
      await refresh();
    },
  });
}
