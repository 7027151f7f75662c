import { readFileSync } from 'node:fs';
import * as kdbxweb from 'kdbxweb';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { parseKeePassXml } from './keepass.ts';

const sample = (name: string) => readFileSync(new URL(`../samples/${name}`, import.meta.url));

describe('KeePass 2 XML', () => {
  it('reads entries with their group path, protected strings, extra URLs and TOTP', async () => {
    const r = await parseImport({ name: 'keepass.xml', bytes: sample('keepass.xml') });
    expect(r.format).toBe('keepass-xml');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mailbox 📬 ünïcödé', undefined],
      ['note', 'Wi-Fi 家', undefined],
      ['login', 'Build server', 'Travail/Équipe'],
    ]);
    expect(r.items[0]).toMatchObject({
      notes: 'First line\nSecond line\n\nFourth line',
      urls: ['https://mail.example.com/login', 'https://example.com'],
      totp: 'otpauth://totp/Example:renee?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Example',
      login: { username: 'renée@example.com', password: 'p<a&ss>"word"' },
      customFields: [
        { name: 'PIN', value: '0420', hidden: true },
        { name: 'Recovery hint', value: 'first pet', hidden: false },
        { name: 'Empty field', value: '', hidden: false },
      ],
    });
    expect(r.items[2]).toMatchObject({
      totp: 'otpauth://totp/Build%20server?secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
      customFields: [],
    });
    expect(r.skipped).toEqual([
      { entry: 'Mailbox 📬 ünïcödé', reason: 'Attachment "recovery-codes.txt" is not imported' },
      { entry: 'Mailbox 📬 ünïcödé', reason: 'Entry history is not imported' },
      { entry: 'Deleted login', reason: 'In the recycle bin' },
    ]);
  });

  it('refuses malformed XML with a readable message', async () => {
    const xml = '<?xml version="1.0"?>\n<KeePassFile>\n<Root><Group>\n<Entry attr="x></Entry>';
    await expect(parseKeePassXml(xml)).rejects.toThrow(
      /^This KeePass XML file is not well-formed XML near line 4: /,
    );
  });
});

// keepassxc-kdbx3.kdbx: keepass.xml imported by KeePassXC 2.7.4 (`keepassxc-cli import`, KDBX 3.1,
// AES-KDF); keepass.kdbx: that database saved again as KDBX 4 with Argon2id (1 MiB, 2 passes).
describe('KeePass KDBX', () => {
  it('opens the database with its password (Argon2 on hash-wasm) and reads it', async () => {
    const r = await parseImport(
      { name: 'keepass.kdbx', bytes: sample('keepass.kdbx') },
      { password: 'pässwörd 🔑' },
    );
    expect(r.format).toBe('keepass-kdbx');
    expect(r.items.map((i) => i.title)).toEqual(['Mailbox 📬 ünïcödé', 'Wi-Fi 家', 'Build server']);
    expect(r.items[0]).toMatchObject({
      login: { username: 'renée@example.com', password: 'p<a&ss>"word"' },
    });
    expect(r.items[0]!.customFields).toContainEqual({ name: 'PIN', value: '0420', hidden: true });
    expect(r.items[2]!.folder).toBe('Travail/Équipe');
  });

  it('reads a database written by KeePassXC', async () => {
    const r = await parseImport(
      { name: 'x.kdbx', bytes: sample('keepassxc-kdbx3.kdbx') },
      { password: 'pässwörd 🔑' },
    );
    expect(r.items.map((i) => i.title)).toEqual(['Mailbox 📬 ünïcödé', 'Wi-Fi 家', 'Build server']);
    expect(r.skipped.map((s) => s.reason)).toContain(
      'Attachment "recovery-codes.txt" is not imported',
    );
  });

  it('derives Argon2d keys too, KeePass 2 default for KDBX 4', async () => {
    const password = kdbxweb.ProtectedValue.fromString('pässwörd 🔑');
    const db = await kdbxweb.Kdbx.load(
      new Uint8Array(sample('keepass.kdbx')).buffer,
      new kdbxweb.Credentials(password),
    );
    db.setKdf(kdbxweb.Consts.KdfId.Argon2d);
    db.header.kdfParameters!.set(
      'M',
      kdbxweb.VarDictionary.ValueType.UInt64,
      kdbxweb.Int64.from(1 << 20),
    );
    const bytes = new Uint8Array(await db.save());
    const r = await parseImport({ name: 'd.kdbx', bytes }, { password: 'pässwörd 🔑' });
    expect(r.items).toHaveLength(3);
  });

  it('asks for a password, and says when it is wrong', async () => {
    const file = { name: 'keepass.kdbx', bytes: sample('keepass.kdbx') };
    await expect(parseImport(file)).rejects.toMatchObject({ code: 'PASSWORD_REQUIRED' });
    await expect(parseImport(file, { password: 'wrong' })).rejects.toMatchObject({
      code: 'WRONG_PASSWORD',
    });
  });
});
