import { describe, expect, it } from 'vitest';
import {
  changePasswordSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  totpCode,
} from './authSchemas.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

const signUp = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('sign-up validation (spec §5)', () => {
  it('accepts a complete form', () => {
    expect(signUpSchema.safeParse(signUp).success).toBe(true);
  });

  it('requires every field', () => {
    const r = signUpSchema.safeParse({
      fullName: ' ',
      email: '',
      password: '',
      confirmPassword: '',
    });
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path[0]);
    expect(paths).toEqual(
      expect.arrayContaining(['fullName', 'email', 'password', 'confirmPassword']),
    );
  });

  it('says the passwords do not match', () => {
    const r = signUpSchema.safeParse({ ...signUp, confirmPassword: 'secret2' });
    expect(firstMessage(r)).toBe('Passwords do not match');
    expect(r.error?.issues[0]?.path).toEqual(['confirmPassword']);
  });

  it('wants at least 6 characters', () => {
    const r = signUpSchema.safeParse({ ...signUp, password: '12345', confirmPassword: '12345' });
    expect(firstMessage(r)).toBe('Password must be at least 6 characters');
    expect(
      signUpSchema.safeParse({ ...signUp, password: '123456', confirmPassword: '123456' }).success,
    ).toBe(true);
  });

  it('rejects an address that is not an e-mail', () => {
    expect(firstMessage(signUpSchema.safeParse({ ...signUp, email: 'ada' }))).toBe(
      'Enter a valid email address',
    );
  });
});

describe('sign-in validation', () => {
  it('requires both fields but no minimum length', () => {
    expect(signInSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(firstMessage(signInSchema.safeParse({ email: 'a@b.co', password: '' }))).toBe(
      'Password is required',
    );
  });
});

describe('new passwords elsewhere', () => {
  it('applies the same rules to a reset', () => {
    expect(
      firstMessage(resetPasswordSchema.safeParse({ password: 'abc', confirmPassword: 'abc' })),
    ).toBe('Password must be at least 6 characters');
    expect(
      firstMessage(
        resetPasswordSchema.safeParse({ password: 'abcdef', confirmPassword: 'abcdeg' }),
      ),
    ).toBe('Passwords do not match');
  });

  it('applies them to a change of password', () => {
    const r = changePasswordSchema.safeParse({
      currentPassword: 'old-one',
      newPassword: 'new-one',
      confirmPassword: 'new-two',
      revokeOtherSessions: true,
    });
    expect(firstMessage(r)).toBe('Passwords do not match');
  });
});

describe('TOTP code', () => {
  it('takes 6 digits, ignoring spaces', () => {
    expect(totpCode.parse('123 456')).toBe('123456');
    expect(totpCode.safeParse('12345').success).toBe(false);
    expect(totpCode.safeParse('abcdef').success).toBe(false);
  });
});
