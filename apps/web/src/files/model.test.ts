import { describe, expect, it } from 'vitest';
import {
  addToSelection,
  mimeOf,
  overallPercent,
  renamedName,
  sizeProblem,
  splitName,
} from './model.ts';
import { gridColumns } from './FileViews.tsx';

const file = (name: string, size = 10, lastModified = 1) =>
  new File([new Uint8Array(size)], name, { lastModified });

describe('names and extensions', () => {
  it('splits on the last dot and keeps dotfiles whole', () => {
    expect(splitName('report.final.pdf')).toEqual(['report.final', '.pdf']);
    expect(splitName('README')).toEqual(['README', '']);
    expect(splitName('.env')).toEqual(['.env', '']);
    expect(splitName('trailing.')).toEqual(['trailing.', '']);
  });
  it('keeps the extension on rename; empty or unchanged cancels', () => {
    expect(renamedName('photo.png', ' holiday ')).toBe('holiday.png');
    expect(renamedName('photo.png', 'photo')).toBeNull();
    expect(renamedName('photo.png', '   ')).toBeNull();
    expect(renamedName('notes', 'todo')).toBe('todo');
  });
});

// Preview kinds and icons: fileKinds.test.ts.
describe('MIME types', () => {
  it('guesses a MIME type from the extension when the browser gives none', () => {
    expect(mimeOf({ type: '', name: 'a.PDF' })).toBe('application/pdf');
    expect(mimeOf({ type: 'image/gif', name: 'a.png' })).toBe('image/gif');
    expect(mimeOf({ type: '', name: 'a.xyz' })).toBe('application/octet-stream');
    expect(mimeOf({ type: '', name: 'notes.md' })).toBe('text/markdown');
    expect(mimeOf({ type: '', name: 'clip.mov' })).toBe('video/quicktime');
    // A dotfile has no extension: '.png' is a name, not a type.
    expect(mimeOf({ type: '', name: '.png' })).toBe('application/octet-stream');
  });
});

describe('selection and sizes', () => {
  it("checks the plan's limit with the spec's message; -1 is unlimited", () => {
    expect(sizeProblem(2 * 1024 * 1024, 2)).toBeNull();
    expect(sizeProblem(3 * 1024 * 1024, 2)).toBe(
      "File size (3.0 MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.",
    );
    expect(sizeProblem(10 ** 12, -1)).toBeNull();
    expect(sizeProblem(10 ** 12, undefined)).toBeNull();
  });
  it('adds files checked and skips duplicates', () => {
    const a = file('a.txt');
    let s = addToSelection([], [a, file('b.txt')]);
    expect(s.map((x) => [x.file.name, x.checked])).toEqual([
      ['a.txt', true],
      ['b.txt', true],
    ]);
    s = addToSelection(s, [a, file('a.txt', 10, 2)]);
    expect(s).toHaveLength(3);
  });
  it('computes overall progress over bytes', () => {
    expect(overallPercent([])).toBe(0);
    expect(
      overallPercent([
        { sent: 50, total: 100 },
        { sent: 300, total: 300 },
      ]),
    ).toBe(87);
  });
  it('lays the grid out in 2 to 6 columns', () => {
    expect(gridColumns(320)).toBe(2);
    expect(gridColumns(600)).toBe(3);
    expect(gridColumns(800)).toBe(4);
    expect(gridColumns(1000)).toBe(5);
    expect(gridColumns(2000)).toBe(6);
  });
});
