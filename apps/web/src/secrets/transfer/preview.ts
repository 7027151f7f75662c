// What the import screen shows before anything is stored (issue 20): how many items of each
// type, which ones duplicate another (in the file, or already in the vault) and what of the
// file will not be imported.
import type { Skipped } from './errors.ts';
import { ITEM_TYPES, itemUsername, type ItemType, type TransferItem } from './model.ts';

export interface Duplicate {
  /** The item's index in `items`. */
  index: number;
  title: string;
  /** Whether it repeats an earlier item of the file or one already in the vault. */
  of: 'file' | 'existing';
}

export interface ImportPreview {
  total: number;
  counts: Record<ItemType, number>;
  duplicates: Duplicate[];
  /** What will not be imported, grouped by reason, with the entries it concerns. */
  unmapped: { reason: string; entries: string[] }[];
}

/**
 * An item's identity for duplicates: its type, title, username and first URL, compared trimmed
 * and case-blind. A secure note and a plain text count as one type: the vault stores both as
 * plain text (model.ts toSecretFields).
 */
export function duplicateKey(item: TransferItem): string {
  const type = item.type === 'note' ? 'text' : item.type;
  const norm = (v: string | undefined) => (v ?? '').trim().toLowerCase();
  return JSON.stringify([type, norm(item.title), norm(itemUsername(item)), norm(item.urls[0])]);
}

/** The preview of `items` against the vault's `existing` ones (fromSecretFields for secrets). */
export function previewImport(
  items: readonly TransferItem[],
  existing: readonly TransferItem[] = [],
  skipped: readonly Skipped[] = [],
): ImportPreview {
  const counts = Object.fromEntries(ITEM_TYPES.map((t) => [t, 0])) as Record<ItemType, number>;
  const inVault = new Set(existing.map(duplicateKey));
  const seen = new Set<string>();
  const duplicates: Duplicate[] = [];
  items.forEach((item, index) => {
    counts[item.type]++;
    const key = duplicateKey(item);
    if (inVault.has(key)) duplicates.push({ index, title: item.title, of: 'existing' });
    else if (seen.has(key)) duplicates.push({ index, title: item.title, of: 'file' });
    seen.add(key);
  });
  const byReason = new Map<string, string[]>();
  for (const s of skipped) {
    // "Attachment "a.pdf" is not imported" and the like group under one reason.
    const name = / "([^"]*)"/.exec(s.reason)?.[1];
    const reason = s.reason.replace(/ "[^"]*"/, '');
    const entry = name ? `${s.entry}: ${name}` : s.entry;
    byReason.set(reason, [...(byReason.get(reason) ?? []), entry]);
  }
  const unmapped = [...byReason].map(([reason, entries]) => ({ reason, entries }));
  return { total: items.length, counts, duplicates, unmapped };
}
