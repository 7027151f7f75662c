// Typed client for /api/vaults and /api/limits (schemas in vaults.ts and plans.ts).
import { z } from 'zod';
import { requestJson, jsonInit } from './client.ts';
import { limitsSchema } from './plans.ts';
import {
  vaultResponseSchema,
  vaultsResponseSchema,
  type CreateVaultRequest,
  type ReplaceVaultKeyRequest,
} from './vaults.ts';

const empty = z.null();

export const vaultsApi = {
  limits: () => requestJson(limitsSchema, '/api/limits'),
  list: () => requestJson(vaultsResponseSchema, '/api/vaults'),
  get: (id: string) => requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}`),
  create: (input: CreateVaultRequest) =>
    requestJson(vaultResponseSchema, '/api/vaults', jsonInit('POST', input)),
  update: (id: string, input: { name?: string; description?: string }) =>
    requestJson(
      vaultResponseSchema,
      `/api/vaults/${encodeURIComponent(id)}`,
      jsonInit('PATCH', input),
    ),
  markAccessed: (id: string) =>
    requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}/access`, {
      method: 'POST',
    }),
  replaceKey: (id: string, input: ReplaceVaultKeyRequest) =>
    requestJson(
      vaultResponseSchema,
      `/api/vaults/${encodeURIComponent(id)}/key`,
      jsonInit('PUT', input),
    ),
  remove: (id: string) =>
    requestJson(empty, `/api/vaults/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
