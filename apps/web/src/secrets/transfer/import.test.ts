import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat, MAX_IMPORT_BYTES, parseImport } from './import.ts';

const sample = (name: string) => readFileSync(new URL(`./samples/${name}`, import.meta.url));

describe('detectFormat', () => {
  it.each([
    ['bitwarden.json', 'bitwarden-json'],
    ['bitwarden.csv', 'bitwarden-csv'],
    ['chrome.csv', 'chrome-csv'],
    ['firefox.csv', 'firefox-csv'],
    ['safari.csv', 'safari-csv'],
    ['1password.csv', '1password-csv'],
    ['keepass.xml', 'keepass-xml'],
    ['keepass.kdbx', 'keepass-kdbx'],
    ['keepassxc-kdbx3.kdbx', 'keepass-kdbx'],
    ['protonpass.json', 'protonpass-json'],
  ])('recognises %s as %s', (name, format) => {
    expect(detectFormat(name, sample(name))).toBe(format);
  });

  it('recognises the zips by what they hold, and the encrypted JSON formats', () => {
    const pux = zipSync({ 'export.data': sample('1pux/export.data') });
    expect(detectFormat('any.zip', pux)).toBe('1password-1pux');
    const proton = zipSync({ 'Proton Pass/data.json': sample('protonpass.json') });
    expect(detectFormat('any.zip', proton)).toBe('protonpass-json');
    const bw = {
      encrypted: true,
      passwordProtected: true,
      encKeyValidation_DO_NOT_EDIT: '2.a|b|c',
    };
    expect(detectFormat('x.json', strToU8(JSON.stringify(bw)))).toBe('bitwarden-json-encrypted');
    expect(detectFormat('x.json', strToU8('{"format":"sealvault-export"}'))).toBe(
      'sealvault-export',
    );
    expect(detectFormat('x.txt', strToU8('hello,world\n1,2\n'))).toBeUndefined();
  });
});

describe('parseImport', () => {
  it('refuses a file over 50 MB with the issue text', async () => {
    const bytes = new Uint8Array(MAX_IMPORT_BYTES + 1);
    await expect(parseImport({ name: 'big.csv', bytes })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: 'This file is larger than 50 MB. Split it and import the parts.',
    });
  });

  it('says what it reads when the format is unknown, and refuses an empty file', async () => {
    await expect(
      parseImport({ name: 'x.csv', bytes: strToU8('a,b\n1,2\n') }),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_FORMAT',
      message: expect.stringContaining('Bitwarden (JSON, CSV)') as string,
    });
    await expect(parseImport({ name: 'x.csv', bytes: new Uint8Array() })).rejects.toMatchObject({
      code: 'MALFORMED',
    });
  });

  it('names the line and column of broken JSON', async () => {
    const bytes = strToU8('{\n  "items": [\n    { "type": 1, }\n  ]\n}');
    await expect(parseImport({ name: 'x.json', bytes })).rejects.toThrow(
      /not valid JSON: line 3, column \d+/,
    );
  });

  it('parses 10,000 Bitwarden JSON items', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      type: 1,
      name: `Site ${i}`,
      notes: i % 7 === 0 ? `note ${i}\nsecond line` : null,
      fields: [{ name: 'PIN', value: String(i), type: 1 }],
      login: {
        uris: [{ uri: `https://site${i}.example` }],
        username: `user${i}@example.com`,
        password: `pw-${i}`,
        totp: null,
      },
    }));
    const bytes = strToU8(JSON.stringify({ encrypted: false, folders: [], items }));
    const r = await parseImport({ name: 'big.json', bytes });
    expect(r.items).toHaveLength(10_000);
    expect(r.items[9_999]).toMatchObject({ title: 'Site 9999', login: { password: 'pw-9999' } });
  });
});

describe('parseImport with a format the user chose', () => {
  it('reads the file as that format when detection could not tell', async () => {
    const bytes = strToU8('Title,Password\nBank,hunter2\n');
    expect(detectFormat('export.csv', bytes)).toBeUndefined();
    const r = await parseImport({ name: 'export.csv', bytes }, { format: '1password-csv' });
    expect(r.format).toBe('1password-csv');
    expect(r.items[0]).toMatchObject({ title: 'Bank', login: { password: 'hunter2' } });
  });
});
