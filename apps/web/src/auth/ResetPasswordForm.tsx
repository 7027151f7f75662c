// The page the mailed reset link opens (/auth?step=reset&token=...): a new password and its
// confirmation. The server ends every session of the account on a reset; the user signs in again.
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { authClient } from './authClient.ts';
import { authErrorMessage } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import type { ResetPasswordValues } from './authSchemas.ts';
import { lazyResolver } from './lazyResolver.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

export const INVALID_RESET_LINK = msg(
  'This reset link is invalid or has expired. Please ask for a new one.',
);
const FAILED = msg('Could not reset your password. Please try again.');

// [Note: auth forms without zod at start-up] (lazyResolver.ts).
// The schema and the OPAQUE registration load when used.
const resolver = lazyResolver(
  async () => (await import('./authResolvers.ts')).resetPasswordResolver,
);
/** Loads what a submit needs while the user types. */
const warmUp = () => {
  resolver.preload();
  import('./opaque.ts').catch(() => {}); // the submit loads it again and reports a failure
};

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
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver,
    defaultValues: { password: '', confirmPassword: '' },
  });

  if (linkError || !token) {
    return (
      <div className="space-y-5">
        <FormMessage kind="error">{t(INVALID_RESET_LINK)}</FormMessage>
        <button
          type="button"
          onClick={onRequestNew}
          className={buttonClass('primary', 'lg', 'w-full')}
        >
          {t('Send a new link')}
        </button>
      </div>
    );
  }

  if (done) {
    return (
      <div role="status" className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-emerald-500" />
        <p className="mt-4 font-medium text-slate-900 dark:text-white">
          {t('Your password is changed')}
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {t('You were signed out everywhere. Sign in with your new password.')}
        </p>
        <button
          type="button"
          onClick={onDone}
          className={buttonClass('primary', 'lg', 'mt-6 w-full')}
        >
          {t('Sign in')}
        </button>
      </div>
    );
  }

  const onSubmit = async ({ password }: ResetPasswordValues) => {
    setError('');
    try {
      // The new password stays here: the token of its OPAQUE record goes in its place.
      const { newPasswordToken } = await import('./opaque.ts');
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
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      onFocus={warmUp}
      className="space-y-5"
    >
      {error && <FormMessage kind="error">{t(error)}</FormMessage>}
      <Field
        label={t('New password')}
        error={errors.password?.message && t(errors.password.message)}
        hint={t('At least 6 characters')}
      >
        <PasswordInput autoComplete="new-password" autoFocus {...register('password')} />
      </Field>
      <Field
        label={t('Confirm new password')}
        error={errors.confirmPassword?.message && t(errors.confirmPassword.message)}
      >
        <PasswordInput
          autoComplete="new-password"
          toggleLabel={t('password confirmation')}
          {...register('confirmPassword')}
        />
      </Field>
      <button
        type="submit"
        disabled={isSubmitting}
        className={buttonClass('primary', 'lg', 'w-full')}
      >
        {isSubmitting && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {isSubmitting ? t('Saving...') : t('Set new password')}
      </button>
    </form>
  );
}
