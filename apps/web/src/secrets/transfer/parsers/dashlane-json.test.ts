import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonMatches } from '../detect.ts';
import { parseImport } from '../import.ts';
import { parseDashlaneJson } from './dashlane-json.ts';

const sampleBytes = () => readFileSync(new URL('../samples/dashlane.json', import.meta.url));
const sample = () => JSON.parse(new TextDecoder().decode(sampleBytes())) as unknown;

describe('Dashlane JSON', () => {
  it('reads logins, notes, cards, bank accounts and the personal kinds from the sample', () => {
    const r = parseDashlaneJson(sample());
    expect(r.format).toBe('dashlane-json');
    expect(r.items.map((i) => [i.type, i.title])).toEqual([
      ['login', 'Mail'],
      ['login', 'Steam'],
      ['login', 'Untitled'],
      ['note', 'Wi-Fi'],
      ['card', 'Visa'],
      ['note', 'Checking'],
      ['identity', 'Ana Lima'],
      ['identity', 'Personal mail'],
      ['identity', 'Mobile'],
      ['identity', 'Home'],
      ['identity', 'Passport: Ana Maria Lima'],
      ['identity', 'Social security number: Ana Lima'],
      ['note', 'Old'],
    ]);
    const [mail, steam, bare, wifi, visa, bank, ana, email, phone, home, passport, ssn, other] =
      r.items;
    expect(mail).toMatchObject({
      folder: 'Work',
      notes: 'Line one\r\nline two',
      urls: ['https://mail.example'],
      totp: 'JBSWY3DPEHPK3PXP',
      login: { username: 'ana', password: 'pa"ss,ünï' },
      customFields: [
        { name: 'email', value: 'ana@example.com', hidden: false },
        { name: 'secondaryLogin', value: 'ana.alt', hidden: false },
      ],
    });
    expect(steam).toMatchObject({
      notes: '',
      urls: ['store.steampowered.com'],
      totp: 'otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam',
      customFields: [],
    });
    expect(bare).toMatchObject({ login: { username: 'bo@example.com', password: 'x' } });
    expect(wifi).toMatchObject({
      notes: 'SSID: home\nKey: hunter2',
      customFields: [{ name: 'secured', value: 'true', hidden: false }],
    });
    expect(visa).toMatchObject({
      card: {
        cardholderName: 'Ana Lima',
        number: '4111111111111111',
        code: '123',
        expMonth: '6',
        expYear: '2029',
      },
      customFields: [
        { name: 'bank', value: 'Bänk', hidden: false },
        { name: 'color', value: 'BLUE', hidden: false },
      ],
    });
    expect(bank).toMatchObject({
      customFields: [
        { name: 'bankAccountOwner', value: 'Ana Lima', hidden: false },
        { name: 'bankAccountBIC', value: 'DEUTDEFF', hidden: true },
        { name: 'bankAccountIBAN', value: 'DE89370400440532013000', hidden: true },
      ],
    });
    expect(ana).toMatchObject({
      identity: { title: 'MS', firstName: 'Ana', middleName: 'Maria', username: 'ana' },
      customFields: [
        { name: 'birthDate', value: '1990-02-03', hidden: false },
        { name: 'birthPlace', value: 'Porto', hidden: false },
      ],
    });
    expect(email).toMatchObject({
      identity: { email: 'ana@example.com' },
      customFields: [{ name: 'type', value: 'PERSO', hidden: false }],
    });
    expect(phone).toMatchObject({ identity: { phone: '+49 30 1234' } });
    expect(home).toMatchObject({
      identity: { address1: '1 Hauptstraße', city: 'Berlin', postalCode: '10115', country: 'DE' },
      customFields: [{ name: 'door', value: '2', hidden: false }],
    });
    expect(passport).toMatchObject({
      identity: {
        firstName: 'Ana Maria',
        lastName: 'Lima',
        passportNumber: 'C01X00T47',
        phone: '',
      },
      customFields: [
        { name: 'deliveryDate', value: '2020-01-02', hidden: false },
        { name: 'expireDate', value: '2030-01-01', hidden: false },
        { name: 'deliveryPlace', value: 'Berlin', hidden: false },
      ],
    });
    expect(ssn).toMatchObject({ identity: { ssn: '123-45-6789' }, customFields: [] });
    expect(other).toMatchObject({
      customFields: [
        { name: 'Dashlane type', value: 'DATACHANGEHISTORY', hidden: false },
        { name: 'changeSet', value: 'x', hidden: false },
      ],
    });
    expect(r.skipped).toEqual([
      { entry: 'GENERALSETTINGS', reason: "Dashlane's settings are not imported" },
    ]);
  });

  it('is detected with a BOM and CRLF line ends', async () => {
    const text = new TextDecoder().decode(sampleBytes()).replace(/\n/g, '\r\n');
    const r = await parseImport({
      name: 'export.json',
      bytes: new TextEncoder().encode(`\uFEFF${text}`),
    });
    expect(r.format).toBe('dashlane-json');
    expect(r.items).toHaveLength(13);
  });

  it('reads the newer spelling of the lists and keys, numbers and an unreadable expiry', () => {
    const data = {
      credentials: [
        {
          title: 'A',
          url: 'https://a.example',
          username: 'u',
          password: 'p',
          otp_url: 'otpauth://totp/A?secret=GEZDGNBV',
          otp_secret: 'GEZDGNBV',
        },
      ],
      paymentCards: [
        { name: 'C', cardholder_name: 'Ünï', card_number: 4111, expire_month: 13, expire_year: 29 },
      ],
      secureNotes: [{ title: 'N', content: 'text' }],
      identities: null,
    };
    expect(jsonMatches(data)).toEqual(['dashlane-json']);
    expect(jsonMatches({ credentials: [], other: 1 })).toEqual([]);
    const r = parseDashlaneJson(data);
    expect(r.items).toMatchObject([
      {
        type: 'login',
        totp: 'otpauth://totp/A?secret=GEZDGNBV',
        customFields: [{ name: 'otp_secret', value: 'GEZDGNBV', hidden: true }],
      },
      {
        type: 'card',
        card: { cardholderName: 'Ünï', number: '4111', expMonth: '', expYear: '2029' },
        customFields: [{ name: 'expire_month', value: '13', hidden: false }],
      },
      { type: 'note', notes: 'text' },
    ]);
  });

  it('names the list and entry it cannot read', () => {
    expect(() => parseDashlaneJson({ AUTHENTIFIANT: [{ title: 'A' }, 'x'] })).toThrow(
      /AUTHENTIFIANT, entry 2: it is not an object/,
    );
  });
});
