import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJson } from '../read.ts';
import { parseBitwardenJson, toBitwardenExport } from './bitwarden-json.ts';
import { encryptBitwardenJson, parseBitwardenEncrypted } from './bitwarden-encrypted.ts';

const sample = () =>
  readJson(readFileSync(new URL('../samples/bitwarden.json', import.meta.url), 'utf8'), 'x');

describe('Bitwarden JSON', () => {
  it('reads every item type with folders, URLs, TOTP, custom fields and unicode', () => {
    const { items, skipped, format } = parseBitwardenJson(sample());
    expect(format).toBe('bitwarden-json');
    expect(items.map((i) => i.type)).toEqual(['login', 'login', 'note', 'card', 'identity', 'ssh']);
    const mail = items[0]!;
    expect(mail).toMatchObject({
      title: 'Mailbox 📬 ünïcödé',
      notes: 'First line\nSecond line, with "quotes"\n\nFourth line',
      urls: ['https://mail.example.com/login', 'https://example.com'],
      totp: 'otpauth://totp/Example:renee?secret=JBSWY3DPEHPK3PXP&issuer=Example',
      folder: 'Travail/Équipe',
      login: { username: 'renée@example.com', password: 'p@ss,word;"with"quotes' },
    });
    expect(mail.customFields).toEqual([
      { name: 'PIN', value: '0420', hidden: true },
      { name: 'Recovery hint', value: 'first pet', hidden: false },
      { name: 'Remember me', value: 'true', hidden: false },
    ]);
    expect(items[1]).toMatchObject({ notes: '', urls: [], login: { username: '', password: '' } });
    expect(items[1]!.folder).toBeUndefined();
    expect(items[3]).toMatchObject({ folder: 'Banque', card: { number: '4111111111111111' } });
    expect(items[4]).toMatchObject({
      identity: { firstName: 'Renée', passportNumber: '12AB34567' },
    });
    expect(items[5]).toMatchObject({ ssh: { fingerprint: 'SHA256:2f3Rexample' } });
    expect(skipped).toEqual([
      {
        entry: 'entry 1 ("Mailbox 📬 ünïcödé")',
        reason: 'Linked field "Linked user" is not imported',
      },
      {
        entry: 'entry 1 ("Mailbox 📬 ünïcödé")',
        reason: 'Attachment "recovery-codes.pdf" is not imported',
      },
      { entry: 'entry 1 ("Mailbox 📬 ünïcödé")', reason: 'The favourite mark is not imported' },
      { entry: 'entry 4 ("Visa")', reason: 'The master password re-prompt is not imported' },
    ]);
  });

  it('reads nulls where Bitwarden writes lists and strings, as Bitwarden does', () => {
    const { items, skipped } = parseBitwardenJson({
      encrypted: false,
      folders: [null, { id: 'f1', name: 'Home' }],
      collections: null,
      items: [
        {
          type: 1,
          name: null,
          folderId: null,
          collectionIds: [null],
          fields: null,
          notes: null,
          attachments: [null],
          login: { uris: [null, { uri: null }, { uri: 'https://a.example' }], totp: null },
        },
        {
          type: 3,
          name: 'Visa',
          folderId: 'f1',
          fields: [null, { name: 'PIN', value: 1234, type: 1 }],
          card: { number: '4111111111111111', expMonth: 7, expYear: 2030, code: null },
        },
        { type: 4, name: 'Me', identity: { firstName: 'Ana', lastName: null } },
      ],
    });
    expect(skipped).toEqual([]);
    expect(items[0]).toMatchObject({
      title: 'a.example',
      notes: '',
      urls: ['https://a.example'],
      customFields: [],
      login: { username: '', password: '' },
    });
    expect(items[0]!.folder).toBeUndefined();
    expect(items[1]).toMatchObject({
      folder: 'Home',
      card: { expMonth: '7', expYear: '2030', code: '' },
      customFields: [{ name: 'PIN', value: '1234', hidden: true }],
    });
    expect(items[2]).toMatchObject({ identity: { firstName: 'Ana', lastName: '' } });
  });

  it('files organization items under their first collection', () => {
    const { items } = parseBitwardenJson({
      encrypted: false,
      collections: [{ id: 'c1', name: 'Shared/Ops' }],
      items: [{ type: 2, name: 'Runbook', notes: 'x', collectionIds: ['c1'] }],
    });
    expect(items[0]).toMatchObject({ type: 'note', folder: 'Shared/Ops' });
  });

  it('names the entry and field of a malformed item', () => {
    const data = {
      encrypted: false,
      items: [
        { type: 1, name: 'ok' },
        { type: 1, name: 'Bad', login: { uris: 'x' } },
      ],
    };
    expect(() => parseBitwardenJson(data)).toThrow(/entry 2 \("Bad"\), field "login\.uris"/);
    expect(() => parseBitwardenJson({ items: [{ name: 'x' }] })).toThrow(
      /entry 1 \("x"\), field "type"/,
    );
  });

  it('reports unknown item types as skipped and keeps the rest', () => {
    const r = parseBitwardenJson({
      items: [
        { type: 9, name: 'Future' },
        { type: 2, name: 'N' },
      ],
    });
    expect(r.items.map((i) => i.title)).toEqual(['N']);
    expect(r.skipped[0]!.reason).toMatch(/type 9/);
  });

  it('round-trips every item through its own export', () => {
    const { items } = parseBitwardenJson(sample());
    const again = parseBitwardenJson(JSON.parse(JSON.stringify(toBitwardenExport(items))));
    expect(again.items).toEqual(items);
  });
});

describe('Bitwarden password-protected JSON', () => {
  const plain = JSON.stringify(toBitwardenExport(parseBitwardenJson(sample()).items));

  it('decrypts a PBKDF2 export and refuses a wrong or missing password', async () => {
    const file = JSON.parse(
      await encryptBitwardenJson(plain, 'pässwörd', { kdfType: 0, kdfIterations: 5000 }),
    ) as unknown;
    expect(file).toMatchObject({ encrypted: true, passwordProtected: true, kdfType: 0 });
    const r = await parseBitwardenEncrypted(file, 'pässwörd');
    expect(r.format).toBe('bitwarden-json-encrypted');
    expect(r.items).toEqual(parseBitwardenJson(sample()).items);
    await expect(parseBitwardenEncrypted(file, 'password')).rejects.toMatchObject({
      code: 'WRONG_PASSWORD',
    });
    await expect(parseBitwardenEncrypted(file, undefined)).rejects.toMatchObject({
      code: 'PASSWORD_REQUIRED',
    });
  });

  it('decrypts an Argon2id export', async () => {
    const kdf = { kdfType: 1, kdfIterations: 2, kdfMemory: 8, kdfParallelism: 2 } as const;
    const file = JSON.parse(await encryptBitwardenJson(plain, 'pw', kdf)) as unknown;
    const r = await parseBitwardenEncrypted(file, 'pw');
    expect(r.items).toHaveLength(6);
  });

  it('refuses a file whose data was altered, as damaged', async () => {
    const file = JSON.parse(
      await encryptBitwardenJson(plain, 'pw', { kdfType: 0, kdfIterations: 1000 }),
    ) as { data: string };
    const [iv, ct, mac] = file.data.slice(2).split('|');
    const flipped = ct!.startsWith('A') ? `B${ct!.slice(1)}` : `A${ct!.slice(1)}`;
    file.data = `2.${iv}|${flipped}|${mac}`;
    await expect(parseBitwardenEncrypted(file, 'pw')).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});
