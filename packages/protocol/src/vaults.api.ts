// Typed client for /api/vaults and /api/limits (schemas in vaults.ts, manifest.ts and plans.ts).
import { z } from 'zod';
import { ApiError, requestJson, requestWithConflict, jsonInit } from './client.ts';
import { limitsSchema } from './plans.ts';
import {
  manifestConflictSchema,
  manifestResponseSchema,
  rotateVaultResponseSchema,
  type Manifest,
  type PutManifestRequest,
  type RotateVaultRequest,
} from './manifest.ts';
import {
  vaultResponseSchema,
  vaultsResponseSchema,
  type CreateVaultRequest,
  type ReplaceVaultKeyRequest,
} from './vaults.ts';

const empty = z.null();

/** Thrown when the stored manifest is not the expected version; `current` is the stored one. */
export class ManifestConflictError extends ApiError {
  constructor(
    message: string,
    readonly current: Manifest | null,
  ) {
    super(409, 'conflict', message);
    this.name = 'ManifestConflictError';
  }
}

export const vaultsApi = {
  limits: () => requestJson(limitsSchema, '/api/limits'),
  list: () => requestJson(vaultsResponseSchema, '/api/vaults'),
  get: (id: string) => requestJson(vaultResponseSchema, `/api/vaults/${encodeURIComponent(id)}`),
  create: (input: CreateVaultRequest) =>
    requestJson(vaultResponseSchema, '/api/vaults', jsonInit('POST', input)),
  update: (id: string, input: { name?: string; description?: string; storage_folder?: string }) =>
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
  /** The vault's manifest, or null while it has none. */
  manifest: (id: string) =>
    requestJson(manifestResponseSchema, `/api/vaults/${encodeURIComponent(id)}/manifest`),
  /**
   * Compare-and-swap write of the next manifest. A lost race throws ManifestConflictError with
   * the stored manifest; the caller re-reads, re-checks, re-applies its change and tries again.
   */
  putManifest: (id: string, input: PutManifestRequest) =>
    requestWithConflict(
      manifestResponseSchema,
      `/api/vaults/${encodeURIComponent(id)}/manifest`,
      jsonInit('PUT', input),
      manifestConflictSchema,
      (c) => new ManifestConflictError(c.error.message, c.current),
    ),
  /** Key rotation in one request (ADR 0007): the new key, every record re-wrapped, the manifest. */
  rotate: (id: string, input: RotateVaultRequest) =>
    requestJson(
      rotateVaultResponseSchema,
      `/api/vaults/${encodeURIComponent(id)}/rotate`,
      jsonInit('POST', input),
    ),
  remove: (id: string) =>
    requestJson(empty, `/api/vaults/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
