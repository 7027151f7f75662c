import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { fieldKey, keeperExpiry, parseKeeperJson } from './keeper-json.ts';

const sampleBytes = () => readFileSync(new URL('../samples/keeper.json', import.meta.url));
const sample = () => JSON.parse(new TextDecoder().decode(sampleBytes())) as unknown;

describe('Keeper JSON', () => {
  it('reads logins, cards, identities, notes and SSH keys from the sample', () => {
    const r = parseKeeperJson(sample());
    expect(r.format).toBe('keeper-json');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', 'Work/Mail'],
      ['login', 'Steam', 'Team Shared/Games'],
      ['card', 'Visa', undefined],
      ['identity', 'Ana Lima', undefined],
      ['note', 'Wi-Fi code', undefined],
      ['ssh', 'Server key', undefined],
    ]);
    const [mail, steam, visa, ana, wifi, key] = r.items;
    expect(mail).toMatchObject({
      notes: 'Line one\r\nline two',
      urls: ['https://mail.example', 'https://webmail.example'],
      totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&issuer=Mail',
      login: { username: 'ana', password: 'pa"ss,ünï' },
      customFields: [
        { name: 'Recovery email', value: 'me@example.com', hidden: false },
        { name: 'Security question (question)', value: 'First pet?', hidden: true },
        { name: 'Security question (answer)', value: 'Rex', hidden: true },
        { name: 'Folders', value: 'Team Shared', hidden: false },
      ],
    });
    expect(steam).toMatchObject({
      notes: '',
      totp: 'otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam',
      customFields: [{ name: 'PIN', value: '1234', hidden: false }],
    });
    expect(visa).toMatchObject({
      card: {
        cardholderName: 'Ana Lima',
        number: '4111111111111111',
        code: '123',
        expMonth: '6',
        expYear: '2029',
      },
      customFields: [{ name: 'Pin code', value: '0000', hidden: true }],
    });
    expect(ana).toMatchObject({
      identity: {
        firstName: 'Ana',
        middleName: 'Maria',
        lastName: 'Lima',
        company: 'Lima & Co',
        email: 'ana@example.com',
        phone: '+49 30 1234',
        address1: '1 Hauptstraße',
        city: 'Berlin',
        postalCode: '10115',
        country: 'DE',
      },
      customFields: [
        { name: 'Phone (region)', value: 'DE', hidden: false },
        { name: 'Phone (type)', value: 'Mobile', hidden: false },
        { name: 'Birth date', value: '1990-02-03', hidden: false },
      ],
    });
    expect(wifi).toMatchObject({ notes: 'SSID: home\nKey: hunter2', customFields: [] });
    expect(key).toMatchObject({
      ssh: {
        publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZha2Vfa2V5 ana@host',
        privateKey: expect.stringContaining('BEGIN OPENSSH PRIVATE KEY') as string,
      },
      customFields: [
        { name: 'Username', value: 'root', hidden: false },
        { name: 'Host (hostName)', value: '10.0.0.2', hidden: false },
        { name: 'Host (port)', value: '22', hidden: false },
      ],
    });
    expect(r.skipped).toEqual([
      { entry: 'entry 1 ("Mail")', reason: 'Attachment "recovery.pdf" is not imported' },
      { entry: 'entry 3 ("Visa")', reason: '1 link(s) to other records are not imported' },
      { entry: 'entry 6 ("Server key")', reason: 'Passkeys are not imported' },
      {
        entry: 'shared folder "Team Shared"',
        reason: 'Its members and permissions are not imported',
      },
    ]);
  });

  it('is detected with a BOM and CRLF line ends', async () => {
    const text = new TextDecoder().decode(sampleBytes()).replace(/\n/g, '\r\n');
    const r = await parseImport({
      name: 'export.json',
      bytes: new TextEncoder().encode(`\uFEFF${text}`),
    });
    expect(r.format).toBe('keeper-json');
    expect(r.items).toHaveLength(6);
  });

  it('reads field keys with and without a type, a label and an index', () => {
    expect(fieldKey('$text:Recovery email::1')).toEqual({ type: 'text', label: 'Recovery email' });
    expect(fieldKey('$oneTimeCode::1')).toEqual({ type: 'oneTimeCode', label: '' });
    expect(fieldKey('$url:a:b')).toEqual({ type: 'url', label: 'a:b' });
    expect(fieldKey('TFC:Keeper')).toEqual({ type: 'text', label: 'TFC:Keeper' });
    expect(keeperExpiry('13/2029')).toBeUndefined();
    expect(keeperExpiry('1/29')).toEqual({ expMonth: '1', expYear: '2029' });
  });

  it('reads nulls, a bare base32 TOTP, a second TOTP, a record with only notes', () => {
    const r = parseKeeperJson({
      shared_folders: null,
      records: [
        {
          title: null,
          login: 'u',
          password: null,
          login_url: 'https://a.example',
          notes: null,
          custom_fields: {
            $oneTimeCode: 'JBSWY3DPEHPK3PXP',
            'TFC:Keeper': 'otpauth://totp/B?secret=GEZDGNBV',
            $fileRef: ['x'],
            'Unicode ✓': 'ünï',
          },
          folders: [null, { folder: null }],
        },
        { title: 'Only notes', notes: 'text\nmore', custom_fields: null },
        { title: 'Server', $type: 'serverCredentials', login: 'admin', password: 'pw' },
      ],
    });
    expect(r.items[0]).toMatchObject({
      type: 'login',
      title: 'a.example',
      totp: 'JBSWY3DPEHPK3PXP',
      login: { username: 'u', password: '' },
      customFields: [
        { name: 'TFC:Keeper', value: 'otpauth://totp/B?secret=GEZDGNBV', hidden: true },
        { name: 'Unicode ✓', value: 'ünï', hidden: false },
      ],
    });
    expect(r.items[0]?.folder).toBeUndefined();
    expect(r.items[1]).toMatchObject({ type: 'note', notes: 'text\nmore' });
    expect(r.items[2]).toMatchObject({
      type: 'login',
      customFields: [{ name: 'Record type', value: 'serverCredentials', hidden: false }],
    });
    expect(r.skipped).toEqual([
      { entry: 'entry 1', reason: '1 attached file(s) are not imported' },
    ]);
  });

  it('names an unreadable record and field', () => {
    expect(() => parseKeeperJson({ records: [{ title: 'X', custom_fields: 'no' }] })).toThrow(
      /entry 1 \("X"\), field "custom_fields"/,
    );
  });
});
