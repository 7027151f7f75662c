import { describe, expect, it } from 'vitest';
import { buildTree, canMoveInto, locationOf, zipEntriesOf } from './folders.ts';
import type { FileEntry } from './model.ts';
import { fresh } from './entry.testing.ts';

const entry = (id: string, folder: string | null, isFolder = false, name = id): FileEntry => ({
  id,
  name,
  mime: isFolder ? 'inode/directory' : 'text/plain',
  size: isFolder ? 0 : 10,
  createdAt: '2026-11-27T00:00:00Z',
  wrappedKey: 'k',
  ciphertextSize: 88,
  ref: id,
  modified: 0,
  folder,
  isFolder,
  ...fresh,
});

// Taxes/2026/return.pdf, Taxes/notes.txt, photo.png at the root, and an empty folder Misc.
const taxes = entry('taxes', null, true, 'Taxes');
const y2026 = entry('y2026', 'taxes', true, '2026');
const misc = entry('misc', null, true, 'Misc');
const ret = entry('ret', 'y2026', false, 'return.pdf');
const notes = entry('notes', 'taxes', false, 'notes.txt');
const photo = entry('photo', null, false, 'photo.png');
const all = [taxes, y2026, misc, ret, notes, photo];
const ids = (es: readonly FileEntry[]) => es.map((e) => e.id).sort();

describe('the folder tree', () => {
  it('lists each folder’s children and the path down to a folder', () => {
    const t = buildTree(all);
    expect(ids(t.childrenOf(null))).toEqual(['misc', 'photo', 'taxes']);
    expect(ids(t.childrenOf('taxes'))).toEqual(['notes', 'y2026']);
    expect(ids(t.childrenOf('misc'))).toEqual([]);
    expect(t.pathTo('y2026').map((f) => f.name)).toEqual(['Taxes', '2026']);
    expect(t.pathTo(null)).toEqual([]);
    expect(ids(t.below('taxes'))).toEqual(['notes', 'ret', 'y2026']);
    expect(locationOf(t, ret)).toBe('Taxes / 2026');
    expect(locationOf(t, photo)).toBe('');
  });

  it('puts at the root what names a missing parent, a file as its parent, or a loop', () => {
    const lost = entry('lost', 'gone', false);
    const underFile = entry('under', 'photo', false);
    const a = entry('a', 'b', true);
    const b = entry('b', 'a', true);
    const inLoop = entry('inloop', 'b', false);
    const t = buildTree([...all, lost, underFile, a, b, inLoop]);
    const root = ids(t.childrenOf(null));
    expect(root).toContain('lost');
    expect(root).toContain('under');
    // The loop is cut once: the first folder met goes to the root, the other stays inside it.
    expect(root).toContain('a');
    expect(root).not.toContain('b');
    expect(ids(t.below('a'))).toEqual(['b', 'inloop']);
    // Everything is reachable from the root exactly once.
    const reached = [
      ...t.childrenOf(null),
      ...t.childrenOf(null).flatMap((e) => (e.isFolder ? t.below(e.id) : [])),
    ];
    expect(ids(reached)).toEqual(ids([...all, lost, underFile, a, b, inLoop]));
  });
});

describe('moves', () => {
  const t = buildTree(all);
  it('refuses a folder into itself or below it', () => {
    expect(canMoveInto(t, [taxes], 'taxes')).toBe(false);
    expect(canMoveInto(t, [taxes], 'y2026')).toBe(false);
    expect(canMoveInto(t, [taxes, photo], 'y2026')).toBe(false);
    expect(canMoveInto(t, [y2026], 'misc')).toBe(true);
    expect(canMoveInto(t, [y2026], null)).toBe(true);
  });
  it('refuses a move that changes nothing, or of nothing', () => {
    expect(canMoveInto(t, [notes], 'taxes')).toBe(false);
    expect(canMoveInto(t, [notes, photo], 'taxes')).toBe(true);
    expect(canMoveInto(t, [], 'misc')).toBe(false);
  });
  it('a folder moved is one record: everything below follows it', () => {
    const moved = buildTree(all.map((e) => (e.id === 'y2026' ? { ...e, folder: 'misc' } : e)));
    expect(moved.pathTo(moved.parentOf(ret)).map((f) => f.name)).toEqual(['Misc', '2026']);
    expect(ids(moved.below('taxes'))).toEqual(['notes']);
  });
});

describe('a ZIP of a selection', () => {
  it('keeps the folders below what was chosen, relative to it', () => {
    const t = buildTree(all);
    expect(zipEntriesOf(t, [taxes, photo]).map((e) => e.path)).toEqual([
      'Taxes/notes.txt',
      'Taxes/2026/return.pdf',
      'photo.png',
    ]);
    expect(zipEntriesOf(t, [y2026]).map((e) => e.path)).toEqual(['2026/return.pdf']);
    expect(zipEntriesOf(t, [misc])).toEqual([]);
  });
});
