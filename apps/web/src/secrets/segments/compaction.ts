// Keeping a secrets vault's log short (ADR 0008, "Compaction"). After a write, if the list is long
// or mostly superseded, the writer folds the log into one snapshot segment of the live items,
// compare-and-swaps the manifest to `segments: [snapshot]` (entries unchanged: the same items),
// and once that is committed deletes every segment pinned before. A compaction that loses the race
// is dropped (its snapshot becomes an orphan); an interrupted one leaves the old list or the new
// one pinned, and blobs no manifest pins, which `orphans` later finds.
//
// [Note: orphan grace] A writer uploads its segment before it pins it, so an unpinned `seg-*` blob
// may be a write in flight. Only one older than ORPHAN_GRACE_MS is deleted, and a writer whose
// upload is older than REPIN_WITHIN_MS uploads its change again under a new id rather than pin a
// blob that may be deleted under it.
import type { LogStats } from './fold.ts';
import {
  newSegmentId,
  sealSegment,
  segmentIdOfBlob,
  type ItemRecord,
  type SealedSegment,
  type SegmentId,
  type SegmentPin,
} from './segment.ts';

/** More segments than this and a read costs too many requests: compact. */
export const MAX_SEGMENTS = 16;
export const ORPHAN_GRACE_MS = 10 * 60 * 1000;
export const REPIN_WITHIN_MS = ORPHAN_GRACE_MS / 2;

/**
 * Whether to compact now: more than MAX_SEGMENTS segments, or more than half of all records dead
 * (superseded revisions and tombstones). Never for one segment or fewer: a snapshot of one
 * segment's live items would not shorten the read. Plan only after a clean read (readLog's
 * `clean`): a snapshot of a log with problems would drop what the manifest still pins.
 */
export function planCompaction(segments: readonly SegmentPin[], stats: LogStats): boolean {
  if (segments.length <= 1) return false;
  if (segments.length > MAX_SEGMENTS) return true;
  return (stats.records - stats.live) * 2 > stats.records;
}

/**
 * The snapshot segment: every live item of a clean fold (readLog's `items`), no tombstone, under a
 * fresh id. Folding it alone gives the same items as folding the log it replaces.
 */
export function snapshot(
  folded: { items: ReadonlyMap<string, ItemRecord> },
  id: SegmentId = newSegmentId(),
): Promise<SealedSegment> {
  const live = [...folded.items.values()].map((r) => ({ ...r }));
  return sealSegment(live, id);
}

/**
 * The segment ids to delete once the manifest with `[snapshotPin]` is committed: every segment
 * pinned before it, except the snapshot itself.
 */
export function supersededBy(previous: readonly SegmentPin[], snapshotPin: SegmentPin): string[] {
  return previous.map(([id]) => id).filter((id) => id !== snapshotPin[0]);
}

/**
 * The `seg-*` blob names that are safe to delete: no pin in `pinned` (segment ids of the current,
 * verified manifest) names them, and they are older than `olderThanMs` ([Note: orphan grace]).
 * `createdAt` answers when a blob was made (ms since the epoch), or when this device first saw it
 * where the provider does not say; undefined keeps it. Other names in the folder are never listed.
 */
export function orphans(
  blobNames: Iterable<string>,
  pinned: Iterable<string>,
  olderThanMs: number,
  now: number,
  createdAt: (name: string) => number | undefined,
): string[] {
  const keep = new Set(pinned);
  const found: string[] = [];
  for (const name of blobNames) {
    const id = segmentIdOfBlob(name);
    if (id === null || keep.has(id)) continue;
    const made = createdAt(name);
    if (made !== undefined && now - made > olderThanMs) found.push(name);
  }
  return found;
}

/** Whether a segment uploaded at `uploadedAt` may still be pinned ([Note: orphan grace]). */
export const stillPinnable = (uploadedAt: number, now: number): boolean =>
  now - uploadedAt <= REPIN_WITHIN_MS;
