// The storage providers this server offers for new vaults (issues 14 and 16). `server` (our blob
// store, ADR 0003) and `local` (the browser's own storage) need nothing from us, so they are
// always offered. A cloud provider needs this server's OAuth client id (DROPBOX_APP_KEY,
// GOOGLE_DRIVE_CLIENT_ID: storage/storage.config.ts): without it a vault there could never be
// opened, so creation refuses it. OneDrive has no client yet. offeredProviders is the one place
// that learns them.
import type { CreateVaultRequest, ProviderType } from '@sealvault/protocol';
import type { Config } from '../config.ts';
import { badRequest } from '../http/errors.ts';

const PROVIDER_NAMES: Record<ProviderType, string> = {
  server: 'SealVault storage',
  local: 'This browser',
  googledrive: 'Google Drive',
  dropbox: 'Dropbox',
  onedrive: 'OneDrive',
};

/** The providers a new vault may use on this server. */
export function offeredProviders(config: Config): ReadonlySet<ProviderType> {
  const offered = new Set<ProviderType>(['server', 'local']);
  if (config.storage.dropbox) offered.add('dropbox');
  if (config.storage.googledrive) offered.add('googledrive');
  return offered;
}

/** Providers whose files live in a folder of the user's account: a files vault names it. */
const FOLDER_PROVIDERS: ReadonlySet<ProviderType> = new Set(['dropbox', 'googledrive', 'onedrive']);

/**
 * The folder to record for a new vault: required for a files vault on a cloud provider (the
 * browser made it there before creating the vault), refused for any other vault.
 */
export function checkStorageFolder(input: CreateVaultRequest): string | null {
  const needsFolder = input.vault_type === 'files' && FOLDER_PROVIDERS.has(input.provider_type);
  if (needsFolder && !input.storage_folder)
    throw badRequest(`A ${PROVIDER_NAMES[input.provider_type]} vault needs its folder.`);
  if (!needsFolder && input.storage_folder)
    throw badRequest('Only a files vault on a cloud provider has a folder.');
  return input.storage_folder ?? null;
}

/**
 * Refuses (400) a provider this server does not offer, for either kind of vault: a secrets vault
 * keeps its items in its provider too ([Note: secrets in their provider], secrets.service.ts).
 */
export function checkProviderOffered(config: Config, provider: ProviderType): void {
  if (!offeredProviders(config).has(provider)) {
    throw badRequest(`${PROVIDER_NAMES[provider]} is not available on this server.`);
  }
}
