import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes, setRandomBytes } from './crypto.ts';
import { EXPORT_KDF, exportBitwardenJson, exportEncrypted, importEncrypted } from './export.ts';
import { parseImport } from './import.ts';
import type { TransferItem } from './model.ts';

const sample = (name: string) => readFileSync(new URL(`./samples/${name}`, import.meta.url));
const FAST = { alg: 'argon2id', m: 64, t: 1, p: 1 } as const;

/** Every item type, from the Bitwarden and 1PUX samples, plus plain text and URLs on a card. */
async function allItems(): Promise<TransferItem[]> {
  const bw = await parseImport({ name: 'b.json', bytes: sample('bitwarden.json') });
  const pux = await parseImport({
    name: 'x.1pux',
    bytes: zipSync({ 'export.data': sample('1pux/export.data') }),
  });
  const text: TransferItem = {
    title: 'Plain ✓',
    notes: 'line 1\nline 2',
    urls: [],
    customFields: [],
    type: 'text',
  };
  const card = { ...pux.items[1]!, urls: ['https://bank.example'], totp: 'JBSWY3DPEHPK3PXP' };
  return [...bw.items, ...pux.items, text, card];
}
const bytesOf = (text: string) => strToU8(text);

const realRandom = randomBytes;
afterEach(() => setRandomBytes(realRandom));

describe('encrypted export', () => {
  // Real work (a lazy chunk, Argon2id or a form's round trips): 20 s, so a loaded machine is no failure.
  it('reads back identical items of every type, with the default Argon2id (64 MiB, t=3, p=1)', async () => {
    const items = await allItems();
    expect(new Set(items.map((i) => i.type)).size).toBe(7);
    const text = await exportEncrypted(items, 'correct horse 🐴');
    const file = JSON.parse(text) as Record<string, unknown>;
    expect(file).toMatchObject({ format: 'sealvault-export', version: 1, kdf: EXPORT_KDF });
    expect(text).not.toContain('renée');
    const back = await parseImport(
      { name: 'vault.sealvault.json', bytes: bytesOf(text) },
      { password: 'correct horse 🐴' },
    );
    expect(back.format).toBe('sealvault-export');
    expect(back.items).toEqual(items);
  }, 20_000);

  it('refuses a wrong or missing password and any change to the file', async () => {
    const text = await exportEncrypted(await allItems(), 'pw', FAST);
    await expect(importEncrypted(JSON.parse(text), 'Pw')).rejects.toMatchObject({
      code: 'WRONG_PASSWORD',
    });
    await expect(importEncrypted(JSON.parse(text), undefined)).rejects.toMatchObject({
      code: 'PASSWORD_REQUIRED',
    });
    const file = JSON.parse(text) as { data: string; kdf: { t: number }; salt: string };
    const flipped = { ...file, data: (file.data[0] === 'A' ? 'B' : 'A') + file.data.slice(1) };
    await expect(importEncrypted(flipped, 'pw')).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
    await expect(importEncrypted({ ...file, salt: 'short' }, 'pw')).rejects.toThrow(
      /field "salt": expected 16 bytes of base64/,
    );
  });

  it('writes exactly the documented format (a fixed vector: fixed salt and nonce)', async () => {
    let counter = 0;
    setRandomBytes((n) => new Uint8Array(n).map(() => counter++));
    const item: TransferItem = {
      title: 'A',
      notes: '',
      urls: [],
      customFields: [],
      type: 'text',
    };
    const file = JSON.parse(await exportEncrypted([item], 'pw', FAST)) as Record<string, unknown>;
    expect(file).toEqual({
      format: 'sealvault-export',
      version: 1,
      kdf: { alg: 'argon2id', m: 64, t: 1, p: 1 },
      salt: 'AAECAwQFBgcICQoLDA0ODw==',
      nonce: 'EBESExQVFhcYGRob',
      data: VECTOR_DATA,
    });
  });
});

describe('Bitwarden JSON export', () => {
  it('reads back identical items of every type', async () => {
    const items = await allItems();
    const back = await parseImport({ name: 'b.json', bytes: bytesOf(exportBitwardenJson(items)) });
    expect(back.format).toBe('bitwarden-json');
    expect(back.items).toEqual(items);
  });

  it('writes what Bitwarden reads: its item types, folders by id, null for empty values', () => {
    const items: TransferItem[] = [
      {
        title: 'Site',
        notes: '',
        urls: ['https://a.example'],
        customFields: [{ name: 'PIN', value: '1', hidden: true }],
        folder: 'Work',
        type: 'login',
        login: { username: 'u', password: '' },
      },
    ];
    const file = JSON.parse(exportBitwardenJson(items)) as {
      folders: { id: string; name: string }[];
      items: Record<string, unknown>[];
    };
    expect(file.folders).toEqual([{ id: expect.any(String) as string, name: 'Work' }]);
    expect(file.items[0]).toMatchObject({
      type: 1,
      name: 'Site',
      notes: null,
      folderId: file.folders[0]!.id,
      fields: [{ name: 'PIN', value: '1', type: 1, linkedId: null }],
      login: { uris: [{ match: null, uri: 'https://a.example' }], username: 'u', password: null },
    });
    expect(file.items[0]).not.toHaveProperty('sealvault');
  });
});

const VECTOR_DATA =
  'ZKok6TsLHg67axhg66mFW61WuiPtXIicXyfkx84yjUBedAlX/fowkvk2gXD5Ay/yu9eeMJT4a1obAcsY2CiNzcUBWMx1+Czp8KXt/kFChLfonf+renFXxlox1x7P+A==';
