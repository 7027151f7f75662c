import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { parseDashlaneCsv } from './dashlane-csv.ts';

const sampleText = (name: string) =>
  readFileSync(new URL(`../samples/dashlane/${name}`, import.meta.url), 'utf8');
const parse = (name: string) => parseDashlaneCsv(sampleText(name));

describe('Dashlane CSV (each file of its ZIP)', () => {
  it('reads credentials: TOTP URI or bare secret, category as folder, usernames kept', () => {
    const r = parse('credentials.csv');
    expect(r.format).toBe('dashlane-csv');
    expect(r.items).toMatchObject([
      {
        type: 'login',
        title: 'Mail',
        folder: 'Work',
        notes: 'two\nlines',
        urls: ['https://mail.example'],
        totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&issuer=Mail',
        login: { username: 'ana', password: 'pa,ss"1' },
        customFields: [{ name: 'username2', value: 'ana.alt@example.com', hidden: false }],
      },
      { title: 'Ünïcode Bänk', totp: 'JBSWY3DPEHPK3PXP', customFields: [] },
      { title: 'Short', urls: [], login: { username: '', password: 'pw' } },
    ]);
  });

  it('reads secure notes, payment cards and bank accounts', () => {
    expect(parse('securenotes.csv').items).toMatchObject([
      { type: 'note', title: 'Wi-Fi', notes: 'SSID: home\nKey: hunter2', customFields: [] },
      { type: 'note', title: 'Empty', notes: '' },
    ]);
    const [card, bank] = parse('payments.csv').items;
    expect(card).toMatchObject({
      type: 'card',
      title: 'Visa',
      card: {
        cardholderName: 'Ana Lima',
        number: '4111111111111111',
        code: '123',
        expMonth: '6',
        expYear: '2029',
      },
      customFields: [
        { name: 'country', value: 'DE', hidden: false },
        { name: 'issuing_bank', value: 'Bänk', hidden: false },
      ],
    });
    expect(bank).toMatchObject({
      type: 'note',
      title: 'Checking',
      customFields: [
        { name: 'type', value: 'bank', hidden: false },
        { name: 'account_holder', value: 'Ana Lima', hidden: false },
        { name: 'routing_number', value: 'DEUTDEFF', hidden: true },
        { name: 'account_number', value: 'DE89370400440532013000', hidden: true },
        { name: 'country', value: 'DE', hidden: false },
        { name: 'issuing_bank', value: 'Bänk', hidden: false },
      ],
    });
  });

  it('reads ID documents and personal info as identities', () => {
    expect(parse('ids.csv').items).toMatchObject([
      {
        type: 'identity',
        title: 'passport: Ana Maria Lima',
        identity: { firstName: 'Ana Maria', lastName: 'Lima', passportNumber: 'C01X00T47' },
        customFields: [
          { name: 'issue_date', value: '2020-01-02', hidden: false },
          { name: 'expiration_date', value: '2030-01-01', hidden: false },
          { name: 'place_of_issue', value: 'Berlin', hidden: false },
        ],
      },
      {
        title: 'tax number: Ana Lima',
        customFields: [
          { name: 'type', value: 'tax_number', hidden: false },
          { name: 'number', value: '12345678901', hidden: true },
        ],
      },
    ]);
    expect(parse('personalInfo.csv').items).toMatchObject([
      {
        title: 'Ana Lima',
        identity: { title: 'Ms', firstName: 'Ana', middleName: 'Maria', username: 'ana' },
        customFields: [
          { name: 'date_of_birth', value: '1990-02-03', hidden: false },
          { name: 'place_of_birth', value: 'Porto', hidden: false },
        ],
      },
      {
        title: 'Personal mail',
        identity: { email: 'ana@example.com' },
        customFields: [{ name: 'email_type', value: 'PERSO', hidden: false }],
      },
      {
        title: 'Home',
        identity: { address1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
        customFields: [
          { name: 'address_recipient', value: 'Ana Lima', hidden: false },
          { name: 'address_apartment', value: '2', hidden: false },
        ],
      },
    ]);
  });

  it('is detected with a BOM, and gives the same items for LF and CRLF', async () => {
    for (const name of ['credentials.csv', 'payments.csv', 'personalInfo.csv']) {
      const text = sampleText(name);
      const bytes = new TextEncoder().encode(`\uFEFF${text}`);
      expect((await parseImport({ name, bytes })).format).toBe('dashlane-csv');
      expect(parseDashlaneCsv(text.replace(/\r\n/g, '\n'))).toEqual(parseDashlaneCsv(text));
    }
  });

  it('keeps an unreadable expiry and a newer otpUrl column', () => {
    const r = parseDashlaneCsv(
      'type,account_name,account_holder,cc_number,code,expiration_month,expiration_year\n' +
        'payment_card,C,,4111,,13,soon\n',
    );
    expect(r.items[0]).toMatchObject({
      type: 'card',
      card: { expMonth: '', expYear: '' },
      customFields: [
        { name: 'expiration_month', value: '13' },
        { name: 'expiration_year', value: 'soon' },
      ],
    });
    const otp = parseDashlaneCsv(
      'username,title,password,note,url,category,otpUrl\nu,T,p,,,,otpauth://totp/T?secret=GEZDGNBV\n',
    );
    expect(otp.items[0]).toMatchObject({
      totp: 'otpauth://totp/T?secret=GEZDGNBV',
      customFields: [],
    });
  });
});
