import { describe, expect, it } from 'vitest';
import { foldSegments, readLog, type SecretEntry } from './fold.ts';
import { MemoryFolder, digestOf, entryOf, item, itemId, tombstone } from './log.testkit.ts';
import { segmentDigest, type SegmentPin, type SegmentRecord } from './segment.ts';

/** Uploads one segment per write and answers the pins, oldest first. */
async function history(folder: MemoryFolder, writes: SegmentRecord[][]): Promise<SegmentPin[]> {
  const pins: SegmentPin[] = [];
  for (const w of writes) pins.push((await folder.upload(w)).pin);
  return pins;
}

const entries = (...items: ReturnType<typeof item>[]) => Promise.all(items.map(entryOf));

describe('reading the log', () => {
  it('folds writes in order: a newer revision replaces, a tombstone removes', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [
      [item(1, 1), item(2, 1), item(3, 1)],
      [item(2, 2)],
      [tombstone(3, 1), item(4, 1)],
    ]);
    const read = await readLog(
      pins,
      await entries(item(1, 1), item(2, 2), item(4, 1)),
      folder.fetch,
      digestOf,
    );
    expect(read.problems).toEqual([]);
    expect(read.clean).toBe(true);
    expect([...read.items.values()]).toEqual([item(1, 1), item(2, 2), item(4, 1)]);
    expect(read.stats).toEqual({ segments: 3, records: 6, live: 3 });
  });

  it('reads an empty log as an empty vault', async () => {
    const read = await readLog([], [], new MemoryFolder().fetch, digestOf);
    expect(read).toMatchObject({ problems: [], clean: true });
    expect(read.items.size).toBe(0);
  });

  it('names a dropped segment, and what it held as rolled back or missing', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1)], [item(1, 2), item(2, 1)], [item(3, 1)]]);
    folder.blobs.delete(`seg-${pins[1]![0]}`);
    const read = await readLog(
      pins,
      await entries(item(1, 2), item(2, 1), item(3, 1)),
      folder.fetch,
      digestOf,
    );
    expect(read.problems).toEqual([
      { kind: 'dropped', segment: pins[1]![0] },
      { kind: 'rolled-back', id: itemId(1), revision: 1, expected: 2 },
      { kind: 'missing', id: itemId(2) },
    ]);
    expect(read.clean).toBe(false);
    expect([...read.items.keys()]).toEqual([itemId(3)]);
  });

  it('names a swapped segment: another valid segment under its name', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1)], [item(1, 2)]]);
    const other = await folder.upload([item(1, 2, ' forged')]);
    folder.blobs.set(`seg-${pins[1]![0]}`, other.bytes);
    const read = await readLog(pins, await entries(item(1, 2)), folder.fetch, digestOf);
    expect(read.problems).toEqual([
      { kind: 'swapped', segment: pins[1]![0] },
      { kind: 'rolled-back', id: itemId(1), revision: 1, expected: 2 },
    ]);
    expect(read.items.size).toBe(0);
  });

  it('names an older blob served under a segment name as swapped', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1), item(2, 1)], [item(1, 2)]]);
    // The provider serves the first segment's bytes under the second's name.
    folder.blobs.set(`seg-${pins[1]![0]}`, folder.blobs.get(`seg-${pins[0]![0]}`)!);
    const read = await readLog(pins, await entries(item(1, 2), item(2, 1)), folder.fetch, digestOf);
    expect(read.problems[0]).toEqual({ kind: 'swapped', segment: pins[1]![0] });
    expect([...read.items.keys()]).toEqual([itemId(2)]);
  });

  it('refuses an older segment list: the manifest entries name the rollback', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1)], [item(1, 2)]]);
    const read = await readLog(pins.slice(0, 1), await entries(item(1, 2)), folder.fetch, digestOf);
    expect(read.problems).toEqual([
      { kind: 'rolled-back', id: itemId(1), revision: 1, expected: 2 },
    ]);
    expect(read.items.size).toBe(0);
  });

  it('names a segment that matches its pin but is not a segment as malformed', async () => {
    const folder = new MemoryFolder();
    const bytes = new TextEncoder().encode('{"format":"vf1-segments","records":[{}]}');
    const pin: SegmentPin = ['5e000000-0000-4000-8000-0000000000ff', await segmentDigest(bytes)];
    folder.blobs.set(`seg-${pin[0]}`, bytes);
    const read = await readLog([pin], [], folder.fetch, digestOf);
    expect(read.problems).toEqual([{ kind: 'malformed', segment: pin[0] }]);
  });

  it('lets a failure to reach the provider through: it is not a dropped segment', async () => {
    const pin: SegmentPin = ['5e000000-0000-4000-8000-0000000000ff', '0'.repeat(64)];
    const offline = () => Promise.reject(new Error('offline'));
    await expect(readLog([pin], [], offline, digestOf)).rejects.toThrow('offline');
  });
});

