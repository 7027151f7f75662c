import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { expiry, noteValues, parseLastPassCsv } from './lastpass-csv.ts';

const sampleText = () => readFileSync(new URL('../samples/lastpass.csv', import.meta.url), 'utf8');

describe('LastPass CSV', () => {
  it('reads logins, TOTP forms, notes, cards, addresses and typed notes from the sample', () => {
    const r = parseLastPassCsv(sampleText());
    expect(r.format).toBe('lastpass-csv');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Shöp ünïcode', 'Personal/Shopping'],
      ['login', 'Mail', undefined],
      ['login', 'Steam', 'Games'],
      ['note', 'Plain note', undefined],
      ['card', 'Visa', 'Cards'],
      ['identity', 'Home address', undefined],
      ['note', 'Router', 'Home'],
      ['login', 'short.example', undefined],
    ]);
    const [shop, mail, steam, note, card, address, server, short] = r.items;
    expect(shop).toMatchObject({
      notes: 'Order line one\nline two',
      urls: ['https://shop.example'],
      login: { username: 'ana@example.com', password: 'Tr0ub4dor&3' },
      customFields: [],
    });
    expect(shop?.totp).toBeUndefined();
    expect(mail).toMatchObject({
      totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&issuer=Mail',
      login: { password: 'pa,ss"1' },
    });
    expect(steam?.totp).toBe('steam://JBSWY3DPEHPK3PXP');
    expect(note).toMatchObject({
      notes: 'Just a note: with a colon\nand a second line',
      urls: [],
      customFields: [],
    });
    expect(card).toMatchObject({
      notes: 'Card note\nsecond line',
      card: {
        cardholderName: 'Ana Lima',
        brand: 'Visa',
        number: '4111111111111111',
        expMonth: '6',
        expYear: '2029',
        code: '123',
      },
      customFields: [{ name: 'Start Date', value: 'January,2024', hidden: false }],
    });
    expect(address).toMatchObject({
      notes: '',
      identity: {
        title: 'Ms',
        firstName: 'Ana',
        lastName: 'Lima',
        company: 'ACME',
        address1: '1 Main St',
        city: 'Berlin',
        postalCode: '10115',
        country: 'DE',
        email: 'ana@example.com',
        phone: '5550100',
      },
      customFields: [
        { name: 'Gender', value: 'Female', hidden: false },
        { name: 'Birthday', value: '1990-02-03', hidden: false },
      ],
    });
    expect(server?.customFields).toEqual([
      { name: 'Note type', value: 'Server', hidden: false },
      { name: 'Hostname', value: '10.0.0.2', hidden: false },
      { name: 'Username', value: 'admin', hidden: false },
      { name: 'Password', value: 'r00t', hidden: true },
    ]);
    expect(short).toMatchObject({ notes: '', login: { username: 'bo', password: 'pw' } });
    expect(r.skipped).toEqual([
      { entry: 'line 2 ("Shöp ünïcode")', reason: 'The favourite mark is not imported' },
    ]);
  });

  it('is detected with a BOM and CRLF, and gives the same items for LF', async () => {
    const text = sampleText();
    const bom = new TextEncoder().encode(`\uFEFF${text}`);
    const r = await parseImport({ name: 'lastpass_export.csv', bytes: bom });
    expect(r.format).toBe('lastpass-csv');
    expect(parseLastPassCsv(text.replace(/\r\n/g, '\n'))).toEqual(parseLastPassCsv(text));
  });

  it('reads an export without the totp column and keeps unknown columns and cells', () => {
    const r = parseLastPassCsv(
      'url,username,password,extra,name,grouping,fav,id\n' +
        'http://,u,p,,,,,42,spare\n' +
        'http://sn,left,behind,,N,,\n',
    );
    expect(r.items[0]).toMatchObject({
      title: 'http://',
      urls: [],
      customFields: [
        { name: 'id', value: '42', hidden: false },
        { name: 'Column 9', value: 'spare', hidden: false },
      ],
    });
    expect(r.items[1]).toMatchObject({
      type: 'note',
      customFields: [
        { name: 'Username', value: 'left', hidden: false },
        { name: 'Password', value: 'behind', hidden: true },
      ],
    });
  });

  it('reads typed-note lines and expiry forms', () => {
    expect(noteValues('NoteType:Custom\nKey:a:b\nwrapped\nNotes:x\nNotes:y')).toEqual([
      ['NoteType', 'Custom'],
      ['Key', 'a:b\nwrapped'],
      ['Notes', 'x\nNotes:y'],
    ]);
    expect(expiry('June,2029')).toEqual({ expMonth: '6', expYear: '2029' });
    expect(expiry('06/29')).toEqual({ expMonth: '6', expYear: '2029' });
    expect(expiry('Smarch,2029')).toBeUndefined();
  });

  it('keeps an expiry it cannot read as a custom field', () => {
    const r = parseLastPassCsv(
      'url,username,password,totp,extra,name,grouping,fav\n' +
        'http://sn,,,,"NoteType:Credit Card\nExpiration Date:soon\nNotes:",C,,0\n',
    );
    expect(r.items[0]).toMatchObject({
      type: 'card',
      customFields: [{ name: 'Expiration Date', value: 'soon', hidden: false }],
    });
  });
});
