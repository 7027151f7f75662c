// The folder tree of a file vault (issue 28; docs/vault-format.md "Folders"), built in the browser
// from decrypted metadata only. A folder is a record of no content whose metadata has the folder
// MIME type; every file and folder names its parent inside its encrypted metadata (`folder`), so
// the server and the provider never see the tree. Moving a folder rewrites its own record only.
// What the records say is not trusted to be a tree: a parent that is missing, is not a folder,
// or closes a loop puts the record at the root, so everything stays reachable.
import type { FileEntry } from './model.ts';

export interface FolderTree {
  /** Folders by id. */
  folders: ReadonlyMap<string, FileEntry>;
  /** The folder an entry is shown in: its parent when that is a folder on a path to the root, else null. */
  parentOf(entry: FileEntry): string | null;
  /** Files and folders directly in a folder (null: the root). */
  childrenOf(folder: string | null): readonly FileEntry[];
  /** The folders from the root down to `folder`, itself included ([] for the root). */
  pathTo(folder: string | null): FileEntry[];
  /** Every file and folder below `folder`, at any depth (not the folder itself). */
  below(folder: string): FileEntry[];
}

export function buildTree(entries: readonly FileEntry[]): FolderTree {
  const folders = new Map(entries.filter((e) => e.isFolder).map((e) => [e.id, e]));
  // A folder's parent is kept only if following parents from it reaches the root.
  const effective = new Map<string, string | null>();
  const resolve = (id: string): string | null => {
    if (effective.has(id)) return effective.get(id)!;
    const seen = new Set<string>([id]);
    let at = folders.get(id)!.folder;
    while (at !== null) {
      const up = folders.get(at);
      if (!up || seen.has(at)) {
        effective.set(id, null); // a missing parent or a loop: at the root
        return null;
      }
      if (effective.has(at)) break; // already known to reach the root (or be put there)
      seen.add(at);
      at = up.folder;
    }
    const parent = folders.get(id)!.folder;
    effective.set(id, parent);
    return parent;
  };
  for (const id of folders.keys()) resolve(id);

  const parentOf = (e: FileEntry): string | null =>
    e.isFolder
      ? (effective.get(e.id) ?? null)
      : e.folder !== null && folders.has(e.folder)
        ? e.folder
        : null;

  const children = new Map<string | null, FileEntry[]>();
  for (const e of entries) {
    const p = parentOf(e);
    const list = children.get(p);
    if (list) list.push(e);
    else children.set(p, [e]);
  }

  return {
    folders,
    parentOf,
    childrenOf: (folder) => children.get(folder) ?? [],
    pathTo(folder) {
      const path: FileEntry[] = [];
      for (let at = folder; at !== null && folders.has(at); at = effective.get(at) ?? null) {
        path.unshift(folders.get(at)!);
        if (path.length > folders.size) break; // cannot happen after resolve; a guard all the same
      }
      return path;
    },
    below(folder) {
      const out: FileEntry[] = [];
      const queue = [folder];
      while (queue.length > 0) {
        for (const child of children.get(queue.shift()!) ?? []) {
          out.push(child);
          if (child.isFolder) queue.push(child.id);
        }
      }
      return out;
    },
  };
}

/**
 * Whether `moving` can go into `target` (null: the root): never a folder into itself or into a
 * folder below it, and never where every one of them already is.
 */
export function canMoveInto(
  tree: FolderTree,
  moving: readonly FileEntry[],
  target: string | null,
): boolean {
  if (moving.length === 0) return false;
  if (moving.every((e) => tree.parentOf(e) === target)) return false;
  const ancestors = new Set(tree.pathTo(target).map((f) => f.id));
  return moving.every((e) => !(e.isFolder && ancestors.has(e.id)));
}

/** "Taxes / 2026": the folders an entry is in, for search results. */
export function locationOf(tree: FolderTree, entry: FileEntry): string {
  return tree
    .pathTo(tree.parentOf(entry))
    .map((f) => f.name)
    .join(' / ');
}

/** The ZIP paths of a selection: each file under its folders, relative to where it was chosen. */
export function zipEntriesOf(
  tree: FolderTree,
  chosen: readonly FileEntry[],
): { file: FileEntry; path: string }[] {
  const out: { file: FileEntry; path: string }[] = [];
  for (const e of chosen) {
    if (!e.isFolder) {
      out.push({ file: e, path: e.name });
      continue;
    }
    const base = tree.pathTo(tree.parentOf(e)).length;
    for (const d of tree.below(e.id)) {
      if (d.isFolder) continue;
      const dirs = tree
        .pathTo(tree.parentOf(d))
        .slice(base)
        .map((f) => f.name);
      out.push({ file: d, path: [...dirs, d.name].join('/') });
    }
  }
  return out;
}
