import { describe, expect, it } from 'vitest';
import { snapshot } from './compaction.ts';
import { readLog } from './fold.ts';
import {
  ManifestServer,
  MemoryFolder,
  digestOf,
  entryOf,
  item,
  itemId,
  tombstone,
} from './log.testkit.ts';
import { applies, rebase, type LogState, type Rebased } from './rebase.ts';
import type { SealedSegment, SegmentRecord } from './segment.ts';

/** A vault with items 1 and 2 at revision 1, written as one segment. */
async function vault() {
  const folder = new MemoryFolder();
  const server = new ManifestServer();
  const first = await folder.upload([item(1, 1), item(2, 1)]);
  const r = await rebase(first, server.state, digestOf);
  if (r.kind !== 'apply' || !server.cas(0, r)) throw new Error('setup');
  return { folder, server };
}

/** A writer's loop: rebase on the manifest it read, compare-and-swap, re-read on a 409. */
async function commit(server: ManifestServer, write: SealedSegment, read = server.read()) {
  for (;;) {
    const r: Rebased = await rebase(write, read.state, digestOf);
    if (r.kind !== 'apply') return r;
    if (server.cas(read.version, { segments: r.segments, secrets: r.secrets })) return r;
    read = server.read();
  }
}

const readAll = (folder: MemoryFolder, s: LogState) =>
  readLog(s.segments, s.secrets, folder.fetch, digestOf);

describe('concurrent writes', () => {
  it('lands two devices’ edits of different items, the loser’s segment appended unchanged', async () => {
    const { folder, server } = await vault();
    const base = server.read();
    const a = await folder.upload([item(1, 2, ' by A')]);
    const b = await folder.upload([item(2, 2, ' by B'), item(3, 1, ' by B')]);
    const uploads = folder.blobs.size;

    expect((await commit(server, a, base)).kind).toBe('apply');
    expect((await commit(server, b, base)).kind).toBe('apply');

    expect(folder.blobs.size).toBe(uploads);
    expect(server.version).toBe(3);
    expect(server.state.segments.slice(1)).toEqual([a.pin, b.pin]);
    const read = await readAll(folder, server.state);
    expect(read.problems).toEqual([]);
    expect([...read.items.values()]).toEqual([
      item(1, 2, ' by A'),
      item(2, 2, ' by B'),
      item(3, 1, ' by B'),
    ]);
  });

  it('gives a conflict for the same item edited on two devices, and pins nothing', async () => {
    const { folder, server } = await vault();
    const base = server.read();
    const a = await folder.upload([item(1, 2, ' by A')]);
    const b = await folder.upload([item(1, 2, ' by B'), item(2, 2, ' by B')]);
    await commit(server, a, base);
    const before = server.read();

    expect(await commit(server, b, base)).toEqual({ kind: 'conflict', ids: [itemId(1)] });
    expect(server.read()).toEqual(before);
    expect((await readAll(folder, server.state)).items.get(itemId(1))).toEqual(item(1, 2, ' by A'));
  });

  it('gives a conflict for an edit of an item deleted elsewhere, and for a delete of one edited', async () => {
    const { folder, server } = await vault();
    const base = server.read();
    await commit(server, await folder.upload([tombstone(1, 1), item(2, 2)]), base);
    expect(await commit(server, await folder.upload([item(1, 2)]), base)).toEqual({
      kind: 'conflict',
      ids: [itemId(1)],
    });
    expect(await commit(server, await folder.upload([tombstone(2, 1)]), base)).toEqual({
      kind: 'conflict',
      ids: [itemId(2)],
    });
  });

  it('lands a write on top of a compaction that happened meanwhile', async () => {
    const { folder, server } = await vault();
    const base = server.read();
    const write = await folder.upload([item(2, 2)]);
    const snap = await snapshot(await readAll(folder, base.state));
    folder.blobs.set(snap.name, snap.bytes);
    server.cas(base.version, { segments: [snap.pin], secrets: base.state.secrets });

    expect((await commit(server, write, base)).kind).toBe('apply');
    expect(server.state.segments).toEqual([snap.pin, write.pin]);
    expect((await readAll(folder, server.state)).problems).toEqual([]);
  });

  it('knows a write that already landed, pinned or compacted away since', async () => {
    const { folder, server } = await vault();
    const base = server.read();
    const write = await folder.upload([item(1, 2)]);
    await commit(server, write, base);
    // The answer to the compare-and-swap was lost: the retry finds its own segment pinned.
    expect(await rebase(write, server.state, digestOf)).toEqual({ kind: 'landed', pinned: true });
    const snap = await snapshot(await readAll(folder, server.state));
    const compacted: LogState = { segments: [snap.pin], secrets: server.state.secrets };
    expect(await rebase(write, compacted, digestOf)).toEqual({ kind: 'landed', pinned: false });
  });

  it('updates the entries: a new revision’s digest, a deleted item gone, sorted by id', async () => {
    const { folder, server } = await vault();
    await commit(server, await folder.upload([item(5, 1), tombstone(1, 1), item(2, 2)]));
    expect(server.state.secrets).toEqual(await Promise.all([item(2, 2), item(5, 1)].map(entryOf)));
  });
});

describe('whether a record still applies', () => {
  const entry = async (n: number, r: number) => entryOf(item(n, r));
  it.each<[string, SegmentRecord, number | null, boolean]>([
    ['a new item, absent', item(1, 1), null, true],
    ['a new item, present', item(1, 1), 1, false],
    ['an update from the revision held', item(1, 3), 2, true],
    ['an update from an older revision', item(1, 3), 3, false],
    ['an update of a deleted item', item(1, 3), null, false],
    ['a delete at the revision held', tombstone(1, 2), 2, true],
    ['a delete at another revision', tombstone(1, 2), 3, false],
    ['a delete of a deleted item', tombstone(1, 2), null, false],
  ])('%s', async (_, record, held, expected) => {
    expect(applies(record, held === null ? undefined : await entry(1, held))).toBe(expected);
  });
});
