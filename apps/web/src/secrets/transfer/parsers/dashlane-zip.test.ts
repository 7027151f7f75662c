import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseImport } from '../import.ts';

const sample = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../samples/dashlane/${name}`, import.meta.url)));

const archive = () =>
  zipSync({
    'credentials.csv': sample('credentials.csv'),
    'securenotes.csv': sample('securenotes.csv'),
    'payments.csv': sample('payments.csv'),
    'ids.csv': sample('ids.csv'),
    'personalInfo.csv': sample('personalInfo.csv'),
    'readme.txt': strToU8('hello'),
  });

describe('Dashlane CSV export (ZIP)', () => {
  it('reads every file of the archive and names the ones it does not import', async () => {
    const bytes = archive();
    expect(detectFormat('Dashlane Export.zip', bytes)).toBe('dashlane-zip');
    const r = await parseImport({ name: 'Dashlane Export.zip', bytes });
    expect(r.format).toBe('dashlane-zip');
    const count = (t: string) => r.items.filter((i) => i.type === t).length;
    expect([count('login'), count('note'), count('card'), count('identity')]).toEqual([3, 3, 1, 5]);
    expect(r.skipped).toEqual([
      { entry: 'readme.txt', reason: 'This file of the archive is not imported' },
    ]);
  });

  it('reads an archive with empty and missing files, and a BOM', async () => {
    const bytes = zipSync({
      'credentials.csv': strToU8('\uFEFFusername,title,password,note,url,category\r\nu,T,p,,,\r\n'),
      'securenotes.csv': new Uint8Array(),
    });
    const r = await parseImport({ name: 'x.zip', bytes });
    expect(r.items).toMatchObject([{ type: 'login', title: 'T', login: { username: 'u' } }]);
  });

  it('names the file and line it cannot read', async () => {
    const bytes = zipSync({ 'credentials.csv': strToU8('username,title\n"open,x\n') });
    await expect(parseImport({ name: 'x.zip', bytes })).rejects.toThrow(
      /Line 2 of this Dashlane credentials.csv file/,
    );
  });
});
