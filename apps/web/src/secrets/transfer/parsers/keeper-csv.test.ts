import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvMatches } from '../detect.ts';
import { parseImport } from '../import.ts';
import { csvHeader } from '../read.ts';
import { parseKeeperCsv } from './keeper-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/keeper.csv', import.meta.url), 'utf8');

describe('Keeper CSV', () => {
  it('reads records without a header: folders, custom field pairs and the TFC:Keeper TOTP', () => {
    const r = parseKeeperCsv(sampleText());
    expect(r.format).toBe('keeper-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', 'Work/Mail'],
      ['login', 'Bänk', 'Ünïcode'],
      ['note', 'Wi-Fi code', undefined],
      ['login', 'Short', undefined],
    ]);
    const [mail, bank, wifi, short] = r.items;
    expect(mail).toMatchObject({
      notes: 'two\nlines',
      urls: ['https://mail.example'],
      totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&issuer=Mail',
      login: { username: 'ana', password: 'pa,ss"1' },
      customFields: [{ name: 'Recovery email', value: 'me@example.com', hidden: false }],
    });
    expect(bank).toMatchObject({
      customFields: [{ name: 'Shared folder', value: 'Team Shared', hidden: false }],
    });
    expect(wifi).toMatchObject({
      notes: 'SSID: home',
      customFields: [
        { name: 'Key', value: '', hidden: false },
        { name: 'Empty name pair', value: '', hidden: false },
      ],
    });
    expect(short).toMatchObject({ login: { username: 'u', password: '' } });
    expect(r.skipped).toEqual([]);
  });

  it('is detected by its file name or its TFC:Keeper pair, with a BOM and LF or CRLF', async () => {
    const text = sampleText();
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    expect((await parseImport({ name: 'keeper.csv', bytes })).format).toBe('keeper-csv');
    const lf = text.replace(/\r\n/g, '\n');
    expect(parseKeeperCsv(lf)).toEqual(parseKeeperCsv(text));
    const totpFirst = ',A,u,p,,,,TFC:Keeper,otpauth://totp/A?secret=JBSWY3DPEHPK3PXP\n';
    expect(csvMatches(csvHeader(totpFirst), 'export.csv')).toEqual(['keeper-csv']);
    expect(csvMatches(csvHeader(',A,u,p,,,\n'), 'export.csv')).toEqual([]);
    expect(csvMatches(['name', 'url', 'username', 'password'], 'keeper.csv')).toEqual([
      'chrome-csv',
    ]);
  });

  it('reads a row shorter than seven cells and a lone custom field name', () => {
    const r = parseKeeperCsv('Home,Router,admin\n,N,,,,text,,Orphan\n');
    expect(r.items[0]).toMatchObject({ folder: 'Home', login: { username: 'admin' } });
    expect(r.items[1]).toMatchObject({
      type: 'note',
      notes: 'text',
      customFields: [{ name: 'Orphan', value: '', hidden: false }],
    });
  });

  it("names the file's own line of an unclosed quote (the added header not counted)", () => {
    expect(() => parseKeeperCsv(',A,u,p\n,B,"open\n')).toThrow(/^Line 2 /);
  });
});
