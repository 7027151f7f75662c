import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import type { TransferItem } from '../model.ts';
import { exportBitwardenCsv, parseBitwardenCsv } from './bitwarden-csv.ts';
import { parseChromeCsv } from './browser-csv.ts';

const file = (name: string) => ({
  name,
  bytes: readFileSync(new URL(`../samples/${name}`, import.meta.url)),
});
const csv = (text: string) => ({ name: 'x.csv', bytes: new TextEncoder().encode(text) });

describe('Bitwarden CSV', () => {
  it('reads logins and notes with folders, several URLs, fields, TOTP and multi-line notes', async () => {
    const r = await parseImport(file('bitwarden.csv'));
    expect(r.format).toBe('bitwarden-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mailbox 📬', 'Travail/Équipe'],
      ['login', 'no-name.example.org', undefined],
      ['note', 'Wi-Fi 家', undefined],
      ['login', 'Bank', 'Banque'],
    ]);
    expect(r.items[0]).toMatchObject({
      notes: 'First line\nSecond line, with "quotes"',
      urls: ['https://mail.example.com/login', 'https://example.com'],
      totp: 'otpauth://totp/Example:renee?secret=JBSWY3DPEHPK3PXP',
      login: { username: 'renée@example.com', password: 'p@ss,word;"q"' },
      customFields: [
        { name: 'PIN', value: '0420', hidden: false },
        { name: 'Recovery hint', value: 'first pet', hidden: false },
      ],
    });
    expect(r.items[1]).toMatchObject({ notes: '', login: { username: '', password: '' } });
    expect(r.items[1]!.totp).toBeUndefined();
    expect(r.items[2]!.notes).toBe('SSID: home\nKey: abc');
  });

  it('names the line of an unknown type, counting the lines of multi-line fields', () => {
    const text =
      'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n,,note,A,"two\nlines",,0,,,,\n,,card,B,,,0,,,,\n';
    expect(() => parseBitwardenCsv(text)).toThrow(
      /^Line 4 of this Bitwarden CSV file has the type "card"/,
    );
  });

  it('round-trips logins, API keys, notes and plain texts; names what it leaves out', async () => {
    const { items } = await parseImport(file('bitwarden.csv'));
    const extra = [
      { title: 'Plain', notes: 'just text', urls: [], customFields: [], type: 'text' as const },
      {
        title: 'Stripe',
        notes: '',
        urls: ['https://api.stripe.com'],
        customFields: [{ name: 'Secret', value: 'multi\nline value', hidden: true }],
        type: 'apikey' as const,
        apikey: { username: 'acct_1', key: 'sk_live_x' },
      },
      {
        title: 'Card',
        notes: '',
        urls: [],
        customFields: [],
        type: 'card' as const,
        card: {
          cardholderName: 'A',
          brand: '',
          number: '4111',
          expMonth: '',
          expYear: '',
          code: '',
        },
      },
    ];
    const { csv: out, omitted } = exportBitwardenCsv([...items, ...extra]);
    expect(omitted.map((i) => i.title)).toEqual(['Card']);
    expect(out.split('\r\n')[0]).toBe(
      'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp,sealvault',
    );
    const back = await parseImport(csv(out));
    expect(back.items).toEqual([...items, ...extra.slice(0, 2)]);
  });
});

