// Storage providers as the wizard, the vault cards, the unlock dialog and Settings show them
// (docs/product.md §3 "Provider", §4 "Provider connection"), and the one place that says which of them are
// connected here and which a new vault may use.
//
// [Note: provider availability]
// - 'server' (this product's own storage) is always connected.
// - 'local' ("This browser") is connected where the browser has the origin private file system.
// - A cloud provider needs this server to have its client id (GET /api/storage-config:
//   storage/cloud/config.ts), then an account connected in this browser
//   (storage/cloud/connections.ts).
// The wizard offers connected providers only, to both kinds of vault: a secrets vault keeps its
// items in its provider too (ADR 0008).
import { useEffect, useSyncExternalStore } from 'react';
import type { ProviderType, VaultType } from '@sealvault/protocol';
import { loadStorageConfig, storageConfigNow } from '../storage/cloud/config.ts';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import { msg } from '../i18n/i18n.ts';
import { PROVIDERS, providerInfo } from './providerInfo.tsx';

// What a vault card shows of a provider (its name and icon) is in providerInfo.tsx, which loads
// none of the connection code below (issue 31: the dashboard's first screen).
export { holderName, PROVIDERS, ProviderIcon, providerInfo } from './providerInfo.tsx';
export type { ProviderInfo } from './providerInfo.tsx';

/** The providers that keep a vault in an account of a cloud service. */
export const CLOUD_PROVIDERS: readonly ProviderType[] = ['googledrive', 'dropbox', 'onedrive'];
export const isCloud = (id: ProviderType) => CLOUD_PROVIDERS.includes(id);

/** A provider's connection in this browser (docs/product.md §4 "Provider connection"). */
export type ConnectionStatus =
  | 'unavailable' // cannot be connected here: no client id on this server, or no OPFS
  | 'disconnected'
  | 'connecting'
  | 'connected'
  | 'failed';

/** What this page knows of the browser and the server; tests pass their own. */
export interface ProviderEnv {
  /** The browser has the origin private file system (OPFS). */
  opfs: boolean;
  /** Cloud providers whose client id this server has. */
  configured: readonly ProviderType[];
  /** Cloud providers with an account connected in this browser. */
  connected: readonly ProviderType[];
  /** Connections being made, or that just failed, in this page. */
  passing?: Partial<Record<ProviderType, ConnectionStatus>>;
}

const CLOUD_IDS: readonly CloudId[] = ['googledrive', 'dropbox', 'onedrive'];

export const browserEnv = (): ProviderEnv => {
  const config = storageConfigNow();
  const passing: Partial<Record<ProviderType, ConnectionStatus>> = {};
  for (const id of CLOUD_IDS) {
    const p = connections.passing(id);
    if (p) passing[id] = p.status;
  }
  return {
    opfs: typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function',
    configured: CLOUD_IDS.filter((id) => config?.[id]),
    connected: CLOUD_IDS.filter((id) => connections.isConnected(id)),
    passing,
  };
};

/**
 * The environment, re-rendering when a connection changes (here or in another tab) and once the
 * server's storage configuration has loaded.
 */
export function useProviderEnv(): ProviderEnv {
  useSyncExternalStore(connections.subscribe, connections.version);
  useEffect(() => {
    void loadStorageConfig().catch(() => undefined);
  }, []);
  return browserEnv();
}

/** Whether `id` is connected here (see [Note: provider availability]). */
export function providerConnection(id: ProviderType, env = browserEnv()): ConnectionStatus {
  if (id === 'server') return 'connected';
  if (id === 'local') return env.opfs ? 'connected' : 'unavailable';
  if (!env.configured.includes(id)) return 'unavailable';
  if (env.connected.includes(id)) return 'connected';
  return env.passing?.[id] ?? 'disconnected';
}

export const texts = {
  notSetUp: msg('Not set up on this server'),
  noOpfs: msg('Not supported in this browser'),
  notConnected: msg('Not connected'),
};

/** The connected state as the 'Available Providers' grid words it (English: show it with t()). */
export function connectionLabel(id: ProviderType, status: ConnectionStatus): string {
  switch (status) {
    case 'connected':
      return id === 'local' ? msg('Available') : msg('Connected');
    case 'unavailable':
      return id === 'local' ? texts.noOpfs : texts.notSetUp;
    case 'connecting':
      return msg('Connecting...');
    case 'failed':
      return msg('Connection Failed');
    case 'disconnected':
      return texts.notConnected;
  }
}

/**
 * Where a vault of `vaultType` on `id` keeps its data, in one line (the wizard's step 3): a
 * secrets vault's items live in its provider as a files vault's files do (ADR 0008). English:
 * show it with t().
 */
export function providerDescription(id: ProviderType, vaultType: VaultType): string {
  const info = providerInfo(id);
  return vaultType === 'files' ? info.description : info.secretsDescription;
}

export type ProviderChoice = { selectable: true } | { selectable: false; reason: string };

/** Whether the wizard may create a vault on `id`, and if not, why (docs/product.md §2 wizard, step 3). */
export function providerChoice(
  id: ProviderType,
  env = browserEnv(),
  _vaultType: VaultType = 'files',
): ProviderChoice {
  const status = providerConnection(id, env);
  if (status === 'connected') return { selectable: true };
  return { selectable: false, reason: connectionLabel(id, status) };
}

/** The providers a new vault may use here. */
export const selectableProviders = (
  env = browserEnv(),
  vaultType: VaultType = 'files',
): ProviderType[] =>
  PROVIDERS.filter((p) => providerChoice(p.id, env, vaultType).selectable).map((p) => p.id);

/**
 * Whether opening a vault of `id` first needs an account connection that is missing (docs/product.md §4
 * "Vault session": a cloud vault needs its connected account).
 */
export const needsConnection = (id: ProviderType, env = browserEnv()): boolean =>
  isCloud(id) && providerConnection(id, env) !== 'connected';
