// Writing to a secrets vault's log (ADR 0008, "Writing"). A writer seals its change as one new
// segment, uploads it (a fresh name: nothing is overwritten), then compare-and-swaps the manifest
// with the segment's pin appended and the entries updated. The manifest's compare-and-swap orders
// concurrent writers; a loser re-reads (and re-verifies) the manifest and calls `rebase` again with
// it: the same uploaded segment lands on top of the winner's if every one of its records still
// applies, so two devices editing different items both land and the same item is a conflict.
// The first attempt goes through `rebase` too, against the manifest the change was made from.
import type { EntryDigest, SecretEntry } from './fold.ts';
import { isTombstone, type SegmentPin, type SegmentRecord } from './segment.ts';

/** The part of a manifest the log owns: its segment list and its item entries. */
export interface LogState {
  segments: readonly SegmentPin[];
  secrets: readonly SecretEntry[];
}

/** An uploaded segment not yet pinned: its pin and the records it holds (its change). */
export interface PendingWrite {
  pin: SegmentPin;
  records: readonly SegmentRecord[];
}

export type Rebased =
  /** Write these into the next manifest version (compare-and-swap on the version read). */
  | { kind: 'apply'; segments: [string, string][]; secrets: [string, number, string][] }
  /**
   * The manifest already holds the change (an earlier attempt won though its answer was lost).
   * `pinned` false: the segment is no longer (or was never) in the list, so it may be deleted.
   */
  | { kind: 'landed'; pinned: boolean }
  /** Another device changed these items since: show the conflict, delete the unused segment. */
  | { kind: 'conflict'; ids: string[] };

/**
 * Whether `record` still applies to the item's current entry ([Note: revision steps] in
 * segment.ts): a new item (revision 1) if the id is absent, an update to revision n if the entry
 * is at n - 1, a tombstone at n if the entry is at n.
 */
export function applies(record: SegmentRecord, entry: SecretEntry | undefined): boolean {
  if (isTombstone(record)) return entry?.[1] === record.revision;
  if (record.revision === 1) return entry === undefined;
  return entry?.[1] === record.revision - 1;
}

/** The ids of `records` that no longer apply to `entries`, in the records' order. */
export function conflicts(
  records: readonly SegmentRecord[],
  entries: readonly SecretEntry[],
): string[] {
  const byId = new Map(entries.map((e) => [e[0], e]));
  return records.filter((r) => !applies(r, byId.get(r.id))).map((r) => r.id);
}

/** `entries` with the change applied, sorted by id as the manifest keeps them. */
export async function applyToEntries(
  entries: readonly SecretEntry[],
  records: readonly SegmentRecord[],
  digestOf: EntryDigest,
): Promise<[string, number, string][]> {
  const next = new Map(
    entries.map(([id, r, d]): [string, [string, number, string]] => [id, [id, r, d]]),
  );
  for (const r of records) {
    if (isTombstone(r)) next.delete(r.id);
    else next.set(r.id, [r.id, r.revision, await digestOf(r)]);
  }
  return [...next.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Whether the entries already show every record: its item at its revision and digest, or gone. */
async function reflected(
  records: readonly SegmentRecord[],
  entries: readonly SecretEntry[],
  digestOf: EntryDigest,
): Promise<boolean> {
  const byId = new Map(entries.map((e) => [e[0], e]));
  for (const r of records) {
    const entry = byId.get(r.id);
    if (isTombstone(r) ? entry !== undefined : entry?.[1] !== r.revision) return false;
    if (!isTombstone(r) && entry?.[2] !== (await digestOf(r))) return false;
  }
  return true;
}

/**
 * Lays an uploaded segment on top of the manifest's current log. Applies if every record still
 * applies; the segment's pin is appended to the current list (after whatever a compaction left),
 * never re-uploaded.
 */
export async function rebase(
  write: PendingWrite,
  current: LogState,
  digestOf: EntryDigest,
): Promise<Rebased> {
  const [segmentId] = write.pin;
  if (current.segments.some(([id]) => id === segmentId)) return { kind: 'landed', pinned: true };
  const ids = conflicts(write.records, current.secrets);
  if (ids.length === 0)
    return {
      kind: 'apply',
      segments: [...current.segments.map(([id, d]): [string, string] => [id, d]), [...write.pin]],
      secrets: await applyToEntries(current.secrets, write.records, digestOf),
    };
  if (await reflected(write.records, current.secrets, digestOf))
    return { kind: 'landed', pinned: false };
  return { kind: 'conflict', ids };
}
