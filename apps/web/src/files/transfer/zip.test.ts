// The paths inside a ZIP of several files (zip.ts): unique however the names collide, never
// climbing out of the folder the ZIP is extracted to; and the ZIP's length known in advance,
// ZIP64 past 4 GiB, without reading a file.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../model.ts';
import { zipLength, zipPaths, type ZipEntry } from './zip.ts';
import { fresh } from '../entry.testing.ts';

const entry = (path: string, size: number): ZipEntry => ({
  path,
  file: {
    id: crypto.randomUUID(),
    name: path,
    mime: 'application/octet-stream',
    size,
    createdAt: '2026-11-26T00:00:00.000Z',
    wrappedKey: '',
    ciphertextSize: 0,
    ref: '',
    modified: Date.UTC(2026, 10, 26),
    folder: null,
    isFolder: false,
    ...fresh,
  } satisfies FileEntry,
});

describe('zipPaths', () => {
  it('numbers a repeated name before its extension, keeping the first as it is', () => {
    expect(zipPaths(['a.txt', 'a.txt', 'a.txt', 'b.txt'])).toEqual([
      'a.txt',
      'a (2).txt',
      'a (3).txt',
      'b.txt',
    ]);
  });

  it('counts names differing only in case as the same name', () => {
    expect(zipPaths(['Notes.TXT', 'notes.txt', 'NOTES.txt'])).toEqual([
      'Notes.TXT',
      'notes (2).txt',
      'NOTES (3).txt',
    ]);
  });

  it('skips a number a file already has', () => {
    expect(zipPaths(['a (2).txt', 'a.txt', 'a.txt'])).toEqual(['a (2).txt', 'a.txt', 'a (3).txt']);
  });

  it('numbers names without an extension, and dotfiles, whole', () => {
    expect(zipPaths(['README', 'README', '.env', '.env'])).toEqual([
      'README',
      'README (2)',
      '.env',
      '.env (2)',
    ]);
  });

  it('keeps the same name in different folders, and one folder for one name in any case', () => {
    expect(zipPaths(['Docs/a.pdf', 'a.pdf', 'docs/A.pdf', 'Other/a.pdf'])).toEqual([
      'Docs/a.pdf',
      'a.pdf',
      'Docs/A (2).pdf',
      'Other/a.pdf',
    ]);
  });

  it('strips leading slashes and every "..", "." and empty segment', () => {
    expect(
      zipPaths(['/etc/passwd', '../../evil.sh', 'a/../../b.txt', './c//d.txt', '..\\..\\w.bat']),
    ).toEqual(['etc/passwd', 'evil.sh', 'a/b.txt', 'c/d.txt', 'w.bat']);
  });

  it('never gives a folder and a file the same name', () => {
    expect(zipPaths(['Report', 'report/page.pdf', 'REPORT/next.pdf', 'Report (2)'])).toEqual([
      'Report',
      'report (2)/page.pdf',
      'report (2)/next.pdf',
      'Report (2) (2)', // a name given is numbered as it is
    ]);
  });

  it('names an entry whose path is nothing but separators', () => {
    expect(zipPaths(['/', '..', ''])).toEqual(['unnamed', 'unnamed (2)', 'unnamed (3)']);
  });
});

describe('zipLength', () => {
  it('is the stored bytes plus each entry’s headers and the end record', () => {
    // APPNOTE.TXT: local header 30 + name, data descriptor 16, central header 46 + name (4.3.7,
    // 4.3.9, 4.3.12), end of central directory 22 (4.3.16).
    expect(zipLength([entry('a.txt', 10), entry('bb.txt', 0)])).toBe(
      30 + 5 + 10 + 16 + (30 + 6 + 0 + 16) + (46 + 5) + (46 + 6) + 22,
    );
  });

  it('switches to ZIP64 for a 5 GiB entry, without reading it', () => {
    const size = 5 * 2 ** 30;
    const length = zipLength([entry('big.bin', size)]);
    expect(length).toBeGreaterThan(2 ** 32);
    // ZIP64: an 8-byte-wider data descriptor, a 28-byte extra field on the central header
    // (4.5.3), and the ZIP64 end record 56 with its locator 20 (4.3.14, 4.3.15).
    expect(length).toBe(30 + 7 + size + 24 + (46 + 7 + 28) + 56 + 20 + 22);
  });

  it('switches to ZIP64 when the archive passes 4 GiB in files under 4 GiB each', () => {
    const three = [entry('1.bin', 2 ** 31), entry('2.bin', 2 ** 31), entry('3.bin', 2 ** 31)];
    expect(zipLength(three)).toBeGreaterThan(3 * 2 ** 31 + 76);
  });
});