describe('folding refuses a log that goes back', () => {
  const fold = (...segments: SegmentRecord[][]) =>
    foldSegments(segments.map((records, i) => ({ segment: `s${i}`, records })));

  it('refuses a later record with a lower revision, for the whole fold', () => {
    const folded = fold([item(1, 3), item(2, 1)], [item(1, 2)], [item(1, 4)]);
    expect(folded.problems).toEqual([
      { kind: 'rolled-back', id: itemId(1), revision: 2, expected: 3 },
    ]);
    expect([...folded.items.keys()]).toEqual([itemId(2)]);
  });

  it('refuses the same revision with other data as changed, and takes it again unchanged', () => {
    expect(fold([item(1, 2)], [item(1, 2, ' other')]).problems).toEqual([
      { kind: 'changed', id: itemId(1) },
    ]);
    const again = fold([item(1, 2)], [item(1, 2)]);
    expect(again.problems).toEqual([]);
    expect(again.items.get(itemId(1))).toEqual(item(1, 2));
  });

  it('refuses a tombstone older than the item, and an item no newer than its tombstone', () => {
    expect(fold([item(1, 3)], [tombstone(1, 2)]).problems).toEqual([
      { kind: 'rolled-back', id: itemId(1), revision: 2, expected: 3 },
    ]);
    expect(fold([item(1, 3)], [tombstone(1, 3)], [item(1, 3)]).problems).toEqual([
      { kind: 'rolled-back', id: itemId(1), revision: 3, expected: 3 },
    ]);
    const deleted = fold([item(1, 3)], [tombstone(1, 3)]);
    expect(deleted.problems).toEqual([]);
    expect(deleted.items.size).toBe(0);
  });

  it('does not name a refused item again as missing against the entries', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 3)], [item(1, 2)]]);
    const read = await readLog(pins, await entries(item(1, 3)), folder.fetch, digestOf);
    expect(read.problems).toEqual([
      { kind: 'rolled-back', id: itemId(1), revision: 2, expected: 3 },
    ]);
  });
});

describe('checking the fold against the manifest entries', () => {
  it('names extra, changed and missing items and leaves them out', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1), item(2, 1), item(3, 1), item(4, 2)]]);
    const pinned: SecretEntry[] = [
      await entryOf(item(1, 1)),
      [itemId(2), 1, 'another digest'],
      await entryOf(item(4, 1)),
      await entryOf(item(5, 1)),
    ];
    const read = await readLog(pins, pinned, folder.fetch, digestOf);
    expect(read.problems).toEqual([
      { kind: 'changed', id: itemId(2) },
      { kind: 'extra', id: itemId(3) },
      { kind: 'changed', id: itemId(4) },
      { kind: 'missing', id: itemId(5) },
    ]);
    expect([...read.items.keys()]).toEqual([itemId(1)]);
    expect(read.stats.live).toBe(1);
  });

  it('finds a record that is some other item’s: its digest is not its entry’s', async () => {
    const folder = new MemoryFolder();
    const moved = { ...item(1, 1), data: item(2, 1).data };
    const pins = await history(folder, [[moved, item(2, 1)]]);
    const read = await readLog(pins, await entries(item(1, 1), item(2, 1)), folder.fetch, digestOf);
    expect(read.problems).toEqual([{ kind: 'changed', id: itemId(1) }]);
  });

  it('folds in the list’s order, whatever order the provider answers in', async () => {
    const folder = new MemoryFolder();
    const pins = await history(folder, [[item(1, 1)], [item(1, 2)]]);
    const firstIsSlow = (id: string) =>
      new Promise<Uint8Array | null>((resolve) =>
        setTimeout(
          () => resolve(folder.blobs.get(`seg-${id}`) ?? null),
          id === pins[0]![0] ? 20 : 0,
        ),
      );
    const read = await readLog(pins, await entries(item(1, 2)), firstIsSlow, digestOf);
    expect(read.clean).toBe(true);
    expect([...read.items.values()]).toEqual([item(1, 2)]);
  });
});
