// The trash and the older versions of a file vault (issue 28 items 4 and 5; docs/vault-format.md
// "Trash" and "Versions"), worked out in the browser from decrypted metadata only. Pure.
//
// - A record the user moved to the trash says so in its encrypted metadata (`trashed`, and the
//   names of the folders it was in). Whatever is below a trashed folder follows it without being
//   written; an older version or a thumbnail follows its file.
// - The server is told only which records are in the trash (a plaintext flag on each, so that its
//   periodic job can purge the data 30 days later); the flag is checked against the metadata each
//   time the vault opens and put right (`flagChanges`).
// - A record the server purged, or that has been in the trash for 30 days, is deleted for good by
//   the browser the next time the vault is open (`due`): the record, and for a cloud provider its
//   copy there.
import { TRASH_DAYS } from '@sealvault/protocol';
import { buildTree, type FolderTree } from './folders.ts';
import type { FileEntry } from './model.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const TRASH_MS = TRASH_DAYS * DAY_MS;

/** A record the user moved to the trash, with what follows it. */
export interface TrashItem {
  entry: FileEntry;
  /** Every record that goes with it, deepest first and the item last: what is below a folder (not
   * trashed on its own), each file's older versions and thumbnails. */
  records: FileEntry[];
  /** Files in it (1 for a file; a folder's files at any depth). */
  files: number;
  /** Plaintext bytes of its files (not of their older versions). */
  bytes: number;
  /** Where it was: "Taxes / 2026", or '' for the vault's root. */
  from: string;
  /** When it is deleted for good (ms since the epoch). */
  purgeAt: number;
}

export interface VaultView {
  /** Files and folders that are not in the trash and not older versions: what the browser lists. */
  live: FileEntry[];
  /** The live tree. */
  tree: FolderTree;
  /** What the user moved to the trash, most recent first. */
  trash: TrashItem[];
}

/** Whether `v` is an older version of a file that is in the list: else it is shown as a file. */
const versionTarget = (v: FileEntry, byId: ReadonlyMap<string, FileEntry>) => {
  if (v.versionOf === null || v.isFolder) return null;
  const current = byId.get(v.versionOf);
  return current && current.versionOf === null && !current.isFolder ? current : null;
};

/** A file's records besides itself: its older versions and the thumbnails of both, deepest first. */
export function followers(e: FileEntry): FileEntry[] {
  const out: FileEntry[] = [];
  for (const v of e.versions ?? []) {
    if (v.thumb) out.push(v.thumb);
    out.push(v);
  }
  if (e.thumb) out.push(e.thumb);
  return out;
}

/**
 * Sorts decrypted entries (thumbnails already attached to their files) into the live list, the
 * trash and each file's older versions (attached as `versions`, newest first). What the records
 * say is not trusted: a version of a file that is missing, is a folder or is itself a version is
 * shown as a file, so nothing becomes unreachable.
 */
export function viewOf(all: readonly FileEntry[]): VaultView {
  const byId = new Map(all.map((e) => [e.id, e]));
  const versions = new Map<string, FileEntry[]>();
  const nodes: FileEntry[] = [];
  for (const e of all) {
    const current = versionTarget(e, byId);
    if (!current) {
      nodes.push(e);
      continue;
    }
    const list = versions.get(current.id);
    if (list) list.push(e);
    else versions.set(current.id, [e]);
  }
  for (const e of nodes) {
    const list = versions.get(e.id);
    if (list) e.versions = list.sort(newestFirst);
    else delete e.versions;
  }

  // The tree of everything, to find what is below a trashed folder.
  const whole = buildTree(nodes);
  const topOf = new Map<string, FileEntry | null>();
  const trashTop = (e: FileEntry): FileEntry | null => {
    const known = topOf.get(e.id);
    if (known !== undefined) return known;
    const parent = whole.parentOf(e);
    const top =
      e.trashed !== null ? e : parent === null ? null : trashTop(whole.folders.get(parent)!);
    topOf.set(e.id, top);
    return top;
  };
  const live = nodes.filter((e) => trashTop(e) === null);
  const trash: TrashItem[] = [];
  for (const e of nodes) {
    if (e.trashed === null) continue;
    const inside = e.isFolder ? whole.below(e.id).filter((d) => trashTop(d) === e) : [];
    const records: FileEntry[] = [];
    for (const d of [...inside].reverse()) records.push(...followers(d), d);
    records.push(...followers(e), e);
    const files = [e, ...inside].filter((d) => !d.isFolder);
    trash.push({
      entry: e,
      records,
      files: files.length,
      bytes: files.reduce((sum, f) => sum + f.size, 0),
      from: e.trashedFrom.join(' / '),
      purgeAt: e.trashed + TRASH_MS,
    });
  }
  trash.sort((a, b) => b.entry.trashed! - a.entry.trashed! || (a.entry.id < b.entry.id ? -1 : 1));
  return { live, tree: buildTree(live), trash };
}

const newestFirst = (a: FileEntry, b: FileEntry) =>
  b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? -1 : 1);

/** The items to delete for good now: 30 days in the trash, or purged by the server's job. */
export function dueItems(trash: readonly TrashItem[], now: number): TrashItem[] {
  return trash.filter((t) => t.purgeAt <= now || t.records.some((r) => r.server.purged));
}

/**
 * The server's trash flags that do not say what the metadata says: every record of a trash item
 * flagged, every other record not. Ids to flag and ids to clear (a purged record is never
 * cleared: its data is gone).
 */
export function flagChanges(view: VaultView): { trash: string[]; untrash: string[] } {
  const trash: string[] = [];
  const untrash: string[] = [];
  for (const item of view.trash)
    for (const r of item.records) if (!r.server.trashed) trash.push(r.id);
  for (const e of view.live)
    for (const r of [e, ...followers(e)])
      if (r.server.trashed && !r.server.purged) untrash.push(r.id);
  return { trash, untrash };
}

/** The records that go to the trash with `chosen` (live entries): for the server's flags. */
export function recordsOf(tree: FolderTree, chosen: readonly FileEntry[]): FileEntry[] {
  const out = new Map<string, FileEntry>();
  for (const e of chosen) {
    const all = e.isFolder ? [e, ...tree.below(e.id)] : [e];
    for (const d of all) for (const r of [d, ...followers(d)]) out.set(r.id, r);
  }
  return [...out.values()];
}

/** Where a restored item goes: an existing live folder (null: the root), then folders to make. */
export interface RestorePlace {
  folder: string | null;
  /** Names of folders to make, each inside the one before, starting in `folder`. */
  create: string[];
}

/**
 * Where `item` goes back to: the folder it was in when that is still a live folder; else the
 * path of folder names it was in, following the live folders of those names as far as they go
 * and making the rest (so a folder deleted or trashed since is re-created).
 */
export function restorePlace(tree: FolderTree, item: FileEntry): RestorePlace {
  if (item.folder === null) return { folder: null, create: [] };
  if (tree.folders.has(item.folder)) return { folder: item.folder, create: [] };
  let at: string | null = null;
  const names = [...item.trashedFrom];
  while (names.length > 0) {
    const next: FileEntry | undefined = tree
      .childrenOf(at)
      .find((c) => c.isFolder && c.name.normalize('NFC') === names[0]!.normalize('NFC'));
    if (!next) break;
    at = next.id;
    names.shift();
  }
  return { folder: at, create: names };
}
