// Typed client for the subscription, checkout and vault-visibility endpoints (subscriptions.ts).
import { requestJson } from './client.ts';
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

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const subscriptionsApi = {
  get: () => requestJson(subscriptionResponseSchema, '/api/subscription'),
  upgrade: (input: UpgradeRequest) =>
    requestJson(subscriptionResponseSchema, '/api/subscription/upgrade', json('POST', input)),
  startTrial: (input: TrialRequest) =>
    requestJson(subscriptionResponseSchema, '/api/subscription/trial', json('POST', input)),
  adminUpgrade: (input: AdminUpgradeRequest) =>
    requestJson(subscriptionResponseSchema, '/api/subscription/admin-upgrade', json('POST', input)),
  paymentsConfig: () => requestJson(paymentsConfigSchema, '/api/payments/config'),
  checkout: (input: CheckoutRequest) =>
    requestJson(checkoutResponseSchema, '/api/payments/checkout', json('POST', input)),
  setVaultHidden: (vaultId: string, isHidden: boolean) =>
    requestJson(
      vaultVisibilityResponseSchema,
      `/api/vaults/${encodeURIComponent(vaultId)}/visibility`,
      json('PATCH', { is_hidden: isHidden }),
    ),
};
