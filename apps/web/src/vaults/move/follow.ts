// A vault moved on another device (issue 27): the list a page loads next reads the vault's record
// first and, when its provider is no longer the one this page uses, switches to it, so the list
// and everything after it (downloads, uploads, segment reads) go to the new provider.
// The record read is answered, so the list's manifest check uses it instead of reading it again;
// the first list after an unlock passes the record the unlock read (issue 31: one read of the
// vault per list, [Note: early secrets opening] in secrets/earlyOpen.ts).
import type { QueryClient } from '@tanstack/react-query';
import { vaultsApi, type Vault } from '@sealvault/protocol';
import { providerTypeOf, registerVaultStorage } from '../../storage/providers.ts';
import { vaultKeysQuery } from '../useVaults.ts';

/**
 * Switches to the vault's provider if it moved; answers the vault's record (`read` when given,
 * else read now), or `read` (undefined when not given) when the page has not loaded the vault.
 */
export async function followMove(
  qc: QueryClient,
  vaultId: string,
  read?: Vault,
): Promise<Vault | undefined> {
  const known = providerTypeOf(vaultId);
  if (!known) return read; // the page has not loaded the vault: it registers it when it does
  const vault = read ?? (await vaultsApi.get(vaultId)).vault;
  if (vault.provider_type === known) return vault;
  registerVaultStorage(vault);
  void qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
  return vault;
}
