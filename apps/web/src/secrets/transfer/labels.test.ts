import { describe, expect, it } from 'vitest';
import { FORMATS } from './errors.ts';
import { FORMAT_LABELS, withoutDuplicates } from './labels.ts';
import { common, type TransferItem } from './model.ts';
import { previewImport } from './preview.ts';

const login = (title: string, username: string): TransferItem => ({
  ...common(title),
  type: 'login',
  login: { username, password: 'pw' },
});

describe('import labels', () => {
  it('names every format', () => {
    expect(Object.keys(FORMAT_LABELS).sort()).toEqual([...FORMATS].sort());
  });

  it('leaves out the duplicates of the file and of the vault, keeping the first of each', () => {
    const items = [login('A', 'x'), login('B', 'y'), login('a', 'X'), login('C', 'z')];
    const preview = previewImport(items, [login('C', 'z')]);
    expect(withoutDuplicates(items, preview).map((i) => i.title)).toEqual(['A', 'B']);
  });
});
