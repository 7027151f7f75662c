// The page the mailed reset link opens (/auth?step=reset&token=...): a new password and its
// confirmation. The server ends every session of the account on a reset; the user signs in again.
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { authClient } from './authClient.ts';
import { newPasswordToken } from './opaque.ts';
import { authErrorMessage } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { resetPasswordSchema, type ResetPasswordValues } from './authSchemas.ts';

export const INVALID_RESET_LINK =
  'This reset link is invalid or has expired. Please ask for a new one.';
const FAILED = 'Could not reset your password. Please try again.';

export function ResetPasswordForm({
  token,
  linkError,
  onRequestNew,
  onDone,
}: {
  token: string;
  linkError: boolean;
  onRequestNew: () => void;
  onDone: () => void;
}) {
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  if (linkError || !token) {
    return (
      <div className="space-y-5">
        <FormMessage kind="error">{INVALID_RESET_LINK}</FormMessage>
        <button
          type="button"
          onClick={onRequestNew}
          className={buttonClass('primary', 'lg', 'w-full')}
        >
          Send a new link
        </button>
      </div>
    );
  }

  if (done) {
    return (
      <div role="status" className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-emerald-500" />
        <p className="mt-4 font-medium text-slate-900 dark:text-white">Your password is changed</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          You were signed out everywhere. Sign in with your new password.
        </p>
        <button
          type="button"
          onClick={onDone}
          className={buttonClass('primary', 'lg', 'mt-6 w-full')}
        >
          Sign in
        </button>
      </div>
    );
  }

  const onSubmit = async ({ password }: ResetPasswordValues) => {
    setError('');
    try {
      // The new password stays here: the token of its OPAQUE record goes in its place.
      const record = await newPasswordToken(password);
      if ('error' in record) {
        setError(authErrorMessage(record.error, FAILED));
        return;
      }
      const { error: failure } = await authClient.resetPassword({
        newPassword: record.token,
        token,
      });
      if (failure) {
        setError(
          failure.code === 'INVALID_TOKEN' ? INVALID_RESET_LINK : authErrorMessage(failure, FAILED),
        );
      } else setDone(true);
    } catch {
      setError(FAILED);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="space-y-5">
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <Field label="New password" error={errors.password?.message} hint="At least 6 characters">
        <PasswordInput autoComplete="new-password" autoFocus {...register('password')} />
      </Field>
      <Field label="Confirm new password" error={errors.confirmPassword?.message}>
        <PasswordInput
          autoComplete="new-password"
          toggleLabel="password confirmation"
          {...register('confirmPassword')}
        />
      </Field>
      <button
        type="submit"
        disabled={isSubmitting}
        className={buttonClass('primary', 'lg', 'w-full')}
      >
        {isSubmitting && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {isSubmitting ? 'Saving...' : 'Set new password'}
      </button>
    </form>
  );
}
