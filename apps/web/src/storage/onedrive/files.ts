// A OneDrive vault folder's blobs (issue 26): each a file named by its blob id (also its
// reference) in the vault's folder, addressed by path under the folder's item id
// (`/me/drive/items/{folder}:/{name}:`). Downloads go to the item's pre-authenticated
// @microsoft.graph.downloadUrl with a Range header; a URL is kept a few minutes, so a video's
// range reads cost one request each, and fetched again once if it was refused. Listings follow
// @odata.nextLink through every page.
import { messages } from '@sealvault/protocol';
import { blobName, CloudError, emptyStream, type CallOptions } from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import type { BlobInfo } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, isMissing, texts, type OneDriveApi } from './api.ts';
import { msg } from '../../i18n/i18n.ts';

/** The driveItem fields the provider reads. */
export interface DriveItem {
  id: string;
  name: string;
  size?: number;
  file?: { hashes?: { quickXorHash?: string } };
  folder?: { childCount?: number };
  '@microsoft.graph.downloadUrl'?: string;
}

export interface OneDriveFiles {
  api: OneDriveApi;
  /** $top of a children listing (Graph's largest page, 1000, unless a test asks for less). */
  pageSize: number;
  /** Download URLs by folder and name, with when they were fetched. */
  downloads: Map<string, { url: string; at: number }>;
}

/** How long a download URL is used (Microsoft's last about an hour). */
const DOWNLOAD_URL_MS = 10 * 60_000;

/** Graph's path of item `name` in folder `folderId` (addressed by path under the folder's id). */
export const itemPath = (folderId: string, name: string) =>
  `/me/drive/items/${encodeURIComponent(folderId)}:/${encodeURIComponent(name)}:`;

/** The file `name` of the folder, or null when there is none. */
export async function itemOf(
  api: OneDriveApi,
  folderId: string,
  name: string,
  signal?: AbortSignal,
): Promise<DriveItem | null> {
  try {
    return await api.json<DriveItem>(itemPath(folderId, name), {}, signal ? { signal } : {});
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

async function downloadUrl(
  od: OneDriveFiles,
  key: string,
  folder: string,
  name: string,
  fresh: boolean,
  signal?: AbortSignal,
) {
  const known = od.downloads.get(key);
  if (!fresh && known && Date.now() - known.at < DOWNLOAD_URL_MS) return known.url;
  const item = await itemOf(od.api, folder, name, signal);
  const url = item?.file ? item['@microsoft.graph.downloadUrl'] : undefined;
  if (!url) {
    od.downloads.delete(key);
    throw new StorageError('not_found', messages.files.dataNotFound);
  }
  od.downloads.set(key, { url, at: Date.now() });
  return url;
}

export async function getBlob(
  od: OneDriveFiles,
  vaultId: string,
  ref: string,
  range?: { start: number; end: number },
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  if (range && range.end <= range.start) return emptyStream();
  try {
    const folder = folderOf(vaultId);
    const name = blobName(ref);
    const key = `${folder}/${name}`;
    for (let fresh = false; ; fresh = true) {
      const url = await downloadUrl(od, key, folder, name, fresh, signal);
      try {
        const res = await od.api.content(
          url,
          range ? { headers: { range: `bytes=${range.start}-${range.end - 1}` } } : {},
          signal ? { signal } : {},
        );
        if (range && res.status !== 206) throw new Error(`Range ignored (${res.status})`);
        return res.body ?? emptyStream();
      } catch (err) {
        // An expired or stale URL (401, 403, 404, 410): ask Graph for the item again, once.
        const stale = err instanceof CloudError && [401, 403, 404, 410].includes(err.status);
        if (!stale || fresh) throw err;
        od.downloads.delete(key);
      }
    }
  } catch (err) {
    if (signal?.aborted)
      throw new StorageError('aborted', msg('Download cancelled'), { cause: err });
    return fail(err, texts.downloadFailed);
  }
}

export async function statBlob(od: OneDriveFiles, vaultId: string, ref: string) {
  try {
    const item = await itemOf(od.api, folderOf(vaultId), blobName(ref));
    return item?.file ? { ref, size: item.size ?? 0 } : null;
  } catch (err) {
    return fail(err, texts.failed);
  }
}

export async function listBlobs(od: OneDriveFiles, vaultId: string): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  try {
    const folder = encodeURIComponent(folderOf(vaultId));
    type Page = { value: DriveItem[]; '@odata.nextLink'?: string };
    let next: string | undefined =
      `/me/drive/items/${folder}/children?$top=${od.pageSize}&$select=id,name,size,file`;
    while (next) {
      const page: Page = await od.api.json<Page>(next);
      for (const item of page.value)
        if (item.file) out.push({ ref: item.name, size: item.size ?? 0 });
      next = page['@odata.nextLink'];
    }
  } catch (err) {
    if (isMissing(err)) return []; // the folder is gone
    return fail(err, msg('Failed to retrieve vault files'));
  }
  return out;
}

/** Deletes the item at `path`; a missing one is not an error. */
export async function removeItem(
  api: OneDriveApi,
  path: string,
  opts?: CallOptions,
): Promise<void> {
  try {
    await api.call(path, { method: 'DELETE' }, opts);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
}

export async function deleteBlob(od: OneDriveFiles, vaultId: string, ref: string) {
  try {
    const folder = folderOf(vaultId);
    const name = blobName(ref);
    od.downloads.delete(`${folder}/${name}`);
    await removeItem(od.api, itemPath(folder, name));
  } catch (err) {
    fail(err, msg('Failed to delete file'));
  }
}
