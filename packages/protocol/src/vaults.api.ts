// Typed client for /api/vaults and /api/limits (schemas in vaults.ts and plans.ts).
import { z } from 'zod';
import { requestJson } from './client.ts';
import { limitsSchema } from './plans.ts';
import {
  vaultResponseSchema,
  vaultsResponseSchema,
  type CreateVaultRequest,
  type ReplaceVaultKeyRequest,
} from './vaults.ts';

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const empty = z.null();

export const vaultsApi = {
  limits: () => requestJson(limitsSchema, '/api/limits'),
  list: () => requestJson(vaultsResponseSchema, '/api/vaults'),
  get: (id: string) => requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}`),
  create: (input: CreateVaultRequest) =>
    requestJson(vaultResponseSchema, '/api/vaults', json('POST', input)),
  update: (id: string, input: { name?: string; description?: string }) =>
    requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}`, json('PATCH', input)),
  markAccessed: (id: string) =>
    requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}/access`, {
      method: 'POST',
    }),
  replaceKey: (id: string, input: ReplaceVaultKeyRequest) =>
    requestJson(
      vaultResponseSchema,
      `/api/vaults/${encodeURIComponent(id)}/key`,
      json('PUT', input),
    ),
  remove: (id: string) =>
    requestJson(empty, `/api/vaults/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
