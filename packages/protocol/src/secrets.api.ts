// Typed client for /api/vaults/:vaultId/secrets (schemas in secrets.ts). The bulk import's schemas
// are here rather than in secrets.ts: they need manifest.ts, which imports secrets.ts.
import { z } from 'zod';
import { ApiError, requestJson, requestWithConflict, jsonInit } from './client.ts';
import { manifestConflictSchema, manifestSchema, putManifestRequestSchema } from './manifest.ts';
import { ManifestConflictError } from './vaults.api.ts';
import { keyRevisionSchema } from './vaults.ts';
import {
  newSecretSchema,
  removedSecretsResponseSchema,
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
  secrets: z.array(newSecretSchema).min(1).max(IMPORT_MAX_SECRETS),
  manifest: putManifestRequestSchema,
  /** [Note: key revision of a write] in vaults.ts: every secret was made under this one. */
  key_revision: keyRevisionSchema,
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
  update: (vaultId: string, secretId: string, input: UpdateSecretRequest) =>
    requestWithConflict(
      secretResponseSchema,
      `${base(vaultId)}/${encodeURIComponent(secretId)}`,
      jsonInit('PUT', input),
      secretConflictSchema,
      (c) => new SecretConflictError(c.error.message, c.current),
    ),
  /**
   * Stores every secret and the next manifest at once. A lost manifest race throws
   * ManifestConflictError with the stored manifest; any other refusal an ApiError. Either way
   * nothing was stored.
   */
  importMany: (vaultId: string, input: ImportSecretsRequest) =>
    requestWithConflict(
      importSecretsResponseSchema,
      `${base(vaultId)}/import`,
      jsonInit('POST', input),
      manifestConflictSchema,
      (c) => new ManifestConflictError(c.error.message, c.current),
    ),
  remove: (vaultId: string, secretId: string) =>
    requestJson(z.null(), `${base(vaultId)}/${encodeURIComponent(secretId)}`, { method: 'DELETE' }),
  /** ADR 0008: after a vault's items moved to its provider, the server's copies are deleted. */
  removeMoved: (vaultId: string) =>
    requestJson(removedSecretsResponseSchema, base(vaultId), { method: 'DELETE' }),
};
