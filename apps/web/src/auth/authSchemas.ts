// The validation of the account forms (docs/product.md §5, Sign-up): every field required, the password at
// least 6 characters, the confirmation equal to it. Messages are the spec's, from protocol.
import { z } from 'zod';
import { messages } from '@sealvault/protocol';
import { msg } from '../i18n/i18n.ts';

export const MIN_PASSWORD_LENGTH = 6;

/** A required field; `message` is its whole text ('Email is required'), kept whole for translation. */
const required = (message: string) => z.string().trim().min(1, message);

const email = required(msg('Email is required')).pipe(z.email(msg('Enter a valid email address')));

/** A new password: at least 6 characters (docs/product.md §5), at most the server's 128. */
const newPassword = z
  .string()
  .min(1, msg('Password is required'))
  .min(MIN_PASSWORD_LENGTH, messages.auth.signupPasswordTooShort)
  .max(128, msg('Password must be at most 128 characters'));

export const signInSchema = z.object({
  email,
  password: z.string().min(1, msg('Password is required')),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = z
  .object({
    fullName: required(msg('Full name is required')).max(
      100,
      msg('Full name must be at most 100 characters'),
    ),
    email,
    password: newPassword,
    confirmPassword: z.string().min(1, msg('Please confirm your password')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.auth.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type SignUpValues = z.infer<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    password: newPassword,
    confirmPassword: z.string().min(1, msg('Please confirm your password')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.auth.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** A TOTP code is 6 digits (spaces between the groups are dropped). */
export const totpCode = z
  .string()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, msg('Enter the 6-digit code from your authenticator app')));

/** The second step of a sign-in: a code from the authenticator app, or a backup code. */
export const authenticatorCodeSchema = z.object({ code: totpCode, trust: z.boolean() });
export const backupCodeSchema = z.object({
  code: z.string().trim().min(1, msg('Enter one of your backup codes')),
  trust: z.boolean(),
});
export type TwoFactorValues = z.output<typeof backupCodeSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, msg('Current password is required')),
    newPassword,
    confirmPassword: z.string().min(1, msg('Please confirm your password')),
    revokeOtherSessions: z.boolean(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.auth.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

export const fullNameSchema = z.object({
  fullName: required(msg('Full name is required')).max(
    100,
    msg('Full name must be at most 100 characters'),
  ),
});
export type FullNameValues = z.infer<typeof fullNameSchema>;
