import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { parseEnpassCsv } from './enpass-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/enpass.csv', import.meta.url), 'utf8');

describe('Enpass CSV', () => {
  it('reads logins, cards and notes by their field names, pairs after the title', () => {
    const r = parseEnpassCsv(sampleText());
    expect(r.format).toBe('enpass-csv');
    expect(r.items.map((i) => [i.type, i.title])).toEqual([
      ['login', 'Mail'],
      ['card', 'Visa'],
      ['login', 'Steam'],
      ['note', 'Wi-Fi code'],
      ['login', 'Router'],
      ['login', 'Short'],
    ]);
    const [mail, visa, steam, wifi, router, short] = r.items;
    expect(mail).toMatchObject({
      notes: 'Line one\nline two',
      urls: ['https://mail.example'],
      login: { username: 'ana', password: 'pa"ss,ünï' },
      customFields: [{ name: 'E-mail', value: 'ana@example.com', hidden: false }],
    });
    expect(mail?.totp).toBeUndefined();
    expect(visa).toMatchObject({
      notes: '',
      card: {
        cardholderName: 'Ana Lima',
        number: '4111111111111111',
        code: '123',
        expMonth: '6',
        expYear: '2029',
      },
      customFields: [],
    });
    expect(steam).toMatchObject({
      totp: 'otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam',
      login: { username: 'gamer', password: 'pw' },
      customFields: [{ name: 'PIN', value: '1234', hidden: true }],
    });
    expect(wifi).toMatchObject({ notes: 'SSID: home', customFields: [] });
    expect(router).toMatchObject({
      notes: 'ünï ✓',
      totp: 'JBSWY3DPEHPK3PXP',
      login: { username: '', password: 'r00t' },
      customFields: [
        { name: 'Host', value: '10.0.0.2', hidden: false },
        { name: 'Security answer', value: 'Rex', hidden: true },
      ],
    });
    expect(short).toMatchObject({ notes: '', login: { username: 'u', password: '' } });
    expect(r.skipped).toEqual([]);
  });

  it('is detected with a BOM, and gives the same items for LF and CRLF', async () => {
    const text = sampleText();
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    expect((await parseImport({ name: 'export.csv', bytes })).format).toBe('enpass-csv');
    expect(parseEnpassCsv(text.replace(/\r\n/g, '\n'))).toEqual(parseEnpassCsv(text));
  });

  it('reads a file without its header, an e-mail as username, a second TOTP and a nameless field', () => {
    const r = parseEnpassCsv(
      'Shop,E-mail,me@example.com,TOTP,JBSWY3DPEHPK3PXP,TOTP,GEZDGNBV,,orphan,Notes here\n',
    );
    expect(r.items).toMatchObject([
      {
        type: 'login',
        title: 'Shop',
        notes: 'Notes here',
        totp: 'JBSWY3DPEHPK3PXP',
        login: { username: 'me@example.com', password: '' },
        customFields: [
          { name: 'TOTP', value: 'GEZDGNBV', hidden: true },
          { name: 'Column 9', value: 'orphan', hidden: false },
        ],
      },
    ]);
  });

  it('keeps an unreadable expiry, and names the line of an unclosed quote', () => {
    const r = parseEnpassCsv('Title,Field,Value,Note\nC,Number,4111,Expiry date,soon,\n');
    expect(r.items[0]).toMatchObject({
      type: 'card',
      card: { number: '4111', expMonth: '' },
      customFields: [{ name: 'Expiry date', value: 'soon', hidden: false }],
    });
    expect(() => parseEnpassCsv('Title,Field,Value,Note\nA,"open\n')).toThrow(/^Line 2 /);
  });
});
