// The oddities of real CSV exports (issue 32): a byte-order mark, CRLF or LF, quoted newlines,
// short rows, extra columns and cells. Each is read as the exporting product reads it, and no
// value is dropped in silence.
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { parseBitwardenCsv } from './bitwarden-csv.ts';
import { parseChromeCsv, parseFirefoxCsv, parseSafariCsv } from './browser-csv.ts';
import { parseOnePasswordCsv } from './onepassword-csv.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('CSV tolerance', () => {
  it('reads a Chrome CSV with a BOM, CRLF, a quoted CRLF newline and short rows', async () => {
    const text =
      '\uFEFFname,url,username,password,note\r\n' +
      'Mail,https://mail.example,ana,pw1,"one\r\ntwo"\r\n' +
      'Bank,https://bank.example,bo,pw2\r\n' +
      'Shop,https://shop.example\r\n';
    const r = await parseImport({ name: 'Chrome Passwords.csv', bytes: bytes(text) });
    expect(r.format).toBe('chrome-csv');
    expect(r.items.map((i) => [i.title, i.notes, i.customFields])).toEqual([
      ['Mail', 'one\ntwo', []],
      ['Bank', '', []],
      ['Shop', '', []],
    ]);
    expect(r.items[2]).toMatchObject({ login: { username: '', password: '' } });
  });

  it('gives the same items for LF and CRLF files', () => {
    const lf = 'name,url,username,password,note\nA,https://a.example,u,p,"x\ny"\n';
    expect(parseChromeCsv(lf.replace(/\n/g, '\r\n'))).toEqual(parseChromeCsv(lf));
  });

  it('keeps extra columns and cells past the header as custom fields', () => {
    const r = parseChromeCsv(
      'name,url,username,password,Security question\nA,https://a.example,u,p,Pet?,spare\n',
    );
    expect(r.items[0]!.customFields).toEqual([
      { name: 'Security question', value: 'Pet?', hidden: false },
      { name: 'Column 6', value: 'spare', hidden: false },
    ]);
    const safari = parseSafariCsv(
      'Title,URL,Username,Password,Notes,OTPAuth,Group\nA,,u,p,,,Work\n',
    );
    expect(safari.items[0]!.customFields).toEqual([
      { name: 'Group', value: 'Work', hidden: false },
    ]);
  });

  it("keeps Firefox's form origin when it differs and names its ids and timestamps", () => {
    const r = parseFirefoxCsv(
      'url,username,password,httpRealm,formActionOrigin,guid,timeCreated,timeLastUsed,timePasswordChanged\n' +
        'https://a.example,u,p,,https://login.a.example,{1},1,2,3\n' +
        'https://b.example,v,q,,https://b.example,{2},1,2,3\n',
    );
    expect(r.items[0]!.customFields).toEqual([
      { name: 'Form action origin', value: 'https://login.a.example', hidden: false },
    ]);
    expect(r.items[1]!.customFields).toEqual([]);
    expect(r.skipped).toEqual([
      { entry: '2 entries', reason: "Firefox's record ids and timestamps are not imported" },
    ]);
  });

  it('names the favourite and re-prompt marks of Bitwarden CSV and reads its short rows', () => {
    const r = parseBitwardenCsv(
      'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n' +
        ',1,login,A,,,1,https://a.example,u,p\n' +
        ',,note,B,text\n',
    );
    expect(r.items.map((i) => [i.type, i.title, i.notes])).toEqual([
      ['login', 'A', ''],
      ['note', 'B', 'text'],
    ]);
    expect(r.skipped).toEqual([
      { entry: 'line 2 ("A")', reason: 'The favourite mark is not imported' },
      { entry: 'line 2 ("A")', reason: 'The master password re-prompt is not imported' },
    ]);
  });

  it('keeps 1Password columns it does not map and names the favourite and archived marks', () => {
    const r = parseOnePasswordCsv(
      'Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes,Recovery email\n' +
        'A,https://a.example,u,p,,true,true,,,me@example.com\n' +
        'B,,,,,false,false\n',
    );
    expect(r.items[0]!.customFields).toEqual([
      { name: 'Recovery email', value: 'me@example.com', hidden: false },
    ]);
    expect(r.items[1]).toMatchObject({ title: 'B', customFields: [] });
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'The favourite mark is not imported',
      'The archived mark is not imported (the item is)',
    ]);
  });
});
