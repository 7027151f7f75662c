// The resolvers of /auth's forms, loaded when a form first validates (lazyResolver.ts,
// [Note: auth forms without zod at start-up]): the only module of the screen that brings zod.
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import {
  authenticatorCodeSchema,
  backupCodeSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  type ForgotPasswordValues,
  type ResetPasswordValues,
  type SignInValues,
  type SignUpValues,
  type TwoFactorValues,
} from './authSchemas.ts';

export const signInResolver: Resolver<SignInValues> = zodResolver(signInSchema);
export const signUpResolver: Resolver<SignUpValues> = zodResolver(signUpSchema);
export const forgotPasswordResolver: Resolver<ForgotPasswordValues> =
  zodResolver(forgotPasswordSchema);
export const resetPasswordResolver: Resolver<ResetPasswordValues> =
  zodResolver(resetPasswordSchema);
// The code comes out without spaces (an app shows '123 456').
export const authenticatorCodeResolver: Resolver<TwoFactorValues> =
  zodResolver(authenticatorCodeSchema);
export const backupCodeResolver: Resolver<TwoFactorValues> = zodResolver(backupCodeSchema);
