// What the file browser shows (docs/product.md §2 "File browser"): the folder open (from the URL,
// `?folder=<id>`, so it can be bookmarked), its path, its files and folders sorted; with a search,
// the matches from the whole vault; and the selection among what is shown. `?view=trash` shows the
// trash instead (TrashView.tsx).
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { locationOf, type FolderTree } from './folders.ts';
import {
  clickSelection,
  foldForSearch,
  loadSort,
  saveSort,
  searchFiles,
  sortFiles,
  takenNames,
  type SortOrder,
} from './listing.ts';
import type { FileEntry } from './model.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

/** `entries`: the live files and folders (trash.ts viewOf), `tree` their tree. */
export function useFolderView(vaultId: string, entries: readonly FileEntry[], tree: FolderTree) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const [order, setOrder] = useState<SortOrder>(() => loadSort(vaultId));
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);

  const asked = params.get('folder');
  // A folder that is not (or no longer) in the vault shows the root.
  const current = asked !== null && tree.folders.has(asked) ? asked : null;
  const path = useMemo(() => tree.pathTo(current), [tree, current]);
  const folded = useMemo(
    () => new Map(entries.map((f) => [f.id, foldForSearch(f.name)])),
    [entries],
  );
  const searching = query.trim() !== '';
  const shown = useMemo(() => {
    if (!searching) return sortFiles(tree.childrenOf(current), order);
    // The whole vault, folders included.
    const matches = searchFiles(entries, query, (f) => folded.get(f.id) ?? foldForSearch(f.name));
    return sortFiles(matches, order);
  }, [searching, tree, current, order, entries, query, folded]);
  const selectedEntries = useMemo(() => shown.filter((f) => picked.has(f.id)), [shown, picked]);
  const selected = useMemo(() => new Set(selectedEntries.map((f) => f.id)), [selectedEntries]);
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);

  return {
    tree,
    current,
    /** The trash is shown instead of a folder. */
    inTrash: params.get('view') === 'trash',
    /** Shows the trash (a new history entry, so Back returns to the folder). */
    openTrash: () => {
      setQuery('');
      setPicked(new Set());
      setParams({ view: 'trash' });
    },
    path,
    query,
    setQuery,
    searching,
    order,
    changeOrder: (o: SortOrder) => {
      setOrder(o);
      saveSort(vaultId, o);
    },
    shown,
    selected,
    selectedEntries,
    /** Opens a folder (null: the root) as a new history entry; the search and selection clear. */
    open: (folder: string | null) => {
      setQuery('');
      setPicked(new Set());
      setParams(folder ? { folder } : {});
    },
    selectAll: (on: boolean) => setPicked(on ? new Set(shown.map((f) => f.id)) : new Set()),
    clickSelect: (f: FileEntry, shift: boolean) => {
      const ids = shown.map((x) => x.id);
      setPicked((cur) => clickSelection(cur, ids, f.id, anchor.current, shift));
      anchor.current = f.id;
    },
    /** The ids a drag starting on `f` moves: the selection when `f` is in it. */
    dragged: (f: FileEntry) => (selected.has(f.id) ? [...selected] : [f.id]),
    entriesOf: (ids: readonly string[]) =>
      ids.map((id) => byId.get(id)).filter((e): e is FileEntry => e !== undefined),
    /** The names in a folder (NFC), as the server compares them. */
    namesIn: (folder: string | null) => takenNames(tree.childrenOf(folder)),
    /** The file (not a folder) of that name in a folder, if there is one. */
    fileNamed: (folder: string | null, name: string) =>
      tree
        .childrenOf(folder)
        .find((e) => !e.isFolder && e.name.normalize('NFC') === name.normalize('NFC')),
    /** Where an entry is, under its name in a search ('' at the root or without a search). */
    detail: (f: FileEntry) => {
      const where = searching ? locationOf(tree, f) : '';
      return where ? t('in {{folder}}', { folder: where }) : '';
    },
    /** A folder's "{n} items". */
    itemCount: (f: FileEntry) => {
      const n = tree.childrenOf(f.id).length;
      return n === 1
        ? t('{{count}} item', { count: formatNumber(n) })
        : t('{{count}} items', { count: formatNumber(n) });
    },
  };
}
