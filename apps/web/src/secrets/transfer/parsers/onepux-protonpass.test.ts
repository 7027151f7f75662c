import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { deflatedZeros, zipBomb, zipOfRaw } from '../../../archives/bomb.testkit.ts';
import { parseImport } from '../import.ts';

const sample = (name: string) => readFileSync(new URL(`../samples/${name}`, import.meta.url));

/** The 1PUX sample zipped as 1Password writes it: export.attributes, export.data, files/. */
const onePux = (data: Uint8Array = sample('1pux/export.data')) =>
  zipSync({
    'export.attributes': sample('1pux/export.attributes'),
    'export.data': data,
    'files/doc1__recovery-codes.pdf': strToU8('%PDF-1.4'),
  });

describe('1Password 1PUX', () => {
  it('reads every category, vaults as folders, and skips documents and attachments', async () => {
    const r = await parseImport({ name: 'export.1pux', bytes: onePux() });
    expect(r.format).toBe('1password-1pux');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mailbox 📬', 'Personnel 🏠'],
      ['card', 'Visa', 'Personnel 🏠'],
      ['note', 'Wi-Fi', 'Personnel 🏠'],
      ['identity', 'Me', 'Personnel 🏠'],
      ['apikey', 'Stripe', 'Ops'],
      ['ssh', 'Deploy key', 'Ops'],
      ['note', 'Bank account', 'Ops'],
    ]);
    expect(r.items[0]).toEqual({
      title: 'Mailbox 📬',
      notes: 'First line\nSecond line',
      urls: ['https://mail.example.com/login', 'https://example.com'],
      totp: 'otpauth://totp/Example:renee?secret=JBSWY3DPEHPK3PXP',
      folder: 'Personnel 🏠',
      type: 'login',
      login: { username: 'renée@example.com', password: 'p@ss"wörd' },
      customFields: [
        { name: 'remember', value: '✓', hidden: false },
        { name: 'PIN', value: '0420', hidden: true },
        { name: 'Recovery e-mail', value: 'backup@example.com', hidden: false },
        { name: 'Tags', value: 'Travail/Équipe, mail', hidden: false },
      ],
    });
    expect(r.items[1]).toMatchObject({
      card: {
        cardholderName: 'Renée Zoë',
        brand: 'visa',
        number: '4111111111111111',
        code: '123',
        expMonth: '7',
        expYear: '2031',
      },
      customFields: [{ name: 'valid from', value: '7/2021', hidden: false }],
    });
    expect(r.items[3]).toMatchObject({
      identity: { firstName: 'Renée', lastName: 'Zoë', city: 'Paris', phone: '+33 1 23 45 67 89' },
      customFields: [{ name: 'birth date', value: '1990-01-01', hidden: false }],
    });
    expect(r.items[4]).toMatchObject({
      urls: ['https://api.stripe.com'],
      apikey: { username: 'acct_1', key: 'sk_live_123' },
    });
    expect(r.items[5]).toMatchObject({
      ssh: { publicKey: 'ssh-ed25519 AAAAC3Example deploy', fingerprint: 'SHA256:2f3Rexample' },
    });
    expect(r.items[6]!.customFields).toEqual([
      { name: 'bank name', value: 'Banque 🏦', hidden: false },
      { name: 'PIN', value: '9876', hidden: true },
    ]);
    expect(r.skipped).toEqual([
      {
        entry: 'entry 1 ("Mailbox 📬")',
        reason: 'Attachment "recovery-codes.pdf" is not imported',
      },
      { entry: 'entry 1 ("Mailbox 📬")', reason: 'Password history is not imported' },
      {
        entry: 'entry 5 ("Passport scan")',
        reason: 'Document "passport-scan.jpg" is not imported',
      },
    ]);
  });

  it('names the entry of a malformed item', async () => {
    const data = JSON.parse(sample('1pux/export.data').toString()) as {
      accounts: { vaults: { items: { overview: unknown }[] }[] }[];
    };
    data.accounts[0]!.vaults[0]!.items[2]!.overview = 'oops';
    const bytes = onePux(strToU8(JSON.stringify(data)));
    await expect(parseImport({ name: 'x.1pux', bytes })).rejects.toThrow(
      /entry 3, field "overview"/,
    );
  });
});

