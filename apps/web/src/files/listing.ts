// What the file browser shows of a vault's decrypted files (docs/product.md §2 "File browser"):
// search by name as you type, the sort order (remembered per vault on this device), a selection
// with shift-click ranges, and the free name for a second file of the same name. Pure logic: all of
// it runs over names decrypted in this browser; the server and the provider learn nothing.
import type { FileEntry } from './model.ts';
import { iconKind } from './fileKinds.ts';
import { splitName } from './model.ts';
import { msg } from '../i18n/i18n.ts';

export type SortKey = 'name' | 'size' | 'date' | 'type';
export interface SortOrder {
  key: SortKey;
  dir: 'asc' | 'desc';
}

export const SORT_KEYS: readonly { key: SortKey; label: string }[] = [
  { key: 'name', label: msg('Name') },
  { key: 'size', label: msg('Size') },
  { key: 'date', label: msg('Date added') },
  { key: 'type', label: msg('Type') },
];

export const DEFAULT_SORT: SortOrder = { key: 'name', dir: 'asc' };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The text a file's type sorts by: its kind (image, pdf…), then its extension. */
function typeOf(f: FileEntry): string {
  return `${iconKind(f.mime, f.name)}\u0000${splitName(f.name)[1].toLowerCase()}`;
}

/**
 * The files in `order`, folders first (by name, in the order's direction when it sorts by name);
 * ties go by name, then id, so the order never depends on the server's.
 */
export function sortFiles(files: readonly FileEntry[], order: SortOrder): FileEntry[] {
  const byName = (a: FileEntry, b: FileEntry) =>
    collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const primary: Record<SortKey, (a: FileEntry, b: FileEntry) => number> = {
    name: () => 0,
    size: (a, b) => a.size - b.size,
    date: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
    type: (a, b) => collator.compare(typeOf(a), typeOf(b)),
  };
  const sign = order.dir === 'asc' ? 1 : -1;
  const first = primary[order.key];
  return [...files].sort((a, b) => {
    if (a.isFolder !== b.isFolder) return a.isFolder ? -1 : 1;
    if (a.isFolder) return (order.key === 'name' ? sign : 1) * byName(a, b);
    return sign * (first(a, b) || byName(a, b));
  });
}

/** Lower case, without accents: "Résumé" is found by "resume". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The files whose name holds every word of `query` (case and accents ignored), in their order.
 * `folded` caches each name's folded form, so typing over 10,000 names stays quick.
 */
export function searchFiles(
  files: readonly FileEntry[],
  query: string,
  folded: (f: FileEntry) => string = (f) => foldForSearch(f.name),
): readonly FileEntry[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return files;
  return files.filter((f) => {
    const name = folded(f);
    return words.every((w) => name.includes(w));
  });
}

const sortStoreKey = (vaultId: string) => `sealvault.sort.${vaultId}`;

/** The sort order last chosen for this vault on this device, or the default. */
export function loadSort(vaultId: string): SortOrder {
  try {
    const raw = JSON.parse(localStorage.getItem(sortStoreKey(vaultId)) ?? 'null') as unknown;
    const v = raw as Partial<SortOrder> | null;
    if (v && SORT_KEYS.some((k) => k.key === v.key) && (v.dir === 'asc' || v.dir === 'desc')) {
      return { key: v.key!, dir: v.dir };
    }
  } catch {
    // unreadable: the default
  }
  return DEFAULT_SORT;
}

export function saveSort(vaultId: string, order: SortOrder): void {
  try {
    localStorage.setItem(sortStoreKey(vaultId), JSON.stringify(order));
  } catch {
    // storage full or blocked: the order lasts for this page only
  }
}

/**
 * The selection after a click on `id`'s checkbox: toggles it, or with shift sets every file from
 * the last clicked one (the anchor) to it, in the order shown, to the clicked one's new state.
 */
export function clickSelection(
  selected: ReadonlySet<string>,
  shown: readonly string[],
  id: string,
  anchor: string | null,
  shift: boolean,
): Set<string> {
  const next = new Set(selected);
  const on = !selected.has(id);
  const from = anchor === null ? -1 : shown.indexOf(anchor);
  const to = shown.indexOf(id);
  if (shift && from >= 0 && to >= 0) {
    const [lo, hi] = from < to ? [from, to] : [to, from];
    for (const other of shown.slice(lo, hi + 1)) {
      if (on) next.add(other);
      else next.delete(other);
    }
    return next;
  }
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The name a file of the same name gets with "Keep both": "notes (2).txt", "notes (3).txt"…, the
 * first not in `taken` (compared as the server does: Unicode NFC, case kept).
 */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  const key = (n: string) => n.normalize('NFC');
  if (!taken.has(key(name))) return name;
  const [base, ext] = splitName(name);
  const stem = base.replace(/ \((\d+)\)$/, '');
  for (let n = 2; ; n += 1) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(key(candidate))) return candidate;
  }
}

/** The names in use, as the server compares them (NFC). */
export function takenNames(files: readonly { name: string }[]): Set<string> {
  return new Set(files.map((f) => f.name.normalize('NFC')));
}
