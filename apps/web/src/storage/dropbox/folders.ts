// A Dropbox vault's folder: made with the vault (a taken name becomes "name (1)"), made again on
// demand, removed with everything in it; and the account's space.
import { CloudError } from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import type { Quota } from '../provider.ts';
import { fail, isNotFound, texts, type DropboxApi } from './api.ts';
import { msg } from '../../i18n/i18n.ts';

export async function makeFolder(api: DropboxApi, name: string): Promise<string> {
  try {
    const r = await api.rpc<{ metadata: { path_display: string } }>('files/create_folder_v2', {
      path: `/${name}`,
      autorename: true,
    });
    return r.metadata.path_display;
  } catch (err) {
    return fail(err, texts.folderFailed);
  }
}

export async function prepareFolder(api: DropboxApi, vaultId: string): Promise<void> {
  try {
    await api.rpc('files/create_folder_v2', { path: folderOf(vaultId), autorename: false });
  } catch (err) {
    if (err instanceof CloudError && err.status === 409 && /conflict/.test(err.reason)) return;
    fail(err, texts.folderFailed);
  }
}

export async function removeFolder(api: DropboxApi, vaultId: string): Promise<void> {
  try {
    await api.rpc('files/delete_v2', { path: folderOf(vaultId) });
  } catch (err) {
    if (isNotFound(err)) return;
    fail(err, msg('Failed to delete vault'));
  }
}

export async function dropboxQuota(api: DropboxApi): Promise<Quota> {
  const u = await api.rpc<{ used: number; allocation: { allocated?: number } }>(
    'users/get_space_usage',
    null,
  );
  return { usedBytes: u.used, totalBytes: u.allocation.allocated ?? null };
}
