import { describe, expect, it } from 'vitest';
import { emptyCard, fromSecretFields, toSecretFields, type TransferItem } from './model.ts';

describe('TransferItem and the current secret fields', () => {
  it('maps a site password and a plain text both ways unchanged', () => {
    const site = {
      title: 'GitHub',
      username: 'octo',
      password: 'pw',
      url: 'https://github.com',
      notes: 'n',
    };
    const text = { title: 'Wi-Fi', username: '', password: '', url: '', notes: 'key' };
    expect(fromSecretFields(site)).toMatchObject({ type: 'login', urls: ['https://github.com'] });
    expect(fromSecretFields(text).type).toBe('text');
    expect(toSecretFields(fromSecretFields(site))).toEqual(site);
    expect(toSecretFields(fromSecretFields(text))).toEqual(text);
  });

  it('folds what the current secret has no field for into the notes', () => {
    const item: TransferItem = {
      title: 'Mail',
      notes: 'my note',
      urls: ['https://a.example', 'https://b.example'],
      totp: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
      customFields: [{ name: 'PIN', value: '0420', hidden: true }],
      type: 'login',
      login: { username: 'u', password: 'p' },
    };
    expect(toSecretFields(item)).toEqual({
      title: 'Mail',
      username: 'u',
      password: 'p',
      url: 'https://a.example',
      notes:
        'my note\n\nURL: https://b.example\nTOTP: otpauth://totp/x?secret=JBSWY3DPEHPK3PXP\nPIN: 0420',
    });
    const card: TransferItem = {
      title: 'Visa',
      notes: '',
      urls: [],
      customFields: [],
      type: 'card',
      card: { ...emptyCard(), number: '4111', expMonth: '7', expYear: '2031' },
    };
    expect(toSecretFields(card)).toMatchObject({
      username: '',
      password: '',
      notes: 'Number: 4111\nExpires: 07/2031',
    });
  });
});
