// A Drive vault folder's blobs (docs/product.md §7 "Cloud drive service"): a blob is a file named
// by its blob id inside the vault folder. Drive addresses files by id and lets two files share a
// name, so a blob is found by searching its folder for its name ("Search for files and
// folders"), remembered per folder (context.ts).
import { messages } from '@sealvault/protocol';
import { blobName, emptyStream, type CallOptions } from '../cloud/http.ts';
import { folderOf } from '../cloud/folders.ts';
import type { BlobInfo } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { fail, isMissing, texts } from './api.ts';
import { fileUrl, FOLDER_MIME, idsOf, quoted, type DriveContext } from './context.ts';
import type { DriveFile } from './session.ts';
import { msg } from '../../i18n/i18n.ts';

/**
 * The files named `name` in `folder`, with the MD5 an upload is held to (upload.ts takes a file a
 * lost request made); several if someone else made a second one.
 */
export async function named(
  ctx: DriveContext,
  folder: string,
  name: string,
  opts?: CallOptions,
): Promise<DriveFile[]> {
  const q = `${quoted(folder)} in parents and name = ${quoted(name)} and trashed = false`;
  const query = new URLSearchParams({
    q,
    fields: 'files(id,name,size,md5Checksum)',
    pageSize: '1000',
  });
  try {
    const r = await ctx.api.json<{ files: DriveFile[] }>(ctx.url(`files?${query}`), {}, opts);
    return r.files.filter((f) => f.size !== undefined); // not a folder
  } catch (err) {
    if (isMissing(err)) return []; // the folder is gone
    throw err;
  }
}

async function idOf(ctx: DriveContext, folder: string, name: string, fresh: boolean) {
  const known = fresh ? undefined : idsOf(ctx, folder).get(name);
  if (known) return known;
  const id = (await named(ctx, folder, name))[0]?.id;
  if (id) idsOf(ctx, folder).set(name, id);
  return id ?? null;
}

/** Deletes file `id` (skipping the trash); a missing one is not an error. */
export async function remove(ctx: DriveContext, id: string, opts?: CallOptions): Promise<void> {
  try {
    await ctx.api.call(fileUrl(ctx, id), { method: 'DELETE' }, opts);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
}

export async function getBlob(
  ctx: DriveContext,
  vaultId: string,
  ref: string,
  range?: { start: number; end: number },
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  if (range && range.end <= range.start) return emptyStream();
  try {
    const folder = folderOf(vaultId);
    const name = blobName(ref);
    // A remembered id may be stale (deleted in another tab): look it up again once.
    for (let fresh = false; ; fresh = true) {
      const id = await idOf(ctx, folder, name, fresh);
      if (!id) throw new StorageError('not_found', messages.files.dataNotFound);
      try {
        const res = await ctx.api.call(
          fileUrl(ctx, id, '?alt=media'),
          range ? { headers: { range: `bytes=${range.start}-${range.end - 1}` } } : {},
          signal ? { signal } : {},
        );
        if (range && res.status !== 206) throw new Error(`Range ignored (${res.status})`);
        return res.body ?? emptyStream();
      } catch (err) {
        if (!isMissing(err)) throw err;
        idsOf(ctx, folder).delete(name);
        if (fresh) throw new StorageError('not_found', messages.files.dataNotFound);
      }
    }
  } catch (err) {
    if (signal?.aborted)
      throw new StorageError('aborted', msg('Download cancelled'), { cause: err });
    return fail(err, texts.downloadFailed);
  }
}

export async function statBlob(ctx: DriveContext, vaultId: string, ref: string) {
  try {
    const [f] = await named(ctx, folderOf(vaultId), blobName(ref));
    return f ? { ref, size: Number(f.size) } : null;
  } catch (err) {
    return fail(err, texts.failed);
  }
}

export async function listBlobs(ctx: DriveContext, vaultId: string): Promise<BlobInfo[]> {
  const out: BlobInfo[] = [];
  try {
    const folder = folderOf(vaultId);
    const known = idsOf(ctx, folder);
    const q = `${quoted(folder)} in parents and trashed = false and mimeType != '${FOLDER_MIME}'`;
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({
        q,
        fields: 'nextPageToken,files(id,name,size)',
        pageSize: String(ctx.pageSize),
        ...(pageToken ? { pageToken } : {}),
      });
      const page = await ctx.api.json<{ files: DriveFile[]; nextPageToken?: string }>(
        ctx.url(`files?${query}`),
      );
      for (const f of page.files) {
        if (f.name === undefined) continue;
        out.push({ ref: f.name, size: Number(f.size ?? 0) });
        known.set(f.name, f.id);
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
  } catch (err) {
    if (isMissing(err)) return []; // the folder is gone
    return fail(err, msg('Failed to retrieve vault files'));
  }
  return out;
}

export async function deleteBlob(ctx: DriveContext, vaultId: string, ref: string) {
  try {
    // Searched afresh, so that a second file of the name goes too.
    const folder = folderOf(vaultId);
    const name = blobName(ref);
    idsOf(ctx, folder).delete(name);
    for (const f of await named(ctx, folder, name)) await remove(ctx, f.id);
  } catch (err) {
    fail(err, msg('Failed to delete file'));
  }
}
