// The storage providers this server offers for new vaults (issues 14 and 16). `server` (our blob
// store, ADR 0003) and `local` (the browser's own storage) need nothing from us, so they are
// always offered. A cloud provider needs this server's OAuth client id (DROPBOX_APP_KEY,
// GOOGLE_DRIVE_CLIENT_ID, ONEDRIVE_CLIENT_ID: storage/storage.config.ts): without it a vault there
// could never be opened, so creation refuses it. offeredProviders is the one place that learns
// them.
import type { CreateVaultRequest, ProviderType } from '@sealvault/protocol';
import type { Config } from '../config.ts';
import { badRequest, HttpError } from '../http/errors.ts';

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
  if (config.storage.onedrive) offered.add('onedrive');
  return offered;
}

/** Providers whose files live in a folder of the user's account: a files vault names it. */
const FOLDER_PROVIDERS: ReadonlySet<ProviderType> = new Set(['dropbox', 'googledrive', 'onedrive']);

/**
 * The folder to record for a new vault: required for a files vault on a cloud provider (the
 * browser made it there before creating the vault), taken for a secrets vault there (ADR 0008:
 * its segments live in it; a vault made before had none, and gets one when its items move:
 * checkFolderChange), refused for any other vault.
 */
export function checkStorageFolder(input: CreateVaultRequest): string | null {
  const cloud = FOLDER_PROVIDERS.has(input.provider_type);
  if (cloud && input.vault_type === 'files' && !input.storage_folder)
    throw badRequest(`A ${PROVIDER_NAMES[input.provider_type]} vault needs its folder.`);
  if (!cloud && input.storage_folder)
    throw badRequest('Only a vault on a cloud provider has a folder.');
  return input.storage_folder ?? null;
}

/**
 * A folder recorded later: only for a cloud vault that has none yet (a secrets vault made before
 * its items lived in its provider). A folder once recorded never changes.
 */
export function checkFolderChange(vault: {
  provider_type: string;
  storage_folder: string | null;
}): void {
  if (!FOLDER_PROVIDERS.has(vault.provider_type as ProviderType))
    throw badRequest('Only a vault on a cloud provider has a folder.');
  if (vault.storage_folder)
    throw new HttpError(409, 'conflict', "This vault's folder is already set.");
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
