// Older versions of a file (issue 28 item 5; docs/vault-format.md "Versions"). An upload that
// replaces a file keeps the file's record as an older version: its metadata names the new
// file's record (`versionOf`) and it holds no name, so the new file takes the name. Each version
// is a whole file under its own key. The last MAX_VERSIONS are kept.
import { deleteRecords, rewriteMeta } from './useFiles.ts';
import type { FileEntry } from './model.ts';

export const MAX_VERSIONS = 10;

/**
 * Before the upload that replaces `current`: `current` becomes an older version of `newId` (the
 * id the upload will use), so its name is free. If the upload then fails, the version names a
 * record that does not exist and is shown as the file it was (trash.ts viewOf).
 */
export async function makeRoomFor(vaultId: string, current: FileEntry, newId: string) {
  await rewriteMeta(vaultId, current, { versionOf: newId });
}

/**
 * After the upload: the older versions of `replaced` now name `newId` too, and those past the
 * last MAX_VERSIONS (counting `replaced`) are deleted for good with their thumbnails.
 */
export async function settleVersions(vaultId: string, replaced: FileEntry, newId: string) {
  const older = replaced.versions ?? [];
  const keep = older.slice(0, MAX_VERSIONS - 1);
  for (const v of keep) await rewriteMeta(vaultId, v, { versionOf: newId });
  const drop = older.slice(MAX_VERSIONS - 1);
  if (drop.length > 0) {
    await deleteRecords(
      vaultId,
      drop.flatMap((v) => (v.thumb ? [v.thumb, v] : [v])),
    );
  }
}

/**
 * Makes `version` the file again: the current record becomes an older version of it, then
 * `version` takes the file's name and folder, then the other versions name it.
 */
export async function restoreVersion(vaultId: string, current: FileEntry, version: FileEntry) {
  await rewriteMeta(vaultId, current, { versionOf: version.id });
  await rewriteMeta(vaultId, version, {
    versionOf: undefined,
    name: current.name,
    folder: current.folder ?? undefined,
  });
  for (const v of current.versions ?? []) {
    if (v.id !== version.id) await rewriteMeta(vaultId, v, { versionOf: version.id });
  }
}

/** Deletes one older version for good, with its thumbnail. */
export const deleteVersion = (vaultId: string, version: FileEntry) =>
  deleteRecords(vaultId, version.thumb ? [version.thumb, version] : [version]);
