// What a files vault on a cloud account needs to know of that account's connection (issue 26;
// docs/product.md §2 "File browser"): the spec's texts of a lost connection, which providers keep
// a vault in an account connected from this browser, and the "not connected" failure. The page's
// hook and prompt are useCloudConnection.ts and CloudConnectionPrompt.tsx.
import type { ProviderType } from '@sealvault/protocol';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import { StorageError } from '../storage/provider.ts';
import { providerInfo } from '../vaults/providers.tsx';
import { i18n } from '../i18n/i18n.ts';

/**
 * The spec's texts (§2, §8 "Files"), with the provider's name, translated when called.
 * `notConnected` is the failure's message, compared by isNotConnected: it stays English (the
 * previewer shows it translated).
 */
export const connectionTexts = (provider: string) => ({
  title: i18n.t('{{provider}} Not Connected', { provider }),
  prompt: i18n.t('Please connect {{provider}} to upload/download/delete files.', { provider }),
  connect: i18n.t('Connect {{provider}}', { provider }),
  notConnected: `${provider} not connected`,
});

/** The cloud accounts a vault can be kept in and connected from this browser. */
export const cloudIdOf = (provider: ProviderType): CloudId | null =>
  provider === 'dropbox' || provider === 'googledrive' || provider === 'onedrive' ? provider : null;

/** Whether `err` is a provider's "not connected" failure (the account is no longer connected). */
export function isNotConnected(err: unknown): err is StorageError {
  if (!(err instanceof StorageError) || err.code !== 'unavailable') return false;
  return (['dropbox', 'googledrive', 'onedrive'] as const).some(
    (id) => err.message === connectionTexts(providerInfo(id).name).notConnected,
  );
}

/** The failure of an action a vault on `provider` cannot do while its account is not connected. */
export function notConnectedError(provider: ProviderType): StorageError | null {
  const id = cloudIdOf(provider);
  if (!id || connections.isConnected(id)) return null;
  return new StorageError('unavailable', connectionTexts(providerInfo(id).name).notConnected);
}
