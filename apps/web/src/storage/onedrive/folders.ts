// A OneDrive vault's folder (issue 26): made with the vault inside the app's folder
// (`/me/drive/special/approot`, Apps/{app name} in the user's OneDrive, which the
// Files.ReadWrite.AppFolder scope reaches and nothing else); a taken name becomes "name 1", as
// OneDrive renames. The vault records the folder's item id, so a folder renamed by the user is
// still found; a missing one is not made again (another folder would not be the vault's). It is
// removed with everything in it; the quota is the drive's.
import { folderOf } from '../cloud/folders.ts';
import type { Quota } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, isMissing, texts, type OneDriveApi } from './api.ts';
import { removeItem, type DriveItem } from './files.ts';
import { msg } from '../../i18n/i18n.ts';

export const APP_FOLDER = '/me/drive/special/approot';

export async function makeFolder(api: OneDriveApi, name: string): Promise<string> {
  try {
    const item = await api.json<DriveItem>(
      `${APP_FOLDER}/children`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          folder: {},
          '@microsoft.graph.conflictBehavior': 'rename',
        }),
      },
      { retryLost: false }, // a lost answer may have made the folder: the wizard asks again
    );
    return item.id;
  } catch (err) {
    return fail(err, texts.folderFailed);
  }
}

const folderPath = (vaultId: string) => `/me/drive/items/${encodeURIComponent(folderOf(vaultId))}`;

/** The vault's folder must still be there (it was made with the vault). */
export async function prepareFolder(api: OneDriveApi, vaultId: string): Promise<void> {
  try {
    const item = await api.json<DriveItem>(`${folderPath(vaultId)}?$select=id,folder`);
    if (!item.folder) throw new StorageError('failed', texts.folderMissing);
  } catch (err) {
    if (isMissing(err)) throw new StorageError('failed', texts.folderMissing, { cause: err });
    fail(err, texts.folderMissing);
  }
}

export async function removeFolder(api: OneDriveApi, vaultId: string): Promise<void> {
  try {
    await removeItem(api, folderPath(vaultId));
  } catch (err) {
    fail(err, msg('Failed to delete vault'));
  }
}

export async function oneDriveQuota(api: OneDriveApi): Promise<Quota> {
  try {
    const d = await api.json<{ quota?: { used?: number; total?: number } }>(
      '/me/drive?$select=quota',
    );
    return { usedBytes: d.quota?.used ?? null, totalBytes: d.quota?.total ?? null };
  } catch (err) {
    return fail(err, texts.failed);
  }
}
