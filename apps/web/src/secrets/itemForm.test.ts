import { describe, expect, it } from 'vitest';
import { dataFromValues, FORM_ERRORS, formSchema, kindOf, valuesOf } from './itemForm.ts';
import { emptyFields } from './model.ts';
import { parseTotp } from './tools/totp.ts';

const errorsOf = (kind: Parameters<typeof formSchema>[0], v: unknown) =>
  formSchema(kind)
    .safeParse(v)
    .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('the add/edit form', () => {
  it('saves a login with further websites, a TOTP key and custom fields', () => {
    const v = {
      ...valuesOf(null),
      title: ' Mail ',
      username: 'me',
      password: 'pw',
      url: 'https://a.example',
      moreUrls: [{ value: ' https://b.example ' }, { value: '' }],
      totp: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      fields: [
        { name: 'PIN', value: '1234', hidden: true },
        { name: '', value: '', hidden: false },
      ],
    };
    const data = dataFromValues('site', v);
    expect(data).toMatchObject({
      title: 'Mail',
      type: 'login',
      url: 'https://a.example',
      urls: ['https://b.example'],
      fields: [{ name: 'PIN', value: '1234', hidden: true }],
    });
    expect(data.totp).toBe(parseTotp('JBSWY3DPEHPK3PXPJBSWY3DP', { label: 'Mail' }).uri);
    // Editing it again shows what was saved.
    const back = valuesOf(data);
    expect(back.moreUrls).toEqual([{ value: 'https://b.example' }]);
    expect(kindOf(data)).toBe('site');
  });

  it('keeps plain text to title and content, and old plain text edits as plain text', () => {
    const v = { ...valuesOf(null), title: 'Wi-Fi', notes: 'x', username: 'stale' };
    expect(dataFromValues('plain', v)).toEqual({
      ...emptyFields,
      title: 'Wi-Fi',
      notes: 'x',
      type: 'text',
    });
    expect(kindOf({ ...emptyFields, title: 'Old', notes: 'y' })).toBe('plain');
  });

  it('checks a card, a TOTP key, an API key, an SSH key and unnamed custom fields', () => {
    const base = valuesOf(null);
    expect(
      errorsOf('card', {
        ...base,
        title: 'Visa',
        card: { ...base.card, number: '41', expMonth: '13', expYear: '26', code: '12345' },
      }),
    ).toEqual([
      `card.number: ${FORM_ERRORS.cardNumber}`,
      `card.expMonth: ${FORM_ERRORS.expMonth}`,
      `card.expYear: ${FORM_ERRORS.expYear}`,
      `card.code: ${FORM_ERRORS.code}`,
    ]);
    expect(
      errorsOf('card', {
        ...base,
        title: 'V',
        card: { ...base.card, number: '4111 1111 1111 1111' },
      }),
    ).toEqual([]);
    expect(errorsOf('site', { ...base, title: 'T', totp: 'not a key!' })).toHaveLength(1);
    expect(errorsOf('apikey', { ...base, title: 'K' })).toEqual([
      `apikey.key: ${FORM_ERRORS.apiKey}`,
    ]);
    expect(errorsOf('ssh', { ...base, title: 'S' })).toEqual([
      `ssh.publicKey: ${FORM_ERRORS.sshKey}`,
    ]);
    expect(
      errorsOf('note', { ...base, title: 'N', fields: [{ name: ' ', value: 'v', hidden: false }] }),
    ).toEqual([`fields.0.name: ${FORM_ERRORS.fieldName}`]);
  });

  it('stores a card number without its spaces, and each type with its own fields', () => {
    const base = valuesOf(null);
    const card = dataFromValues('card', {
      ...base,
      title: 'Visa',
      card: { ...base.card, number: '4111 1111 1111 1111' },
    });
    expect(card.card?.number).toBe('4111111111111111');
    expect(card).not.toHaveProperty('apikey');
    const key = dataFromValues('apikey', {
      ...base,
      title: 'K',
      url: 'https://api.example',
      apikey: { username: 'u', key: 'k' },
    });
    expect(key).toMatchObject({ type: 'apikey', url: 'https://api.example', apikey: { key: 'k' } });
  });
});
