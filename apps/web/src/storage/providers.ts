// The app's storage providers, one of each, made on first use (architecture.md, Storage
// providers). Code that moves a vault's ciphertext asks for its vault's provider here and talks
// to the StorageProvider interface only.
import { contentHashOfDigests } from '@sealvault/crypto';
import type { ProviderType } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { storageConfigNow } from './cloud/config.ts';
import { setFolder } from './cloud/folders.ts';
import { createDropboxProvider } from './dropbox/dropbox.ts';
import { createDriveProvider } from './googledrive/drive.ts';
import { withContentHash, type ContentHasher } from './hashing.ts';
import { createOneDriveProvider } from './onedrive/onedrive.ts';
import { createLocalProvider } from './local/opfs.ts';
import { StorageError, type StorageProvider } from './provider.ts';
import { createServerProvider } from './server/tus.ts';
import { msg } from '../i18n/i18n.ts';

const made = new Map<ProviderType, StorageProvider>();

/** The content hash of what a provider stores, digested in a crypto Worker (hashing.ts). */
const hasher: ContentHasher = {
  digest: (block) => cryptoClient().digestBlock(block),
  combine: contentHashOfDigests,
};

function make(type: ProviderType): StorageProvider {
  switch (type) {
    case 'server':
      return createServerProvider({
        // The upload's busiest thread is the page's: blocks are digested in a crypto Worker.
        digest: async (bytes) => {
          const { digest, block } = await cryptoClient().digestBlock(bytes);
          return { bytes: block, digest };
        },
        contentHash: contentHashOfDigests,
      });
    case 'local':
      return withContentHash(createLocalProvider(), hasher);
    case 'dropbox':
      return withContentHash(
        createDropboxProvider(() => storageConfigNow()?.dropbox ?? null),
        hasher,
      );
    case 'googledrive':
      return withContentHash(
        createDriveProvider(() => storageConfigNow()?.googledrive ?? null),
        hasher,
      );
    case 'onedrive':
      // OneDrive's own quickXorHash is checked in the upload (onedrive/upload-session.ts).
      return withContentHash(
        createOneDriveProvider(() => storageConfigNow()?.onedrive ?? null),
        hasher,
      );
  }
}

/** The provider that keeps the ciphertext of vaults of `type`. */
export function providerFor(type: ProviderType): StorageProvider {
  let provider = made.get(type);
  if (!provider) {
    provider = make(type);
    made.set(type, provider);
  }
  return provider;
}

const vaultProviders = new Map<string, ProviderType>();

/** Remembers which provider keeps a vault's ciphertext (the file browser does, for its vault). */
export function registerVaultStorage(vault: {
  id: string;
  provider_type: ProviderType;
  storage_folder?: string | null;
}): void {
  vaultProviders.set(vault.id, vault.provider_type);
  if (vault.storage_folder) setFolder(vault.id, vault.storage_folder);
}

/** The provider type of a vault whose record this page has loaded, if it has. */
export const providerTypeOf = (vaultId: string): ProviderType | undefined =>
  vaultProviders.get(vaultId);

/** The provider of a vault whose record this page has loaded. */
export function storageOf(vaultId: string): StorageProvider {
  const type = vaultProviders.get(vaultId);
  if (!type) throw new StorageError('unavailable', msg('Vault not found'));
  return providerFor(type);
}
