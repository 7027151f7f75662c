import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { additionalUrls, customFields, nordExpiry, parseNordPassCsv } from './nordpass-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/nordpass.csv', import.meta.url), 'utf8');

describe('NordPass CSV', () => {
  it('reads logins, cards, notes and identities from the sample, folders named by rows', () => {
    const r = parseNordPassCsv(sampleText());
    expect(r.format).toBe('nordpass-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', 'Work'],
      ['login', 'Ünïcode Bänk', undefined],
      ['card', 'Visa', 'Work'],
      ['note', 'Wi-Fi code', undefined],
      ['identity', 'Ana', undefined],
      ['login', 'Short', undefined],
    ]);
    const [mail, bank, card, note, ana, short] = r.items;
    expect(mail).toMatchObject({
      notes: 'two\nlines',
      urls: ['https://mail.example', 'https://webmail.example', 'https://m.mail.example'],
      login: { username: 'ana', password: 'pa,ss"1' },
      customFields: [
        { name: 'Recovery code', value: 'R-123', hidden: true },
        { name: 'Plan', value: 'Pro', hidden: false },
      ],
    });
    expect(bank).toMatchObject({ customFields: [], login: { username: 'bo@example.com' } });
    expect(card).toMatchObject({
      card: {
        cardholderName: 'Ana Lima',
        number: '4111111111111111',
        code: '123',
        expMonth: '12',
        expYear: '2029',
      },
      customFields: [
        { name: 'pin', value: '0000', hidden: true },
        { name: 'zipcode', value: '10115', hidden: false },
      ],
    });
    expect(note).toMatchObject({ notes: 'SSID: home\nKey: hunter2', customFields: [] });
    expect(ana).toMatchObject({
      identity: {
        firstName: 'Ana Maria',
        lastName: 'Lima',
        phone: '+49 30 1234',
        email: 'ana@example.com',
        address1: '1 Main St',
        address2: 'Flat 2',
        city: 'Berlin',
        state: 'BE',
        postalCode: '10115',
        country: 'DE',
      },
      customFields: [],
    });
    expect(short).toMatchObject({
      urls: ['https://short.example'],
      login: { username: 'u', password: '' },
    });
    expect(r.skipped).toEqual([
      { entry: 'line 3 ("Archive")', reason: 'An empty folder is not imported' },
    ]);
  });

  it('is detected with a BOM and CRLF, and gives the same items for LF', async () => {
    const crlf = sampleText().replace(/\n/g, '\r\n');
    const bytes = new TextEncoder().encode(`\uFEFF${crlf}`);
    const r = await parseImport({ name: 'nordpass.csv', bytes });
    expect(r.format).toBe('nordpass-csv');
    expect(r.items).toEqual(parseNordPassCsv(sampleText()).items);
  });

  it('reads an older export without additional_urls, pin and custom_fields', async () => {
    const text =
      'name,url,username,password,note,cardholdername,cardnumber,cvc,expirydate,zipcode,folder,full_name,phone_number,email,address1,address2,city,country,state,type\n' +
      'A,https://a.example,u,p,,,,,,,,,,,,,,,,password\n';
    const r = await parseImport({ name: 'x.csv', bytes: new TextEncoder().encode(text) });
    expect(r.format).toBe('nordpass-csv');
    expect(r.items[0]).toMatchObject({ type: 'login', login: { username: 'u', password: 'p' } });
  });

  it('keeps values a type does not use, an unknown type and an unreadable expiry', () => {
    const header =
      'name,url,additional_urls,username,password,note,cardholdername,cardnumber,cvc,pin,expirydate,zipcode,folder,full_name,phone_number,email,address1,address2,city,country,state,type,custom_fields\n';
    const r = parseNordPassCsv(
      header +
        'C,https://c.example,,,,,,4111,,,soon,,,,,,,,,,,credit_card,\n' +
        'P,,,,secret,,,,,,,,,,,,,,,,,passkey,not json\n',
    );
    expect(r.items[0]).toMatchObject({
      type: 'card',
      card: { number: '4111', expMonth: '', expYear: '' },
      customFields: [
        { name: 'url', value: 'https://c.example', hidden: false },
        { name: 'expirydate', value: 'soon', hidden: false },
      ],
    });
    expect(r.items[1]).toMatchObject({
      type: 'note',
      customFields: [
        { name: 'Item type', value: 'passkey', hidden: false },
        { name: 'custom_fields', value: 'not json', hidden: false },
        { name: 'password', value: 'secret', hidden: true },
      ],
    });
  });

  it('reads the JSON columns leniently', () => {
    expect(additionalUrls('https://a.example, https://b.example')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(additionalUrls('[null,"https://a.example",""]')).toEqual(['https://a.example']);
    expect(
      customFields('[null,{"label":"N","type":"text","value":7},{"label":"","value":""}]'),
    ).toEqual([{ name: 'N', value: '7', hidden: false }]);
    expect(nordExpiry('1/2031')).toEqual({ expMonth: '1', expYear: '2031' });
    expect(nordExpiry('13/29')).toBeUndefined();
  });
});
