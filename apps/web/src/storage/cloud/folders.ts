// Which folder of the user's cloud account holds each vault's files: the vault record's
// storage_folder (a Dropbox path, a Google Drive folder id), registered when the page loads the
// vault (providers.ts). The providers look it up by vault id.
import { StorageError } from '../provider.ts';
import { msg } from '../../i18n/i18n.ts';

const folders = new Map<string, string>();

export function setFolder(vaultId: string, folder: string): void {
  folders.set(vaultId, folder);
}

export function folderOf(vaultId: string): string {
  const folder = folders.get(vaultId);
  if (!folder) throw new StorageError('unavailable', msg('Vault not found'));
  return folder;
}

/** The folder name of a new vault (docs/product.md §7: the product prefix, an underscore, the vault name). */
export const folderNameFor = (vaultName: string): string =>
  `SealVault_${[...vaultName]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .trim()}`;
