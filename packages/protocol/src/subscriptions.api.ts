// Typed client for the subscription, checkout and vault-visibility endpoints (subscriptions.ts).
import { requestJson, jsonInit } from './client.ts';
import {
  checkoutResponseSchema,
  paymentsConfigSchema,
  subscriptionResponseSchema,
  vaultVisibilityResponseSchema,
  type AdminUpgradeRequest,
  type CheckoutRequest,
  type TrialRequest,
  type UpgradeRequest,
} from './subscriptions.ts';

export const subscriptionsApi = {
  get: () => requestJson(subscriptionResponseSchema, '/api/subscription'),
  upgrade: (input: UpgradeRequest) =>
    requestJson(subscriptionResponseSchema, '/api/subscription/upgrade', jsonInit('POST', input)),
  startTrial: (input: TrialRequest) =>
    requestJson(subscriptionResponseSchema, '/api/subscription/trial', jsonInit('POST', input)),
  adminUpgrade: (input: AdminUpgradeRequest) =>
    requestJson(
      subscriptionResponseSchema,
      '/api/subscription/admin-upgrade',
      jsonInit('POST', input),
    ),
  paymentsConfig: () => requestJson(paymentsConfigSchema, '/api/payments/config'),
  checkout: (input: CheckoutRequest) =>
    requestJson(checkoutResponseSchema, '/api/payments/checkout', jsonInit('POST', input)),
  setVaultHidden: (vaultId: string, isHidden: boolean) =>
    requestJson(
      vaultVisibilityResponseSchema,
      `/api/vaults/${encodeURIComponent(vaultId)}/visibility`,
      jsonInit('PATCH', { is_hidden: isHidden }),
    ),
};