describe('Proton Pass', () => {
  const expected = [
    ['login', 'Mailbox 📬', 'Personnel 🏠'],
    ['note', 'Wi-Fi 家', 'Personnel 🏠'],
    ['card', 'Visa', 'Personnel 🏠'],
    ['identity', 'Me', 'Ops'],
    ['ssh', 'Deploy key', 'Ops'],
  ];

  it('reads the JSON with vaults as folders, skipping aliases, trash, passkeys and files', async () => {
    const r = await parseImport({ name: 'data.json', bytes: sample('protonpass.json') });
    expect(r.format).toBe('protonpass-json');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual(expected);
    expect(r.items[0]).toMatchObject({
      notes: 'First line\nSecond line',
      urls: ['https://mail.example.com/login', 'https://example.com'],
      totp: 'otpauth://totp/Example:renee?secret=JBSWY3DPEHPK3PXP',
      login: { username: 'renée', password: 'p@ss"wörd' },
      customFields: [
        { name: 'PIN', value: '0420', hidden: true },
        { name: 'Recovery hint', value: 'first pet', hidden: false },
        { name: 'Empty', value: '', hidden: false },
        { name: 'E-mail', value: 'renee@example.com', hidden: false },
      ],
    });
    expect(r.items[1]!.customFields).toEqual([
      { name: 'ssid', value: '家のネットワーク', hidden: false },
      { name: 'password', value: 'correct horse', hidden: true },
      { name: 'security', value: '2', hidden: false },
    ]);
    expect(r.items[2]).toMatchObject({
      card: { number: '4111111111111111', code: '123', expMonth: '7', expYear: '2031' },
      customFields: [{ name: 'pin', value: '4321', hidden: true }],
    });
    expect(r.items[3]).toMatchObject({
      identity: { firstName: 'Renée', postalCode: '75002', passportNumber: '12AB34567' },
    });
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'Attachment "recovery-codes.pdf" is not imported',
      'Passkeys are not imported',
      'Aliases (e-mail forwarding addresses) are not imported',
      'In the trash',
    ]);
  });

  it('reads the same data from the export zip', async () => {
    const bytes = zipSync({ 'Proton Pass/data.json': sample('protonpass.json') });
    const r = await parseImport({ name: 'Proton Pass_export.zip', bytes });
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual(expected);
  });

  it('asks for an unencrypted export instead of a PGP one', async () => {
    const bytes = strToU8('-----BEGIN PGP MESSAGE-----\n\nwcBMA...\n-----END PGP MESSAGE-----\n');
    await expect(parseImport({ name: 'export.pgp', bytes })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});

describe('zip archives are not trusted (issue 25, finding 4)', () => {
  const MiB = 1024 * 1024;
  // About 470 KB of DEFLATE expanding to 75 MB of zeros, its header claiming 100 bytes.
  it.each([
    ['a 1PUX', 'export.1pux', 'export.data'],
    ['a Proton Pass zip', 'proton.zip', 'Proton Pass/data.json'],
  ])(
    'refuses %s whose export unpacks past 64 MB, naming the cap',
    { timeout: 30_000 },
    async (_, name, entry) => {
      const bytes = zipBomb(entry, 75 * MiB, 100);
      await expect(parseImport({ name, bytes })).rejects.toMatchObject({
        code: 'TOO_LARGE',
        message: `"${entry}" in this archive unpacks to more than 64 MB, more than any export we read. It was not opened.`,
      });
    },
  );

  it('still reads a 1PUX whose attachments are large: they are never unpacked', async () => {
    const bytes = zipOfRaw([
      { name: 'export.data', data: sample('1pux/export.data'), declaredSize: 0, stored: true },
      { name: 'files/big.bin', data: deflatedZeros(100 * MiB), declaredSize: 100 * MiB },
    ]);
    const r = await parseImport({ name: 'export.1pux', bytes });
    expect(r.items).toHaveLength(7);
  });
});
