// A vault moved on another device (issue 27): the list a page loads next reads the vault's record
// first and, when its provider is no longer the one this page uses, switches to it, so the list
// and everything after it (downloads, uploads, segment reads) go to the new provider.
import type { QueryClient } from '@tanstack/react-query';
import { vaultsApi } from '@sealvault/protocol';
import { providerTypeOf, registerVaultStorage } from '../../storage/providers.ts';
import { vaultKeysQuery } from '../useVaults.ts';

export async function followMove(qc: QueryClient, vaultId: string): Promise<void> {
  const known = providerTypeOf(vaultId);
  if (!known) return; // the page has not loaded the vault: it registers it when it does
  const { vault } = await vaultsApi.get(vaultId);
  if (vault.provider_type === known) return;
  registerVaultStorage(vault);
  void qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
}
