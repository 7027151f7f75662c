// Typed client for /api/vaults/:vaultId/secrets (schemas in secrets.ts).
import { z } from 'zod';
import { ApiError, apiErrorFrom, requestJson, jsonInit } from './client.ts';
import {
  secretConflictSchema,
  secretResponseSchema,
  secretsResponseSchema,
  type CreateSecretRequest,
  type SecretRecord,
  type UpdateSecretRequest,
} from './secrets.ts';

const base = (vaultId: string) => `/api/vaults/${encodeURIComponent(vaultId)}/secrets`;

/** Thrown when another tab or device saved the secret first; `current` is what is stored now. */
export class SecretConflictError extends ApiError {
  constructor(
    message: string,
    readonly current: SecretRecord,
  ) {
    super(409, 'conflict', message);
    this.name = 'SecretConflictError';
  }
}

export const secretsApi = {
  list: (vaultId: string) => requestJson(secretsResponseSchema, base(vaultId)),
  create: (vaultId: string, input: CreateSecretRequest) =>
    requestJson(secretResponseSchema, base(vaultId), jsonInit('POST', input)),
  async update(vaultId: string, secretId: string, input: UpdateSecretRequest) {
    const res = await fetch(`${base(vaultId)}/${encodeURIComponent(secretId)}`, {
      ...jsonInit('PUT', input),
      credentials: 'same-origin',
    });
    if (res.status === 409) {
      const body = secretConflictSchema.safeParse(
        await res
          .clone()
          .json()
          .catch(() => null),
      );
      if (body.success) throw new SecretConflictError(body.data.error.message, body.data.current);
    }
    if (!res.ok) throw await apiErrorFrom(res);
    return secretResponseSchema.parse(await res.json());
  },
  remove: (vaultId: string, secretId: string) =>
    requestJson(z.null(), `${base(vaultId)}/${encodeURIComponent(secretId)}`, { method: 'DELETE' }),
};
