import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';

describe('CSV preview rows', () => {
  it('reads quoted fields with commas, quotes and line breaks, and skips blank lines', () => {
    const text = '\uFEFFname,note\r\n"Smith, Ann","said ""hi""\nthen left"\r\n\r\nBob,\r\n';
    expect(parseCsv(text)).toEqual({
      rows: [
        ['name', 'note'],
        ['Smith, Ann', 'said "hi"\nthen left'],
        ['Bob', ''],
      ],
      columns: 2,
      hidden: 0,
    });
  });

  it('detects semicolons, reads TSV by tabs, and counts the widest row', () => {
    expect(parseCsv('a;b;c\n1;2;3\n').rows).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    const tsv = parseCsv('a\tb,c\n1\t2\n3\n', { tab: true });
    expect(tsv.rows).toEqual([['a', 'b,c'], ['1', '2'], ['3']]);
    expect(tsv.columns).toBe(2);
  });

  it('keeps the first rows and counts the rest', () => {
    const text = Array.from({ length: 2500 }, (_, i) => `${i},x`).join('\n');
    const table = parseCsv(text);
    expect(table.rows).toHaveLength(1000);
    expect(table.rows[999]).toEqual(['999', 'x']);
    expect(table.hidden).toBe(1500);
    expect(parseCsv('a\nb\nc', {}, 2)).toMatchObject({ rows: [['a'], ['b']], hidden: 1 });
  });

  it('leaves out the last row of text cut at the 2 MB cap', () => {
    expect(parseCsv('a,b\n1,2\n3,', { cut: true })).toMatchObject({
      rows: [
        ['a', 'b'],
        ['1', '2'],
      ],
      hidden: 0,
    });
    const many = Array.from({ length: 1200 }, (_, i) => `${i}`).join('\n');
    expect(parseCsv(many, { cut: true }).hidden).toBe(199);
  });
});
