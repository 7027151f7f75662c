// The storage providers this server offers for new vaults (issue 14). `server` (our blob store,
// ADR 0003) and `local` (the browser's own storage) need nothing from us, so they are always
// offered. The cloud providers need an OAuth client of this server's own (a later issue adds
// GOOGLE_DRIVE_CLIENT_ID, DROPBOX_APP_KEY, ...): until one is configured, a vault on it could
// never be opened, so creation refuses it. offeredProviders is the one place that learns them.
import type { ProviderType } from '@sealvault/protocol';
import type { Config } from '../config.ts';
import { badRequest } from '../http/errors.ts';

const PROVIDER_NAMES: Record<ProviderType, string> = {
  server: 'SealVault storage',
  local: 'This browser',
  googledrive: 'Google Drive',
  dropbox: 'Dropbox',
  onedrive: 'OneDrive',
};

/** The providers a new vault may use on this server (none of the cloud ones is configured yet). */
export function offeredProviders(_config: Config): ReadonlySet<ProviderType> {
  return new Set<ProviderType>(['server', 'local']);
}

/**
 * Refuses (400) a provider this server does not offer. Secrets vaults are checked the same way:
 * their items are kept on this server whatever the provider, but the wizard sends the provider
 * chosen for either kind, and a vault should never name one that cannot be used here.
 */
export function checkProviderOffered(config: Config, provider: ProviderType): void {
  if (!offeredProviders(config).has(provider)) {
    throw badRequest(`${PROVIDER_NAMES[provider]} is not available on this server.`);
  }
}
