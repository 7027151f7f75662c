import { describe, expect, it } from 'vitest';
import { emptyFields, isPlainText, matches, plainTextSchema, sitePasswordSchema } from './model.ts';

describe('secret rules', () => {
  it('requires a title for a site password, with the spec message', () => {
    const r = sitePasswordSchema.safeParse({ ...emptyFields, title: '  ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Title is required');
  });

  it('requires a title and content for plain text, with the spec messages', () => {
    const r = plainTextSchema.safeParse({ title: '', notes: '' });
    expect(r.error?.issues.map((i) => i.message)).toEqual([
      'Title is required for plain text secrets',
      'Content is required for plain text secrets',
    ]);
  });

  it('shows a secret with notes but no username or password as plain text', () => {
    expect(isPlainText({ ...emptyFields, title: 'Wi-Fi', notes: 'hunter2' })).toBe(true);
    expect(isPlainText({ ...emptyFields, title: 'Bank', username: 'me', notes: 'x' })).toBe(false);
    expect(isPlainText({ ...emptyFields, title: 'Empty' })).toBe(false);
  });

  it('searches title, username and url case-insensitively, not notes or passwords', () => {
    const s = {
      ...emptyFields,
      title: 'GitHub',
      username: 'Octo@Example.com',
      url: 'https://github.com',
      password: 'zebra',
      notes: 'giraffe',
    };
    expect(matches(s, 'github')).toBe(true);
    expect(matches(s, 'OCTO')).toBe(true);
    expect(matches(s, 'HTTPS://')).toBe(true);
    expect(matches(s, 'zebra')).toBe(false);
    expect(matches(s, 'giraffe')).toBe(false);
    expect(matches(s, '   ')).toBe(true);
  });
});

describe('search over the item types of issue 20', () => {
  it("matches a login's further URLs and an API key's username, not its key", () => {
    const s = { ...emptyFields, title: 'Mail', urls: ['https://webmail.example.org'] };
    expect(matches(s, 'WEBMAIL')).toBe(true);
    const k = { ...emptyFields, title: 'Stripe', apikey: { username: 'acct_9', key: 'sk_1' } };
    expect(matches(k, 'acct_9')).toBe(true);
    expect(matches(k, 'sk_1')).toBe(false);
  });
});
