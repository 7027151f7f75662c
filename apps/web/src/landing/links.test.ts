import { describe, expect, it } from 'vitest';
import { signUpPath } from './links.ts';

describe('signUpPath', () => {
  it('opens /auth in sign-up mode', () => {
    expect(signUpPath()).toBe('/auth?mode=signup');
    expect(signUpPath('   ')).toBe('/auth?mode=signup');
  });

  it('carries the typed e-mail, trimmed and encoded', () => {
    expect(signUpPath(' ada+vault@example.com ')).toBe(
      '/auth?mode=signup&email=ada%2Bvault%40example.com',
    );
  });
});
