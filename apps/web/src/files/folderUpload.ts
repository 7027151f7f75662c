// Uploading a folder from the desktop (issue 28): the files of a folder dropped on the page or
// chosen with the folder picker, each with the folders it sits in, and the folders made in the
// vault as the upload reaches them (a folder of the same name already there is used, not
// doubled).
import { buildTree, type FolderTree } from './folders.ts';
import type { FileEntry } from './model.ts';
import { createFolder } from './transfer/upload.ts';

/** A file to upload and the folders it sits in, from the folder that was dropped or chosen down. */
export interface Picked {
  file: File;
  dir: string[];
}

/** The folders of a file chosen with the folder picker (`webkitRelativePath`: "Top/sub/a.txt"). */
export function pickedFromInput(files: readonly File[]): Picked[] {
  return files.map((file) => ({
    file,
    dir: (file.webkitRelativePath || file.name).split('/').slice(0, -1).filter(Boolean),
  }));
}

/** Everything in a dropped item, folders walked to the bottom (readEntries answers in batches). */
async function walk(entry: FileSystemEntry, dir: string[], out: Picked[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ file, dir });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, [...dir, entry.name], out);
  }
}

/**
 * The files of a drop: plain files as they are, folders walked. The entries must be taken while
 * the drop event runs (the browser empties the transfer afterwards); the walk may go on later.
 */
export function pickedFromDrop(data: DataTransfer): Promise<Picked[]> {
  const entries = [...data.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((e) => e === null)) {
    return Promise.resolve([...data.files].map((file) => ({ file, dir: [] })));
  }
  return (async () => {
    const out: Picked[] = [];
    for (const e of entries) await walk(e!, [], out);
    return out;
  })();
}

/**
 * Finds or makes, in the vault, the folder `dir` names below `base` (null: the root), one level
 * at a time; a folder made once is reused for the rest of the batch. Answers its id.
 */
export function folderMaker(
  vaultId: string,
  entries: readonly FileEntry[],
  signal?: AbortSignal,
): (base: string | null, dir: readonly string[]) => Promise<string | null> {
  const tree: FolderTree = buildTree(entries);
  const made = new Map<string, string>(); // `${parent}/${NFC name}` -> folder id
  const key = (parent: string | null, name: string) => `${parent ?? ''}/${name.normalize('NFC')}`;
  const existing = (parent: string | null, name: string) =>
    tree
      .childrenOf(parent)
      .find((e) => e.isFolder && e.name.normalize('NFC') === name.normalize('NFC'))?.id;
  return async (base, dir) => {
    let at = base;
    for (const name of dir) {
      const k = key(at, name);
      let id = made.get(k) ?? existing(at, name);
      if (!id) {
        id = await createFolder(vaultId, name, at, signal);
        made.set(k, id);
      }
      at = id;
    }
    return at;
  };
}
