// A Drive vault's folder: made with the vault in My Drive (Drive allows two folders of one name:
// the vault records the id), checked before a put, removed with everything in it, and the quota.
import { folderOf } from '../cloud/folders.ts';
import type { Quota } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, texts } from './api.ts';
import { fileUrl, FOLDER_MIME, type DriveContext } from './context.ts';
import { remove } from './files.ts';
import { msg } from '../../i18n/i18n.ts';

export async function makeFolder(ctx: DriveContext, name: string): Promise<string> {
  try {
    const f = await ctx.api.json<{ id: string }>(ctx.url('files?fields=id'), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ name, mimeType: FOLDER_MIME }),
    });
    return f.id;
  } catch (err) {
    return fail(err, texts.folderFailed);
  }
}

/**
 * The folder was made with the vault; a missing one is not made again here, as the vault records
 * its id: another folder would not be the vault's.
 */
export async function prepareFolder(ctx: DriveContext, vaultId: string): Promise<void> {
  try {
    const f = await ctx.api.json<{ trashed?: boolean; mimeType?: string }>(
      fileUrl(ctx, folderOf(vaultId), '?fields=id,trashed,mimeType'),
    );
    if (f.trashed || f.mimeType !== FOLDER_MIME) throw new Error('not a usable folder');
  } catch (err) {
    if (err instanceof StorageError) throw err;
    throw new StorageError('failed', texts.folderMissing, { cause: err });
  }
}

/** files.delete skips the trash and takes the folder's contents with it. */
export async function removeFolder(ctx: DriveContext, vaultId: string): Promise<void> {
  try {
    const folder = folderOf(vaultId);
    await remove(ctx, folder);
    ctx.ids.delete(folder);
  } catch (err) {
    fail(err, msg('Failed to delete vault'));
  }
}

export async function driveQuota(ctx: DriveContext): Promise<Quota> {
  try {
    const { storageQuota: q } = await ctx.api.json<{
      storageQuota: { usage?: string; limit?: string };
    }>(ctx.url('about?fields=storageQuota'));
    return {
      usedBytes: q.usage === undefined ? null : Number(q.usage),
      totalBytes: q.limit === undefined ? null : Number(q.limit), // none: unlimited
    };
  } catch (err) {
    return fail(err, texts.failed);
  }
}
