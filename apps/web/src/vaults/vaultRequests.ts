// The vault list's requests with their schemas (zod, through the protocol's client): the part of
// useVaults.ts that is loaded when first used, beside the request it checks ([Note: schemas
// beside the first read] in useVaults.ts).
import {
  limitsSchema,
  requestJson,
  vaultResponseSchema,
  vaultsApi,
  vaultsResponseSchema,
  type Limits,
  type Vault,
} from '@sealvault/protocol';

/** Checks an answer to GET /api/vaults, already on its way, and gives its vaults. */
export const checkVaultList = async (answer: Promise<Response>): Promise<Vault[]> =>
  (await requestJson(vaultsResponseSchema, '/api/vaults', {}, () => answer)).vaults;

/** Checks an answer to GET /api/limits, already on its way. */
export const checkLimits = (answer: Promise<Response>): Promise<Limits> =>
  requestJson(limitsSchema, '/api/limits', {}, () => answer);

/** Checks an answer to GET /api/vaults/:id (vaultsApi.get's request), already on its way. */
export const checkVault = async (path: string, answer: Promise<Response>): Promise<Vault> =>
  (await requestJson(vaultResponseSchema, path, {}, () => answer)).vault;

export const removeVault = (id: string) => vaultsApi.remove(id);
