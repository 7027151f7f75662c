import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { formField, parseRoboFormCsv } from './roboform-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/roboform.csv', import.meta.url), 'utf8');

describe('RoboForm CSV', () => {
  it('reads logins, safenotes, folders and form fields from the sample', () => {
    const r = parseRoboFormCsv(sampleText());
    expect(r.format).toBe('roboform-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', 'Work/Mail'],
      ['login', 'Ünïcode Bänk', undefined],
      ['note', 'Wi-Fi', 'Home'],
      ['login', 'Short', undefined],
    ]);
    const [mail, bank, wifi, short] = r.items;
    expect(mail).toMatchObject({
      notes: 'two\nlines',
      urls: ['https://mail.example/login', 'https://mail.example/'],
      login: { username: 'ana', password: 'pa,ss"1' },
      customFields: [
        { name: 'PIN', value: '1234', hidden: true },
        { name: 'Remember me', value: '1', hidden: false },
      ],
    });
    expect(bank).toMatchObject({ urls: ['https://bank.example'], customFields: [] });
    expect(wifi).toMatchObject({ notes: 'SSID: home', urls: [], customFields: [] });
    expect(short).toMatchObject({ login: { username: 'u', password: '' }, notes: '' });
    expect(r.skipped).toEqual([]);
  });

  it('is detected with a BOM, and gives the same items for LF and CRLF', async () => {
    const text = sampleText();
    const r = await parseImport({
      name: 'RoboForm Export.csv',
      bytes: new TextEncoder().encode(`\uFEFF${text}`),
    });
    expect(r.format).toBe('roboform-csv');
    expect(parseRoboFormCsv(text.replace(/\r\n/g, '\n'))).toEqual(parseRoboFormCsv(text));
  });

  it('keeps an unreadable form field and an unknown column', () => {
    expect(formField('odd')).toEqual({ name: 'RoboForm field', value: 'odd', hidden: false });
    expect(formField('Note$,n,,txt,a,b')).toEqual({ name: 'Note', value: 'a,b', hidden: false });
    const r = parseRoboFormCsv(
      'Name,Url,MatchUrl,Login,Pwd,Note,Folder,RfFieldsV2,Tag\nA,,,u,,,,,blue\n',
    );
    expect(r.items[0]!.customFields).toEqual([{ name: 'Tag', value: 'blue', hidden: false }]);
  });
});
