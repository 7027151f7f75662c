// The connection of the cloud account a files vault lives in, as the vault's page sees it
// (issue 26; docs/product.md §2 "File browser", "A cloud connection lost while a vault is open").
// A vault on Google Drive or Dropbox opens only with its account connected (UnlockDialog.tsx),
// but the connection can go while the vault is open: the provider no longer accepts the token
// (the user removed SealVault's access, or the provider revoked it) and a silent renewal fails,
// so the storage layer forgets it (storage/cloud/http.ts), or the user disconnects in Settings,
// here or in another tab. The connection store tells every subscriber at once
// (storage/cloud/connections.ts), so the page shows the spec's prompt the moment that happens,
// and once the account is connected again, what failed without it is read again.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ProviderType } from '@sealvault/protocol';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import {
  providerConnection,
  providerInfo,
  useProviderEnv,
  type ConnectionStatus,
} from '../vaults/providers.tsx';
import { cloudIdOf } from './cloudConnection.ts';
import { filesKey } from './useFiles.ts';

/** A vault's cloud account that is not connected here: what the prompt shows. */
export interface LostConnection {
  id: CloudId;
  /** The provider's name, e.g. 'Dropbox'. */
  name: string;
  status: Extract<ConnectionStatus, 'disconnected' | 'connecting' | 'failed'>;
  /** Why the last Connect failed ('failed' only), in Settings' words (cloud/connect.ts). */
  error?: string | undefined;
}

/**
 * The vault's cloud account when it is not connected in this browser, else null (our server, this
 * browser, a connected account, or a provider this server does not offer, which Settings explains).
 * Re-renders on every change of the connection store; when the account is connected again, the
 * vault's file list and folder check are read again.
 */
export function useLostConnection(vaultId: string, provider: ProviderType): LostConnection | null {
  const env = useProviderEnv();
  const qc = useQueryClient();
  const id = cloudIdOf(provider);
  const status = id ? providerConnection(provider, env) : 'connected';
  const lost = status === 'disconnected' || status === 'connecting' || status === 'failed';
  const wasLost = useRef(lost);
  useEffect(() => {
    if (wasLost.current && status === 'connected') {
      void qc.invalidateQueries({ queryKey: filesKey(vaultId) });
      void qc.invalidateQueries({ queryKey: ['cloud-blobs', vaultId] });
      void qc.invalidateQueries({ queryKey: ['secrets', vaultId] }); // a secrets vault's log (ADR 0008)
    }
    wasLost.current = lost;
  }, [lost, status, qc, vaultId]);
  if (!id || !lost) return null;
  const passing = connections.passing(id);
  return {
    id,
    name: providerInfo(provider).name,
    status,
    error: passing?.status === 'failed' ? passing.error : undefined,
  };
}
