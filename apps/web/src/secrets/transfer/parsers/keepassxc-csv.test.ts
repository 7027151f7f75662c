import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { parseKeePassXcCsv } from './keepassxc-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/keepassxc.csv', import.meta.url), 'utf8');

describe('KeePassXC CSV', () => {
  it('reads the sample: group paths below the root, TOTP URIs, Steam, the recycle bin', () => {
    const r = parseKeePassXcCsv(sampleText());
    expect(r.format).toBe('keepassxc-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', undefined],
      ['login', 'Steam', 'Games'],
      ['login', 'Ünïcode', 'Wörk/Clients'],
    ]);
    const [mail, steam, empty] = r.items;
    expect(mail).toMatchObject({
      notes: 'line one\nline two',
      urls: ['https://mail.example'],
      totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Mail',
      login: { username: 'ana', password: 'pa"ss,1' },
      customFields: [],
    });
    expect(steam?.totp).toContain('encoder=steam');
    expect(empty).toMatchObject({ urls: [], login: { username: '', password: '' } });
    expect(empty?.totp).toBeUndefined();
    expect(r.skipped).toEqual([
      { entry: 'line 6 ("Old")', reason: 'In the recycle bin' },
      {
        entry: '3 entries',
        reason: "KeePassXC's icons and modification and creation times are not imported",
      },
    ]);
  });

  it('is detected with a BOM, and gives the same items for LF and CRLF', async () => {
    const text = sampleText();
    const r = await parseImport({
      name: 'db.csv',
      bytes: new TextEncoder().encode(`\uFEFF${text}`),
    });
    expect(r.format).toBe('keepassxc-csv');
    expect(parseKeePassXcCsv(text.replace(/\r\n/g, '\n'))).toEqual(parseKeePassXcCsv(text));
  });

  it('reads an export of KeePassXC 2.5 (no TOTP, icon or times) with short rows', async () => {
    const text =
      '"Group","Title","Username","Password","URL","Notes"\n' +
      '"Root/Web","A","u","p","https://a.example"\n' +
      '"Root","","","","https://b.example/x","",extra\n';
    const r = await parseImport({ name: 'x.csv', bytes: new TextEncoder().encode(text) });
    expect(r.format).toBe('keepassxc-csv');
    expect(r.items).toMatchObject([
      { title: 'A', folder: 'Web', notes: '', login: { username: 'u', password: 'p' } },
      {
        title: 'b.example',
        customFields: [{ name: 'Column 7', value: 'extra', hidden: false }],
      },
    ]);
    expect(r.skipped).toEqual([]);
  });
});
