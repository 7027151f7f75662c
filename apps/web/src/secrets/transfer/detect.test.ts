import { readFileSync } from 'node:fs';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { csvMatches, jsonMatches } from './detect.ts';
import { detectFormat, parseImport } from './import.ts';
import { csvHeader, decodeText } from './read.ts';

const sample = (name: string) => readFileSync(new URL(`./samples/${name}`, import.meta.url));
const text = (name: string) => decodeText(sample(name), name);
const matches = (name: string) =>
  name.endsWith('.json')
    ? jsonMatches(JSON.parse(text(name)) as unknown)
    : csvMatches(csvHeader(text(name)), name);

describe('detection by what identifies a format', () => {
  it.each([
    ['bitwarden.json', 'bitwarden-json'],
    ['bitwarden.csv', 'bitwarden-csv'],
    ['chrome.csv', 'chrome-csv'],
    ['firefox.csv', 'firefox-csv'],
    ['safari.csv', 'safari-csv'],
    ['apple-passwords.csv', 'safari-csv'],
    ['1password.csv', '1password-csv'],
    ['protonpass.json', 'protonpass-json'],
    ['lastpass.csv', 'lastpass-csv'],
    ['nordpass.csv', 'nordpass-csv'],
    ['enpass.json', 'enpass-json'],
    ['enpass.csv', 'enpass-csv'],
    ['keepassxc.csv', 'keepassxc-csv'],
    ['roboform.csv', 'roboform-csv'],
    ['keeper.csv', 'keeper-csv'],
    ['keeper.json', 'keeper-json'],
    ['dashlane.json', 'dashlane-json'],
    ['dashlane/credentials.csv', 'dashlane-csv'],
    ['dashlane/securenotes.csv', 'dashlane-csv'],
    ['dashlane/payments.csv', 'dashlane-csv'],
    ['dashlane/ids.csv', 'dashlane-csv'],
    ['dashlane/personalInfo.csv', 'dashlane-csv'],
  ])('recognises %s as %s and as no other format', (name, format) => {
    expect(matches(name)).toEqual([format]);
  });

  it('takes a JSON file with none of the signatures for no format', () => {
    const json = '{ "items": [{ "title": "Mail", "category": "login" }] }';
    expect(jsonMatches(JSON.parse(json) as unknown)).toEqual([]);
    expect(detectFormat('x.json', strToU8(json))).toBeUndefined();
  });

  it('does not take a CSV with extra columns for Chrome, nor Chrome for Safari', () => {
    expect(csvMatches(['name', 'url', 'username', 'password', 'note'], 'x.csv')).toEqual([
      'chrome-csv',
    ]);
    expect(csvMatches(['name', 'url', 'username', 'password', 'totp'], 'x.csv')).toEqual([]);
    expect(csvMatches(['title', 'url', 'username', 'password', 'otpauth'], 'x.csv')).toEqual([
      'safari-csv',
    ]);
  });

  it('reads a JSON export with a byte-order mark and CRLF line ends', async () => {
    const json =
      '\uFEFF{\r\n  "encrypted": false,\r\n  "items": [{ "type": 2, "name": "N", "collectionIds": [null] }]\r\n}\r\n';
    expect(detectFormat('x.json', strToU8(json))).toBe('bitwarden-json');
    const r = await parseImport({ name: 'x.json', bytes: strToU8(json) });
    expect(r.items).toMatchObject([{ type: 'note', title: 'N' }]);
  });

  it('knows an empty Bitwarden export by its encrypted: false', () => {
    expect(jsonMatches({ encrypted: false, folders: [], items: [] })).toEqual(['bitwarden-json']);
    expect(jsonMatches({ folders: [], items: [] })).toEqual([]);
  });

  it('says a file is not recognised, and reads it as the format the user picks', async () => {
    const unknown = strToU8('site,login,secret\nShop,ana,pw\n');
    await expect(parseImport({ name: 'x.csv', bytes: unknown })).rejects.toMatchObject({
      code: 'UNKNOWN_FORMAT',
      message: expect.stringContaining('not recognised') as string,
    });
    const r = await parseImport({ name: 'x.csv', bytes: unknown }, { format: 'chrome-csv' });
    expect(r.items[0]).toMatchObject({
      customFields: [
        { name: 'site', value: 'Shop' },
        { name: 'login', value: 'ana' },
        { name: 'secret', value: 'pw' },
      ],
    });
  });

  it('names the entry and field when the picked format cannot read the file', async () => {
    await expect(
      parseImport({ name: 'x.json', bytes: sample('enpass.json') }, { format: 'bitwarden-json' }),
    ).rejects.toThrow(/entry 1, field "type"/);
    await expect(
      parseImport(
        { name: 'x.csv', bytes: strToU8('name,url\n"open,x\n') },
        { format: 'chrome-csv' },
      ),
    ).rejects.toThrow(/Line 2 .* never closed/);
  });
});
