import { describe, expect, it } from 'vitest';
import { parseTotp } from './tools/totp.ts';
import {
  secretDataFromStored,
  secretDataFromTransfer,
  storedFromTransfer,
  storedType,
  storedUrls,
  transferFromStored,
  type SecretItemJson,
} from './itemFormat.ts';
import { common, emptyCard, emptyIdentity, type TransferItem } from './transfer/model.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const uri = parseTotp(SECRET, { label: 'Mail' }).uri!;

const every: TransferItem[] = [
  {
    ...common('Mail'),
    type: 'login',
    login: { username: 'me@example.com', password: 'pw' },
    urls: ['https://mail.example.com', 'https://example.com/login'],
    totp: uri,
    customFields: [
      { name: 'PIN', value: '1234', hidden: true },
      { name: 'Account', value: '42', hidden: false },
    ],
    folder: 'Work/Mail',
    notes: 'a note',
  },
  { ...common('Visa'), type: 'card', card: { ...emptyCard(), number: '4111', code: '123' } },
  { ...common('Memo'), type: 'note', notes: 'remember' },
  {
    ...common('Me'),
    type: 'identity',
    identity: { ...emptyIdentity(), firstName: 'Ada', email: 'ada@example.com' },
  },
  {
    ...common('Server'),
    type: 'ssh',
    ssh: { privateKey: '-----BEGIN...', publicKey: 'ssh-ed25519 AAAA', fingerprint: 'SHA256:x' },
  },
  {
    ...common('Stripe'),
    type: 'apikey',
    apikey: { username: 'acct', key: 'sk_live_1' },
    urls: ['https://stripe.com'],
  },
  { ...common('Wi-Fi'), type: 'text', notes: 'hunter2' },
];

describe('stored item format', () => {
  it('reads back every type identical (stored, then read, then stored again)', () => {
    for (const item of every) {
      const stored = storedFromTransfer(item);
      // What the Worker gives back is JSON: go through it to drop anything JSON cannot hold.
      const read = transferFromStored(JSON.parse(JSON.stringify(stored)));
      expect(read).toEqual(item);
      expect(storedFromTransfer(read)).toEqual(stored);
    }
  });

  it("stores a login's first URL as url and the rest as urls, with its own fields", () => {
    const s = storedFromTransfer(every[0]!);
    expect(s).toMatchObject({
      type: 'login',
      username: 'me@example.com',
      password: 'pw',
      url: 'https://mail.example.com',
      urls: ['https://example.com/login'],
      folder: 'Work/Mail',
    });
    expect(storedUrls(s)).toEqual(every[0]!.urls);
  });

  it('leaves empty parts out and never writes a login field on another type', () => {
    const s = storedFromTransfer({ ...common('Memo'), type: 'note', notes: 'x' });
    expect(s).toEqual({ title: 'Memo', type: 'note', notes: 'x' });
    const card = storedFromTransfer(every[1]!);
    expect(card).not.toHaveProperty('username');
    expect(card).not.toHaveProperty('password');
  });

  it('stores a bare base32 TOTP secret as the canonical otpauth URI, keeps an unreadable one', () => {
    const s = storedFromTransfer({ ...every[0]!, totp: 'jbsw y3dp ehpk 3pxp jbsw y3dp' });
    expect(s.totp).toMatch(/^otpauth:\/\/totp\//);
    expect(s.totp).toContain(`secret=${SECRET}`);
    expect(storedFromTransfer({ ...every[0]!, totp: s.totp! }).totp).toBe(s.totp);
    expect(storedFromTransfer({ ...every[0]!, totp: 'not base32!' }).totp).toBe('not base32!');
  });

  it('maps items written before issue 20: plain text when notes and no username/password', () => {
    const oldText = { title: 'Wi-Fi', username: '', password: '', url: '', notes: 'hunter2' };
    expect(storedType(oldText)).toBe('text');
    expect(transferFromStored(oldText)).toEqual({
      ...common('Wi-Fi'),
      type: 'text',
      notes: 'hunter2',
    });
    const oldLogin = { title: 'Bank', username: 'me', password: 'x', url: 'https://b', notes: '' };
    expect(transferFromStored(oldLogin)).toEqual({
      ...common('Bank'),
      type: 'login',
      login: { username: 'me', password: 'x' },
      urls: ['https://b'],
    });
    // Nothing at all (an empty old item) is a login, as the spec's card showed it.
    expect(storedType({ title: 'Empty', username: '', password: '', url: '', notes: '' })).toBe(
      'login',
    );
  });

  it('never throws on odd JSON: wrong kinds read as empty, an unknown type as the old rule', () => {
    const odd: unknown = {
      title: 7,
      type: 'spaceship',
      notes: 'n',
      urls: ['https://a', 3],
      fields: [{ name: 'x', value: 1, hidden: 'yes' }, null],
      card: 'no',
    };
    expect(transferFromStored(odd)).toEqual({
      ...common(''),
      type: 'text',
      notes: 'n',
      urls: ['https://a'],
      customFields: [{ name: 'x', value: '', hidden: false }],
    });
    expect(transferFromStored(null).type).toBe('login');
    const card = transferFromStored({ title: 'C', type: 'card', card: { number: 41 } });
    expect(card).toEqual({ ...common('C'), type: 'card', card: emptyCard() });
  });

  it('is the shape the contract names', () => {
    const s: SecretItemJson = storedFromTransfer(every[5]!);
    expect(s).toEqual({
      title: 'Stripe',
      type: 'apikey',
      notes: '',
      url: 'https://stripe.com',
      apikey: { username: 'acct', key: 'sk_live_1' },
    });
  });

  it('gives the app the spec fields as strings and the extras, old and new items alike', () => {
    expect(
      secretDataFromStored({ title: 'Wi-Fi', username: '', password: '', url: '', notes: 'x' }),
    ).toEqual({ title: 'Wi-Fi', username: '', password: '', url: '', notes: 'x', type: 'text' });
    const login = secretDataFromTransfer(every[0]!);
    expect(login).toMatchObject({
      type: 'login',
      username: 'me@example.com',
      password: 'pw',
      url: 'https://mail.example.com',
      urls: ['https://example.com/login'],
      totp: uri,
      fields: every[0]!.customFields,
    });
    // What the app holds is stored JSON too: it reads back as the same item.
    expect(transferFromStored(login)).toEqual(every[0]);
    const key = secretDataFromTransfer(every[5]!);
    expect(key).toMatchObject({ username: '', password: '', apikey: { key: 'sk_live_1' } });
  });
});
