// A Dropbox vault folder's blobs: each a file named by its blob id (also its reference) in the
// vault's folder; downloads and ranges through files/download with a Range header.
import { messages } from '@sealvault/protocol';
import { blobName, CloudError, emptyStream } from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import type { BlobInfo } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, isNotFound, texts, type DropboxApi } from './api.ts';
import type { FileMetadata } from './upload-session.ts';
import { msg } from '../../i18n/i18n.ts';

const pathOf = (vaultId: string, ref: string) => `${folderOf(vaultId)}/${blobName(ref)}`;

export async function getBlob(
  api: DropboxApi,
  vaultId: string,
  ref: string,
  range?: { start: number; end: number },
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  if (range && range.end <= range.start) return emptyStream();
  try {
    const res = await api.content('files/download', { path: pathOf(vaultId, ref) }, null, {
      ...(signal ? { signal } : {}),
      ...(range ? { range: `bytes=${range.start}-${range.end - 1}` } : {}),
    });
    if (range && res.status !== 206 && range.start > 0)
      throw new StorageError('failed', texts.downloadFailed);
    return res.body ?? emptyStream();
  } catch (err) {
    // A 409 on a download means the file is not there (docs/product.md §7).
    if (err instanceof CloudError && err.status === 409)
      throw new StorageError('not_found', messages.files.dataNotFound, { cause: err });
    return fail(err, texts.downloadFailed);
  }
}

export async function statBlob(api: DropboxApi, vaultId: string, ref: string) {
  try {
    const meta = await api.rpc<FileMetadata>('files/get_metadata', { path: pathOf(vaultId, ref) });
    return meta['.tag'] === 'file' ? { ref, size: meta.size ?? 0 } : null;
  } catch (err) {
    if (isNotFound(err)) return null;
    return fail(err, texts.failed);
  }
}

export async function listBlobs(api: DropboxApi, vaultId: string): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  try {
    type Page = { entries: FileMetadata[]; cursor: string; has_more: boolean };
    let page = await api.rpc<Page>('files/list_folder', {
      path: folderOf(vaultId),
      recursive: false,
      limit: 1000,
    });
    for (;;) {
      for (const e of page.entries)
        if (e['.tag'] === 'file') out.push({ ref: e.name, size: e.size ?? 0 });
      if (!page.has_more) break;
      page = await api.rpc<Page>('files/list_folder/continue', { cursor: page.cursor });
    }
  } catch (err) {
    if (isNotFound(err)) return [];
    return fail(err, msg('Failed to retrieve vault files'));
  }
  return out;
}

export async function deleteBlob(api: DropboxApi, vaultId: string, ref: string) {
  try {
    await api.rpc('files/delete_v2', { path: pathOf(vaultId, ref) });
  } catch (err) {
    if (isNotFound(err)) return;
    fail(err, msg('Failed to delete file'));
  }
}