describe('CSV export and formulas (issue 25, finding 5)', () => {
  const risky = ['=1+1', '+x', '-5', '@a', '\tfoo', '\rbar', "'=already", "''+twice"];
  const login = (v: string, i: number, field = v): TransferItem => ({
    title: v,
    notes: v,
    urls: [v, `https://site${i}.example`],
    customFields: [{ name: field, value: v, hidden: i % 2 === 0 }],
    folder: v,
    totp: v,
    type: 'login',
    login: { username: v, password: v },
  });

  it('writes no cell a spreadsheet would run: each starts with a quote instead', () => {
    const { csv: out } = exportBitwardenCsv(risky.map((v, i) => login(v, i)));
    const rows = Papa.parse<string[]>(out, { newline: '\r\n' }).data.slice(1);
    expect(rows).toHaveLength(risky.length);
    rows.forEach((row, i) => {
      // folder, name, notes, fields, username, password, TOTP (login_uri holds a list).
      const cells = [0, 3, 4, 5, 8, 9, 10].map((c) => row[c]!);
      for (const cell of cells) expect(cell).toMatch(/^'/);
      expect(row[9]).toBe(`'${risky[i]}`);
    });
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('reads its own export back exactly, quotes that were there before included', async () => {
    const items = [
      ...risky.map((v, i) => login(v, i)),
      login("'plain", 90),
      login('a=b', 91),
      // A custom field's name is one line of "name: value" lines.
      login('=multi\nline', 92, 'PIN'),
      { ...login('x', 93), notes: '-windows\r\nline ends' },
    ];
    const { csv: out } = exportBitwardenCsv(items);
    const back = await parseImport(csv(out));
    expect(back.items).toEqual(items);
  });

  it("keeps a leading quote in another manager's CSV: it is the user's data", () => {
    const text =
      "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n,,login,Site,,,0,,u,'=x,\n";
    expect(parseBitwardenCsv(text).items[0]).toMatchObject({ login: { password: "'=x" } });
  });
});

describe('browser CSV', () => {
  it('reads Chrome, skipping the byte-order mark, with quoted commas and multi-line notes', async () => {
    const r = await parseImport(file('chrome.csv'));
    expect(r.format).toBe('chrome-csv');
    expect(r.items.map((i) => i.title)).toEqual([
      'accounts.example.com',
      'Ünïcode Bank',
      'notes.example',
      'empty-name.example',
    ]);
    expect(r.items[0]).toMatchObject({
      urls: ['https://accounts.example.com/signin'],
      login: { username: 'alice', password: 's3cr3t,with,commas' },
    });
    expect(r.items[1]).toMatchObject({ login: { password: 'pa"ss' } });
    expect(r.items[2]!.notes).toBe('line one\nline two');
    expect(r.items[3]).toMatchObject({ login: { username: '', password: '' } });
  });

  it('reads Firefox, titling by host and keeping the HTTP realm', async () => {
    const r = await parseImport(file('firefox.csv'));
    expect(r.format).toBe('firefox-csv');
    expect(r.items.map((i) => i.title)).toEqual([
      'www.example.com',
      'intranet.example',
      'blank.example',
    ]);
    expect(r.items[0]).toMatchObject({ login: { username: 'alice', password: 'pässwörd' } });
    expect(r.items[1]!.customFields).toEqual([
      { name: 'HTTP realm', value: 'Intranet Realm', hidden: false },
    ]);
  });

  it('reads Safari with its TOTP', async () => {
    const r = await parseImport(file('safari.csv'));
    expect(r.format).toBe('safari-csv');
    expect(r.items[0]).toMatchObject({
      title: 'Example (alice@example.com)',
      notes: 'Multi\nline note ✓',
      totp: 'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example',
      login: { username: 'alice@example.com', password: 'pw,1' },
    });
    expect(r.items[1]).toMatchObject({ title: 'Empty', notes: '', login: { password: '' } });
  });

  it('names the line of an unclosed quote', () => {
    expect(() => parseChromeCsv('name,url,username,password\na,b,c,d\ne,f,"g,h\n')).toThrow(
      'Line 3 of this Chrome CSV file has a quoted field that is never closed.',
    );
  });
});

describe('1Password CSV', () => {
  it('reads logins with TOTP, tags and multi-line notes', async () => {
    const r = await parseImport(file('1password.csv'));
    expect(r.format).toBe('1password-csv');
    expect(r.items[0]).toMatchObject({
      title: 'GitHub',
      urls: ['https://github.com/login'],
      totp: 'otpauth://totp/GitHub:octo?secret=JBSWY3DPEHPK3PXP',
      notes: 'Recovery codes in the safe\nsecond line',
      login: { username: 'octo', password: 'gh-pässword' },
      customFields: [{ name: 'Tags', value: 'work,dev', hidden: false }],
    });
    expect(r.items[1]).toMatchObject({
      title: 'Router',
      login: { password: '' },
      customFields: [],
    });
  });
});
