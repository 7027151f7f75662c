// The trash of a file vault (issue 28 item 4; trash.ts has the model, docs/vault-format.md
// "Trash" the format): moving to the trash and back, deleting for good, and the upkeep each time
// the vault's list is read (the server's flags put right, what is due deleted for good).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { toast } from 'sonner';
import { messages, userMessage } from '@sealvault/protocol';
import type { FolderTree } from './folders.ts';
import { i18n, msg } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';
import { freeName, takenNames } from './listing.ts';
import type { FileEntry } from './model.ts';
import { createFolder } from './transfer/upload.ts';
import { dueItems, flagChanges, recordsOf, restorePlace, type TrashItem } from './trash.ts';
import {
  deleteRecords,
  filesKey,
  flagTrashed,
  rewriteMeta,
  useReloadFiles,
  type FilesList,
} from './useFiles.ts';

/**
 * Moves live entries to the trash: each chosen record says so in its metadata (with the names of
 * the folders it was in), then the server flags every record that goes with them.
 */
export async function trashEntries(
  vaultId: string,
  tree: FolderTree,
  chosen: readonly FileEntry[],
  now = Date.now(),
) {
  for (const e of chosen) {
    const from = tree.pathTo(tree.parentOf(e)).map((f) => f.name);
    await rewriteMeta(vaultId, e, {
      trashed: now,
      trashedFrom: from.length > 0 ? from : undefined,
    });
  }
  await flagTrashed(
    vaultId,
    recordsOf(tree, chosen).map((r) => r.id),
    true,
  );
}

/** What a restore did to names: the ones that came back under a numbered name. */
export interface Restored {
  renamed: { from: string; to: string }[];
}

/**
 * Puts trash items back where they were (trash.ts restorePlace: into re-created folders when
 * theirs are gone), under a numbered name when theirs is taken there meanwhile.
 */
export async function restoreItems(
  vaultId: string,
  tree: FolderTree,
  items: readonly TrashItem[],
): Promise<Restored> {
  const renamed: Restored['renamed'] = [];
  const made = new Map<string, string>(); // "parent/name" of folders made here → id
  const added = new Map<string | null, Set<string>>();
  for (const item of items) {
    const place = restorePlace(tree, item.entry);
    let folder = place.folder;
    for (const name of place.create) {
      const key = `${folder ?? ''}/${name}`;
      folder = made.get(key) ?? (await createFolder(vaultId, name, folder));
      made.set(key, folder);
    }
    // Folders made here are empty; the others hold what the tree says and what came back before.
    const taken = added.get(folder) ?? takenNames(tree.childrenOf(folder));
    added.set(folder, taken);
    const name = taken.has(item.entry.name.normalize('NFC'))
      ? freeName(item.entry.name, taken)
      : item.entry.name;
    taken.add(name.normalize('NFC'));
    if (name !== item.entry.name) renamed.push({ from: item.entry.name, to: name });
    await rewriteMeta(vaultId, item.entry, {
      trashed: undefined,
      trashedFrom: undefined,
      folder: folder ?? undefined,
      name,
    });
    const ids = item.records.filter((r) => !r.server.purged).map((r) => r.id);
    if (ids.length > 0) await flagTrashed(vaultId, ids, false);
  }
  return { renamed };
}

export function useTrashMutations(vaultId: string) {
  const reload = useReloadFiles(vaultId);
  const toTrash = useMutation({
    mutationFn: ({ tree, chosen }: { tree: FolderTree; chosen: readonly FileEntry[] }) =>
      trashEntries(vaultId, tree, chosen),
    onSettled: reload,
  });
  const restore = useMutation({
    mutationFn: ({ tree, items }: { tree: FolderTree; items: readonly TrashItem[] }) =>
      restoreItems(vaultId, tree, items),
    onSettled: reload,
  });
  return { toTrash, restore };
}

const undoFailed = msg('The items could not be put back. They are in the trash.');

/**
 * The file browser's Delete: the entries go to the trash at once, with a toast whose Undo puts
 * them back. The focus was on a Delete button that goes with its row: once the list shows without
 * it, the focus goes to `heading` rather than the page's top.
 */
export function useMoveToTrash(
  vaultId: string,
  {
    tree,
    entries,
    heading,
    onMoved,
  }: {
    tree: FolderTree;
    /** The live entries shown: the focus moves once they change. */
    entries: readonly FileEntry[];
    heading: RefObject<HTMLElement | null>;
    onMoved: () => void;
  },
) {
  const qc = useQueryClient();
  const reload = useReloadFiles(vaultId);
  const { toTrash } = useTrashMutations(vaultId);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    if (document.activeElement === document.body) heading.current?.focus();
  }, [entries, heading]);
  return (chosen: readonly FileEntry[]) => {
    const ids = new Set(chosen.map((e) => e.id));
    toTrash.mutate(
      { tree, chosen },
      {
        onSuccess: () => {
          onMoved();
          if (document.activeElement === document.body) heading.current?.focus();
          else refocus.current = true;
          toast(
            chosen.length === 1
              ? i18n.t('"{{name}}" moved to the trash.', { name: chosen[0]!.name })
              : i18n.t('{{count}} items moved to the trash.', {
                  count: formatNumber(chosen.length),
                }),
            {
              action: {
                label: i18n.t('Undo'),
                onClick: () => {
                  const now = qc.getQueryData<FilesList>(filesKey(vaultId));
                  const items = now?.trash.filter((t) => ids.has(t.entry.id)) ?? [];
                  void restoreItems(vaultId, now?.tree ?? tree, items)
                    .catch((err: unknown) => toast.error(i18n.t(userMessage(err, undoFailed))))
                    .finally(() => void reload());
                },
              },
            },
          );
        },
        onError: (err) => toast.error(i18n.t(userMessage(err, messages.files.deleteFailedRetry))),
      },
    );
  };
}

/**
 * Each time the list is read: puts the server's trash flags right, and deletes for good what is
 * due (30 days in the trash, or purged by the server). Answers the items still waiting (a cloud
 * account that is not connected, a failed request), for the trash to say so.
 */
export function useTrashUpkeep(vaultId: string, list: FilesList | undefined): TrashItem[] {
  const reload = useReloadFiles(vaultId);
  // The items still waiting after the upkeep of one read of the list.
  const [waiting, setWaiting] = useState<{ of: FilesList; items: TrashItem[] } | null>(null);
  const ran = useRef<FilesList | null>(null);
  useEffect(() => {
    if (!list || ran.current === list) return;
    ran.current = list;
    const due = dueItems(list.trash, Date.now());
    const flags = flagChanges(list);
    if (due.length === 0 && flags.trash.length === 0 && flags.untrash.length === 0) return;
    void (async () => {
      const left: TrashItem[] = [];
      let changed = false;
      try {
        if (flags.trash.length > 0) await flagTrashed(vaultId, flags.trash, true);
        if (flags.untrash.length > 0) await flagTrashed(vaultId, flags.untrash, false);
      } catch {
        // Put right the next time the list is read.
      }
      for (const item of due) {
        try {
          await deleteRecords(vaultId, item.records);
          changed = true;
        } catch {
          left.push(item);
        }
      }
      setWaiting({ of: list, items: left });
      if (changed) await reload();
    })();
  }, [list, vaultId, reload]);
  return waiting && waiting.of === list ? waiting.items : [];
}
