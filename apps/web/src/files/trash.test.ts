import { describe, expect, it } from 'vitest';
import { fileEntry } from './entry.testing.ts';
import type { FileEntry } from './model.ts';
import { dueItems, flagChanges, recordsOf, restorePlace, TRASH_MS, viewOf } from './trash.ts';

const DAY = 24 * 60 * 60 * 1000;
const folder = (id: string, parent: string | null, over: Partial<FileEntry> = {}) =>
  fileEntry(id, {
    name: id,
    isFolder: true,
    mime: 'inode/directory',
    size: 0,
    folder: parent,
    ...over,
  });
const file = (id: string, parent: string | null, over: Partial<FileEntry> = {}) =>
  fileEntry(id, { folder: parent, ...over });
const ids = (es: readonly FileEntry[]) => es.map((e) => e.id).sort();

describe('the trash', () => {
  it('a trashed folder takes what is below it; restoring it brings everything back', () => {
    const taxes = folder('Taxes', null, { trashed: 1000, trashedFrom: [] });
    const y = folder('2026', 'Taxes');
    const ret = file('return.pdf', '2026', { size: 300 });
    const notes = file('notes.txt', 'Taxes', { size: 20 });
    const photo = file('photo.png', null);
    const view = viewOf([taxes, y, ret, notes, photo]);
    expect(ids(view.live)).toEqual(['photo.png']);
    expect(view.trash).toHaveLength(1);
    const item = view.trash[0]!;
    expect(item.entry).toBe(taxes);
    expect(item.files).toBe(2);
    expect(item.bytes).toBe(320);
    expect(item.purgeAt).toBe(1000 + TRASH_MS);
    // Deepest first, the folder last: what "Delete forever" deletes in order.
    expect(item.records.at(-1)).toBe(taxes);
    expect(item.records.indexOf(ret)).toBeLessThan(item.records.indexOf(y));
    expect(ids(item.records)).toEqual(['2026', 'Taxes', 'notes.txt', 'return.pdf']);
    // Back: the folder was at the root, so it goes there with what is below it.
    const back = viewOf([{ ...taxes, trashed: null }, y, ret, notes, photo]);
    expect(ids(back.live)).toEqual(ids([taxes, y, ret, notes, photo]));
    expect(back.tree.pathTo('2026').map((f) => f.name)).toEqual(['Taxes', '2026']);
    expect(restorePlace(view.tree, taxes)).toEqual({ folder: null, create: [] });
  });

  it('a file trashed on its own inside a trashed folder stays its own item', () => {
    const docs = folder('Docs', null, { trashed: 2000, trashedFrom: [] });
    const early = file('early.txt', 'Docs', { trashed: 1000, trashedFrom: ['Docs'] });
    const kept = file('kept.txt', 'Docs');
    const view = viewOf([docs, early, kept]);
    expect(view.trash.map((t) => t.entry.id)).toEqual(['Docs', 'early.txt']); // newest first
    expect(ids(view.trash[0]!.records)).toEqual(['Docs', 'kept.txt']);
    expect(ids(view.trash[1]!.records)).toEqual(['early.txt']);
  });

  it('restores into the folder it was in, or re-creates the folders that are gone', () => {
    const scans = folder('scans', null, { name: 'Scans' });
    const a = file('a.txt', 'scans', { trashed: 1, trashedFrom: ['Scans'] });
    let view = viewOf([scans, a]);
    expect(restorePlace(view.tree, a)).toEqual({ folder: 'scans', create: [] });
    // Its folder deleted for good since: the path of names, as far as it goes, then made anew.
    const b = file('b.txt', 'gone', { trashed: 1, trashedFrom: ['Scans', '2025', 'May'] });
    view = viewOf([scans, b]);
    expect(restorePlace(view.tree, b)).toEqual({ folder: 'scans', create: ['2025', 'May'] });
    // Its folder in the trash too: not a place to restore to.
    const trashedScans = folder('scans', null, { name: 'Scans', trashed: 5, trashedFrom: [] });
    view = viewOf([trashedScans, a]);
    expect(restorePlace(view.tree, a)).toEqual({ folder: null, create: ['Scans'] });
  });

  it('what is due: 30 days in the trash, or purged by the server', () => {
    const old = file('old.txt', null, { trashed: 0, trashedFrom: [] });
    const recent = file('recent.txt', null, { trashed: 10 * DAY, trashedFrom: [] });
    const purged = file('purged.txt', null, {
      trashed: 20 * DAY,
      trashedFrom: [],
      server: { trashed: true, purged: true },
    });
    const { trash } = viewOf([old, recent, purged]);
    expect(ids(dueItems(trash, 30 * DAY).map((t) => t.entry))).toEqual(['old.txt', 'purged.txt']);
    expect(ids(dueItems(trash, 29 * DAY).map((t) => t.entry))).toEqual(['purged.txt']);
  });

  it("puts the server's flags right: trash items flagged, live records not", () => {
    const thumb = file('thumb', null);
    const gone = file('gone.png', null, { trashed: 1, trashedFrom: [], thumb });
    const wrongly = file('live.txt', null, { server: { trashed: true, purged: false } });
    const right = file('right.txt', null, { trashed: 1, server: { trashed: true, purged: false } });
    expect(flagChanges(viewOf([gone, wrongly, right]))).toEqual({
      trash: ['thumb', 'gone.png'],
      untrash: ['live.txt'],
    });
  });
});

describe('older versions', () => {
  it('are attached to their file, newest first, and follow it to the trash', () => {
    const current = file('cur', null, { name: 'notes.txt', createdAt: '2026-11-03T00:00:00Z' });
    const v1 = file('v1', null, { versionOf: 'cur', createdAt: '2026-11-01T00:00:00Z' });
    const v2 = file('v2', null, { versionOf: 'cur', createdAt: '2026-11-02T00:00:00Z' });
    const view = viewOf([current, v1, v2]);
    expect(ids(view.live)).toEqual(['cur']);
    expect(current.versions?.map((v) => v.id)).toEqual(['v2', 'v1']);
    // Moving the file to the trash flags its versions too.
    expect(ids(recordsOf(view.tree, [current]))).toEqual(['cur', 'v1', 'v2']);
    const trashed = viewOf([{ ...current, trashed: 1 }, v1, v2]);
    expect(ids(trashed.trash[0]!.records)).toEqual(['cur', 'v1', 'v2']);
  });

  it('a version of a file that is missing, a folder or a version itself is shown as a file', () => {
    const lost = file('lost', null, { versionOf: 'nowhere' });
    const dir = folder('dir', null);
    const ofDir = file('ofDir', null, { versionOf: 'dir' });
    const a = file('a', null, { versionOf: 'b' });
    const b = file('b', null, { versionOf: 'a' }); // a loop left by an interrupted restore
    expect(ids(viewOf([lost, dir, ofDir, a, b]).live)).toEqual(['a', 'b', 'dir', 'lost', 'ofDir']);
  });
});
