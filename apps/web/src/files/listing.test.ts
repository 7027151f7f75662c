import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clickSelection,
  DEFAULT_SORT,
  foldForSearch,
  freeName,
  loadSort,
  saveSort,
  searchFiles,
  sortFiles,
  takenNames,
} from './listing.ts';
import type { FileEntry } from './model.ts';
import { fresh } from './entry.testing.ts';

let n = 0;
const entry = (name: string, size: number, createdAt: string, mime = ''): FileEntry => ({
  id: `id-${String((n += 1)).padStart(3, '0')}`,
  name,
  mime,
  size,
  createdAt,
  wrappedKey: 'k',
  ciphertextSize: size + 100,
  ref: 'r',
  modified: 0,
  folder: null,
  isFolder: false,
  ...fresh,
});

const a = entry('b-report.pdf', 300, '2026-03-01T00:00:00Z', 'application/pdf');
const b = entry('A photo.png', 100, '2026-01-01T00:00:00Z', 'image/png');
const c = entry('notes 10.txt', 200, '2026-02-01T00:00:00Z', 'text/plain');
const d = entry('notes 9.txt', 200, '2026-02-01T00:00:00Z', 'text/plain');
const all = [a, b, c, d];
const names = (fs: readonly FileEntry[]) => fs.map((f) => f.name);

describe('sort', () => {
  it('by name, case-insensitive and with numbers in order', () => {
    expect(names(sortFiles(all, DEFAULT_SORT))).toEqual([
      'A photo.png',
      'b-report.pdf',
      'notes 9.txt',
      'notes 10.txt',
    ]);
    expect(names(sortFiles(all, { key: 'name', dir: 'desc' }))[0]).toBe('notes 10.txt');
  });
  it('by size, date and type; ties by name', () => {
    expect(names(sortFiles(all, { key: 'size', dir: 'asc' }))).toEqual([
      'A photo.png',
      'notes 9.txt',
      'notes 10.txt',
      'b-report.pdf',
    ]);
    expect(names(sortFiles(all, { key: 'date', dir: 'desc' }))).toEqual([
      'b-report.pdf',
      'notes 10.txt',
      'notes 9.txt',
      'A photo.png',
    ]);
    expect(names(sortFiles(all, { key: 'type', dir: 'asc' }))).toEqual([
      'A photo.png', // image
      'b-report.pdf', // pdf
      'notes 9.txt', // text
      'notes 10.txt',
    ]);
  });
  it('puts folders first, by name, whatever the order', () => {
    const folder = (name: string) => ({
      ...entry(name, 0, '2026-05-01T00:00:00Z'),
      isFolder: true,
      ...fresh,
    });
    const [x, y] = [folder('Xrays'), folder('Yearly')];
    expect(names(sortFiles([a, y, b, x], { key: 'size', dir: 'desc' })).slice(0, 2)).toEqual([
      'Xrays',
      'Yearly',
    ]);
    expect(names(sortFiles([a, x, y], { key: 'name', dir: 'desc' }))).toEqual([
      'Yearly',
      'Xrays',
      'b-report.pdf',
    ]);
  });
  it('leaves its input as it was', () => {
    const before = names(all);
    sortFiles(all, { key: 'size', dir: 'desc' });
    expect(names(all)).toEqual(before);
  });
});

describe('search', () => {
  it('finds every word anywhere in the name, ignoring case and accents', () => {
    const r = entry('Résumé 2026.pdf', 1, '2026-01-01T00:00:00Z');
    expect(names(searchFiles([...all, r], 'resume'))).toEqual(['Résumé 2026.pdf']);
    expect(names(searchFiles(all, 'NOTES 1'))).toEqual(['notes 10.txt']);
    expect(names(searchFiles(all, 'txt notes'))).toEqual(['notes 10.txt', 'notes 9.txt']);
    expect(searchFiles(all, 'nothing like it')).toEqual([]);
  });
  it('an empty or blank query keeps every file', () => {
    expect(searchFiles(all, '   ')).toBe(all);
  });
  it('folds once per name when given a cache', () => {
    const fold = vi.fn((f: FileEntry) => foldForSearch(f.name));
    searchFiles(all, 'x', fold);
    expect(fold).toHaveBeenCalledTimes(all.length);
  });
});

describe('sort remembered per vault', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('reads back what was saved, per vault; anything odd reads as the default', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    });
    saveSort('v1', { key: 'size', dir: 'desc' });
    expect(loadSort('v1')).toEqual({ key: 'size', dir: 'desc' });
    expect(loadSort('v2')).toEqual(DEFAULT_SORT);
    store.set('sealvault.sort.v3', '{"key":"owner","dir":"asc"}');
    expect(loadSort('v3')).toEqual(DEFAULT_SORT);
    store.set('sealvault.sort.v4', 'not json');
    expect(loadSort('v4')).toEqual(DEFAULT_SORT);
  });
});

describe('selection', () => {
  const shown = ['a', 'b', 'c', 'd', 'e'];
  it('a click toggles one file', () => {
    const s = clickSelection(new Set(), shown, 'b', null, false);
    expect([...s]).toEqual(['b']);
    expect([...clickSelection(s, shown, 'b', 'b', false)]).toEqual([]);
  });
  it('a shift-click sets the range from the anchor, either way', () => {
    expect([...clickSelection(new Set(['b']), shown, 'd', 'b', true)].sort()).toEqual([
      'b',
      'c',
      'd',
    ]);
    expect([...clickSelection(new Set(['d']), shown, 'a', 'd', true)].sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    // Shift-click on a selected file clears the range.
    expect([...clickSelection(new Set(shown), shown, 'b', 'd', true)].sort()).toEqual(['a', 'e']);
  });
  it('a shift-click without an anchor in view is a plain click', () => {
    expect([...clickSelection(new Set(), shown, 'c', 'gone', true)]).toEqual(['c']);
  });
});

describe('the name for "Keep both"', () => {
  it('numbers the name before its extension, skipping numbers in use', () => {
    const taken = takenNames([{ name: 'notes.txt' }, { name: 'notes (2).txt' }]);
    expect(freeName('notes.txt', taken)).toBe('notes (3).txt');
    expect(freeName('notes (2).txt', taken)).toBe('notes (3).txt');
    expect(freeName('other.txt', taken)).toBe('other.txt');
    expect(freeName('README', takenNames([{ name: 'README' }]))).toBe('README (2)');
  });
  it('compares names as the server does (NFC, case kept)', () => {
    const taken = takenNames([{ name: 'caf\u00e9.txt' }]);
    expect(freeName('cafe\u0301.txt', taken)).toBe('cafe\u0301 (2).txt');
    expect(freeName('Caf\u00e9.txt', taken)).toBe('Caf\u00e9.txt');
  });
});
