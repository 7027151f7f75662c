// Reading a secrets vault's log (ADR 0008, "Reading"): fetch every segment the manifest pins,
// check each one's bytes against its pin, fold the records in list order, and compare the items
// that result with the manifest's `secrets` entries exactly as the server's list is compared
// (ADR 0007, "Checks"). Whatever the provider dropped, swapped or rolled back is named, and an item
// that cannot be vouched for is left out; nothing is used silently.
import {
  isTombstone,
  parseSegment,
  segmentDigest,
  type ItemRecord,
  type SegmentPin,
  type SegmentRecord,
} from './segment.ts';

/** The manifest's `secrets` entries: [item id, revision, itemEntryDigest]. */
export type SecretEntry = readonly [id: string, revision: number, digest: string];

/**
 * The entry digest of an item: the app passes `itemEntryDigest` from @sealvault/crypto, tests a
 * stand-in. Only compared for equality with the entries' digests.
 */
export type EntryDigest = (item: ItemRecord) => Promise<string>;

/** A segment's bytes from the provider, or null if no blob has its name (any other failure throws). */
export type FetchSegment = (segmentId: string) => Promise<Uint8Array | null>;

export type SegmentProblem =
  /** A pinned segment is not in the provider. */
  | { kind: 'dropped'; segment: string }
  /** A pinned segment's bytes are not the ones pinned: changed, swapped or an older blob. */
  | { kind: 'swapped'; segment: string }
  /** A pinned segment's bytes match their pin but are not a valid segment. */
  | { kind: 'malformed'; segment: string }
  /** An item in the manifest that the log does not hold. */
  | { kind: 'missing'; id: string }
  /** An item the log holds that the manifest does not. */
  | { kind: 'extra'; id: string }
  /** An item whose record is not its entry, or two records of one revision that differ. */
  | { kind: 'changed'; id: string }
  /** An item at a lower revision than the manifest's, or a log whose later record goes back. */
  | { kind: 'rolled-back'; id: string; revision: number; expected: number };

/** What a fold counts, for planCompaction. */
export interface LogStats {
  /** Pinned segments. */
  segments: number;
  /** Records across every segment read (items and tombstones). */
  records: number;
  /** Items alive after the fold. */
  live: number;
}

export interface Folded {
  /** The live items, by id: only those the log vouches for. */
  items: Map<string, ItemRecord>;
  problems: SegmentProblem[];
  stats: LogStats;
}

/** A verified segment's records, or the problem that stopped it being read. */
export type ReadSegment =
  { segment: string; records: SegmentRecord[] } | { segment: string; problem: SegmentProblem };

/** Fetches every pinned segment in parallel and checks its bytes against its pin. */
export async function readSegments(
  pins: readonly SegmentPin[],
  fetchSegment: FetchSegment,
): Promise<ReadSegment[]> {
  return Promise.all(
    pins.map(async ([segment, digest]): Promise<ReadSegment> => {
      const bytes = await fetchSegment(segment);
      if (bytes === null) return { segment, problem: { kind: 'dropped', segment } };
      if ((await segmentDigest(bytes)) !== digest)
        return { segment, problem: { kind: 'swapped', segment } };
      const records = parseSegment(bytes);
      if (records === null) return { segment, problem: { kind: 'malformed', segment } };
      return { segment, records };
    }),
  );
}

/**
 * Folds segments in list order (oldest first). An item record replaces the item if its revision
 * is higher; the same revision again must be the same data; a tombstone removes the item and must
 * not be older than it; an item after its tombstone must be newer than the tombstone. An id
 * that breaks a rule is reported once and left out of the result for the whole fold: a log this
 * app wrote never does it. Segments that could not be read are reported and skipped, so what they
 * held shows up as missing or rolled back against the entries.
 */
export function foldSegments(segments: readonly ReadSegment[]): Folded {
  const items = new Map<string, ItemRecord>();
  /** The revision each deleted id had: a later record must be newer. */
  const deleted = new Map<string, number>();
  const refused = new Map<string, SegmentProblem>();
  const problems: SegmentProblem[] = [];
  let records = 0;
  const refuse = (p: SegmentProblem & { id: string }) => {
    if (!refused.has(p.id)) refused.set(p.id, p);
    items.delete(p.id);
  };
  for (const s of segments) {
    if ('problem' in s) {
      problems.push(s.problem);
      continue;
    }
    records += s.records.length;
    for (const r of s.records) {
      if (refused.has(r.id)) continue;
      const held = items.get(r.id);
      const floor = held?.revision ?? deleted.get(r.id);
      if (isTombstone(r)) {
        if (floor !== undefined && r.revision < floor)
          refuse({ kind: 'rolled-back', id: r.id, revision: r.revision, expected: floor });
        else {
          items.delete(r.id);
          deleted.set(r.id, r.revision);
        }
      } else if (held !== undefined && r.revision === held.revision) {
        if (r.data !== held.data) refuse({ kind: 'changed', id: r.id });
      } else if (floor !== undefined && r.revision <= floor) {
        refuse({ kind: 'rolled-back', id: r.id, revision: r.revision, expected: floor });
      } else {
        items.set(r.id, { ...r });
        deleted.delete(r.id);
      }
    }
  }
  problems.push(...refused.values());
  return { items, problems, stats: { segments: segments.length, records, live: items.size } };
}

/**
 * Compares the folded items with the manifest's entries: same ids, same revisions, each item's
 * entry digest equal to its entry's. Ids the fold already refused are not reported again. Every
 * item named here is removed from `folded.items`, so what is left is what may be shown.
 */
export async function checkAgainstEntries(
  folded: Folded,
  entries: readonly SecretEntry[],
  digestOf: EntryDigest,
): Promise<Extract<SegmentProblem, { id: string }>[]> {
  const refused = new Set(folded.problems.flatMap((p) => ('id' in p ? [p.id] : [])));
  const pinned = new Map(entries.map(([id, revision, digest]) => [id, { revision, digest }]));
  const problems: Extract<SegmentProblem, { id: string }>[] = [];
  const items = [...folded.items.values()];
  const digests = await Promise.all(items.map(digestOf));
  items.forEach((item, i) => {
    const entry = pinned.get(item.id);
    if (entry === undefined) problems.push({ kind: 'extra', id: item.id });
    else if (item.revision < entry.revision)
      problems.push({
        kind: 'rolled-back',
        id: item.id,
        revision: item.revision,
        expected: entry.revision,
      });
    else if (item.revision !== entry.revision || digests[i] !== entry.digest)
      problems.push({ kind: 'changed', id: item.id });
  });
  for (const [id] of entries)
    if (!folded.items.has(id) && !refused.has(id)) problems.push({ kind: 'missing', id });
  for (const p of problems) folded.items.delete(p.id);
  return problems;
}

/**
 * The whole read: fetch, verify, fold, check. `items` holds only what the manifest vouches for;
 * `problems` names everything else (segments first, then items). `clean` is true when nothing was
 * found: only then may the fold be compacted (compaction.ts).
 */
export async function readLog(
  pins: readonly SegmentPin[],
  entries: readonly SecretEntry[],
  fetchSegment: FetchSegment,
  digestOf: EntryDigest,
): Promise<Folded & { clean: boolean }> {
  const folded = foldSegments(await readSegments(pins, fetchSegment));
  const problems = [...folded.problems, ...(await checkAgainstEntries(folded, entries, digestOf))];
  return {
    items: folded.items,
    problems,
    stats: { ...folded.stats, live: folded.items.size },
    clean: problems.length === 0,
  };
}
