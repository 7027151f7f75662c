// Typed client for /api/vaults/:vaultId/secrets (schemas in secrets.ts). The bulk import's schemas
// are here rather than in secrets.ts: they need manifest.ts, which imports secrets.ts.
import { z } from 'zod';
import { ApiError, apiErrorFrom, requestJson, jsonInit } from './client.ts';
import { manifestConflictSchema, manifestSchema, putManifestRequestSchema } from './manifest.ts';
import { ManifestConflictError } from './vaults.api.ts';
import {
  createSecretRequestSchema,
  secretConflictSchema,
  secretResponseSchema,
  secretsResponseSchema,
  type CreateSecretRequest,
  type SecretRecord,
  type UpdateSecretRequest,
} from './secrets.ts';

/** At most this many secrets in one import (the manifest's own limit, manifest.ts). */
export const IMPORT_MAX_SECRETS = 100_000;

/**
 * POST /api/vaults/:vaultId/secrets/import (issue 20): new secrets (each as a create request, at
 * revision 1) and the vault's next manifest as a compare-and-swap manifest write, stored in one
 * transaction or not at all.
 */
export const importSecretsRequestSchema = z.object({
  secrets: z.array(createSecretRequestSchema).min(1).max(IMPORT_MAX_SECRETS),
  manifest: putManifestRequestSchema,
});
export type ImportSecretsRequest = z.infer<typeof importSecretsRequestSchema>;

/** The answer of an import (201): how many secrets were stored, and the manifest now stored. */
export const importSecretsResponseSchema = z.object({
  imported: z.number().int().nonnegative(),
  manifest: manifestSchema,
});
export type ImportSecretsResponse = z.infer<typeof importSecretsResponseSchema>;

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
  /**
   * Stores every secret and the next manifest at once. A lost manifest race throws
   * ManifestConflictError with the stored manifest; any other refusal an ApiError. Either way
   * nothing was stored.
   */
  async importMany(vaultId: string, input: ImportSecretsRequest) {
    const res = await fetch(`${base(vaultId)}/import`, {
      ...jsonInit('POST', input),
      credentials: 'same-origin',
    });
    if (res.status === 409) {
      const body = manifestConflictSchema.safeParse(
        await res
          .clone()
          .json()
          .catch(() => null),
      );
      if (body.success) throw new ManifestConflictError(body.data.error.message, body.data.current);
    }
    if (!res.ok) throw await apiErrorFrom(res);
    return importSecretsResponseSchema.parse(await res.json());
  },
  remove: (vaultId: string, secretId: string) =>
    requestJson(z.null(), `${base(vaultId)}/${encodeURIComponent(secretId)}`, { method: 'DELETE' }),
};
