import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SEGMENTS,
  ORPHAN_GRACE_MS,
  orphans,
  planCompaction,
  snapshot,
  stillPinnable,
  supersededBy,
} from './compaction.ts';
import { readLog } from './fold.ts';
import { rebase, type LogState } from './rebase.ts';
import { MemoryFolder, digestOf, entryOf, item, itemId, segId, tombstone } from './log.testkit.ts';
import {
  blobName,
  isTombstone,
  parseSegment,
  type SegmentPin,
  type SegmentRecord,
} from './segment.ts';

const pins = (n: number): SegmentPin[] =>
  Array.from({ length: n }, (_, i) => [
    `5e000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    'd',
  ]);

describe('when to compact', () => {
  it('compacts more than 16 segments, even with nothing superseded', () => {
    expect(planCompaction(pins(MAX_SEGMENTS), { segments: 16, records: 16, live: 16 })).toBe(false);
    expect(planCompaction(pins(MAX_SEGMENTS + 1), { segments: 17, records: 17, live: 17 })).toBe(
      true,
    );
  });

  it('compacts when more than half of the records are superseded or tombstones', () => {
    expect(planCompaction(pins(3), { segments: 3, records: 10, live: 4 })).toBe(true);
    expect(planCompaction(pins(3), { segments: 3, records: 10, live: 5 })).toBe(false);
  });

  it('never compacts one segment', () => {
    expect(planCompaction(pins(1), { segments: 1, records: 10, live: 0 })).toBe(false);
    expect(planCompaction([], { segments: 0, records: 0, live: 0 })).toBe(false);
  });
});

describe('compacting', () => {
  it('writes a snapshot of the live items that reads as the log did, and lists the rest to delete', async () => {
    const folder = new MemoryFolder();
    const log: SegmentPin[] = [];
    for (const w of [[item(1, 1), item(2, 1)], [item(1, 2), item(3, 1)], [tombstone(2, 1)]])
      log.push((await folder.upload(w)).pin);
    const entries = await Promise.all([item(1, 2), item(3, 1)].map(entryOf));
    const before = await readLog(log, entries, folder.fetch, digestOf);
    expect(before.clean).toBe(true);
    expect(planCompaction(log, before.stats)).toBe(true);

    const snap = await snapshot(before);
    folder.blobs.set(snap.name, snap.bytes);
    expect(parseSegment(snap.bytes)!.some(isTombstone)).toBe(false);
    const after = await readLog([snap.pin], entries, folder.fetch, digestOf);
    expect(after.problems).toEqual([]);
    expect(after.items).toEqual(before.items);
    expect(after.stats).toEqual({ segments: 1, records: 2, live: 2 });
    expect(supersededBy(log, snap.pin)).toEqual(log.map(([id]) => id));
    expect(supersededBy([...log, snap.pin], snap.pin)).toEqual(log.map(([id]) => id));
  });
});

describe('orphaned segments', () => {
  const now = 1_000_000_000;
  const [pinned, young, old, unknown] = [segId(), segId(), segId(), segId()];
  const made: Record<string, number> = {
    [blobName(pinned)]: now - 3 * ORPHAN_GRACE_MS,
    [blobName(young)]: now - ORPHAN_GRACE_MS + 1,
    [blobName(old)]: now - ORPHAN_GRACE_MS - 1,
    'notes.txt': now - 3 * ORPHAN_GRACE_MS,
  };
  const names = [...Object.keys(made), blobName(unknown)];

  it('deletes only unpinned seg-* blobs older than the grace period', () => {
    expect(orphans(names, [pinned], ORPHAN_GRACE_MS, now, (n) => made[n])).toEqual([blobName(old)]);
  });

  it('keeps a blob uploaded exactly the grace period ago, or of unknown age', () => {
    const exactly = (n: string) => (n === blobName(old) ? now - ORPHAN_GRACE_MS : made[n]);
    expect(orphans(names, [pinned], ORPHAN_GRACE_MS, now, exactly)).toEqual([]);
  });

  it('has a writer upload again rather than pin a blob near the grace period', () => {
    expect(stillPinnable(now - ORPHAN_GRACE_MS / 2, now)).toBe(true);
    expect(stillPinnable(now - ORPHAN_GRACE_MS / 2 - 1, now)).toBe(false);
  });
});

/** One write: up to 4 operations on 6 item slots; a slot's item gets a new id once deleted. */
const writes = fc.array(
  fc.array(
    fc.record({ slot: fc.nat(5), op: fc.constantFrom('put', 'put', 'delete'), tag: fc.nat(9) }),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
  { maxLength: 25 },
);

describe('a random history of writes', () => {
  it('applies write by write, folds to the model’s live set, and its snapshot folds to the same set', async () => {
    await fc.assert(
      fc.asyncProperty(writes, async (history) => {
        const folder = new MemoryFolder();
        const generation = [0, 0, 0, 0, 0, 0];
        const live = new Map<string, ReturnType<typeof item>>();
        let state: LogState = { segments: [], secrets: [] };
        for (const ops of history) {
          // [Note: revision steps]: a write moves each item one revision from where it found it.
          const base = new Map([...live].map(([id, i]) => [id, i.revision]));
          const records = new Map<string, SegmentRecord>();
          for (const { slot, op, tag } of ops) {
            const n = slot * 1000 + generation[slot]!;
            const from = base.get(itemId(n));
            if (op === 'put') {
              const next = item(n, (from ?? 0) + 1, ` ${tag}`);
              live.set(next.id, next);
              records.set(next.id, next);
            } else if (live.has(itemId(n))) {
              live.delete(itemId(n));
              // Created and deleted in one write: nothing of it reaches the log.
              if (from === undefined) records.delete(itemId(n));
              else records.set(itemId(n), tombstone(n, from));
              generation[slot]! += 1;
            }
          }
          if (records.size === 0) continue;
          const r = await rebase(await folder.upload([...records.values()]), state, digestOf);
          if (r.kind !== 'apply') throw new Error(`a write did not apply: ${r.kind}`);
          state = r;
        }
        const entries = state.secrets;
        expect(entries).toEqual(
          await Promise.all([...live.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map(entryOf)),
        );
        const log = state.segments;

        const read = await readLog(log, entries, folder.fetch, digestOf);
        expect(read.problems).toEqual([]);
        expect(new Map([...read.items].sort())).toEqual(new Map([...live].sort()));

        const snap = await snapshot(read);
        folder.blobs.set(snap.name, snap.bytes);
        const compacted = await readLog([snap.pin], entries, folder.fetch, digestOf);
        expect(compacted.problems).toEqual([]);
        expect(compacted.items).toEqual(read.items);
        expect(compacted.stats.records).toBe(live.size);
      }),
      { numRuns: 200 },
    );
  });
});
