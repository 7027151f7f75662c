import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../import.ts';
import { enpassExpiry, parseEnpassJson } from './enpass-json.ts';

const sampleBytes = () => readFileSync(new URL('../samples/enpass.json', import.meta.url));
const sample = () => JSON.parse(new TextDecoder().decode(sampleBytes())) as unknown;

describe('Enpass JSON', () => {
  it('reads logins, cards, identities, notes and other categories from the sample', () => {
    const r = parseEnpassJson(sample());
    expect(r.format).toBe('enpass-json');
    expect(r.items.map((i) => [i.type, i.title, i.folder])).toEqual([
      ['login', 'Mail', 'Work/Clients'],
      ['card', 'Visa', undefined],
      ['identity', 'Ana Lima', 'Work'],
      ['note', 'Note', undefined],
      ['login', 'Router', undefined],
    ]);
    const [mail, card, ana, note, router] = r.items;
    expect(mail).toMatchObject({
      notes: 'Line one\r\nline two',
      urls: ['https://mail.example'],
      totp: 'otpauth://totp/Mail:ana?secret=JBSWY3DPEHPK3PXP&issuer=Mail',
      login: { username: 'ana', password: 'pa"ss ünï' },
      customFields: [
        { name: 'E-mail', value: 'ana@example.com', hidden: false },
        { name: 'Security answer', value: 'Rex', hidden: true },
      ],
    });
    expect(card).toMatchObject({
      card: {
        cardholderName: 'Ana Lima',
        brand: 'Visa',
        number: '4111111111111111',
        code: '123',
        expMonth: '6',
        expYear: '2029',
      },
      customFields: [
        { name: 'PIN', value: '0000', hidden: true },
        { name: 'Bank name', value: 'Bänk', hidden: false },
      ],
    });
    expect(ana).toMatchObject({
      notes: '',
      identity: {
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.com',
        phone: '+49 30 1234',
        city: 'Berlin',
      },
      customFields: [
        { name: 'Birthday', value: '1990-02-03', hidden: false },
        { name: 'Folders', value: 'Work, Work/Clients', hidden: false },
      ],
    });
    expect(note).toMatchObject({ notes: 'Just a note', customFields: [] });
    expect(router).toMatchObject({
      login: { username: 'admin', password: 'r00t' },
      customFields: [{ name: 'Host', value: '10.0.0.2', hidden: false }],
    });
    expect(r.skipped).toEqual([
      { entry: 'entry 1 ("Mail")', reason: 'The favourite mark is not imported' },
      { entry: 'entry 1 ("Mail")', reason: '1 deleted field(s) are not imported' },
      {
        entry: 'entry 3 ("Ana Lima")',
        reason: 'The archived mark is not imported (the item is)',
      },
      { entry: 'entry 5 ("Router")', reason: 'Attachment "key.pem" is not imported' },
      { entry: 'entry 6 ("Deleted login")', reason: 'In the trash' },
    ]);
  });

  it('is detected with a BOM and CRLF line ends', async () => {
    const text = new TextDecoder().decode(sampleBytes()).replace(/\n/g, '\r\n');
    const r = await parseImport({
      name: 'enpass.json',
      bytes: new TextEncoder().encode(`\uFEFF${text}`),
    });
    expect(r.format).toBe('enpass-json');
    expect(r.items).toHaveLength(5);
  });

  it('reads nulls, numbers and a bare base32 TOTP, and names an unreadable entry', () => {
    const r = parseEnpassJson({
      folders: null,
      items: [
        {
          title: null,
          template_type: 'login.default',
          category: 'login',
          folders: [null, 'missing'],
          fields: [
            null,
            { type: 'url', value: 'https://a.example' },
            { type: 'totp', value: 'JBSWY3DPEHPK3PXP' },
            { type: 'totp', label: 'Second', value: 'GEZDGNBV' },
            { type: 'pin', label: 'PIN', value: 1234, sensitive: true },
            { type: 'text', label: 'Expiry', value: '13/29' },
          ],
        },
      ],
    });
    expect(r.items[0]).toMatchObject({
      title: 'https://a.example',
      totp: 'JBSWY3DPEHPK3PXP',
      customFields: [
        { name: 'Second', value: 'GEZDGNBV', hidden: true },
        { name: 'PIN', value: '1234', hidden: true },
        { name: 'Expiry', value: '13/29', hidden: false },
      ],
    });
    expect(r.items[0]?.folder).toBeUndefined();
    expect(() => parseEnpassJson({ items: [{ title: 'X', fields: 'no' }] })).toThrow(
      /entry 1 \("X"\), field "fields"/,
    );
  });

  it('keeps an unreadable card expiry as a custom field', () => {
    expect(enpassExpiry('1/2031')).toEqual({ expMonth: '1', expYear: '2031' });
    const r = parseEnpassJson({
      items: [
        {
          title: 'C',
          template_type: 'creditcard.default',
          category: 'creditcard',
          fields: [{ type: 'ccExpiry', label: 'Expiry date', value: 'soon' }],
        },
      ],
    });
    expect(r.items[0]).toMatchObject({
      type: 'card',
      customFields: [{ name: 'Expiry date', value: 'soon', hidden: false }],
    });
  });
});
