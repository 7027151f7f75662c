// 'Forgot password?': asks for the e-mail address and has the server mail a reset link. The
// answer is the same whether or not the address has an account (no enumeration).
import { Loader2, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { authClient } from './authClient.ts';
import { authErrorMessage } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import type { ForgotPasswordValues } from './authSchemas.ts';
import { lazyResolver } from './lazyResolver.ts';
import { RESET_CALLBACK } from './authQuery.ts';
import { msg, Trans, useTranslation } from '../i18n/i18n.ts';

const FAILED = msg('Could not send the reset email. Please try again.');

// [Note: auth forms without zod at start-up] (lazyResolver.ts).
const resolver = lazyResolver(
  async () => (await import('./authResolvers.ts')).forgotPasswordResolver,
);

export function ForgotPasswordForm({ defaultEmail }: { defaultEmail: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState('');
  const [sentTo, setSentTo] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordValues>({
    resolver,
    defaultValues: { email: defaultEmail },
  });

  const onSubmit = async ({ email }: ForgotPasswordValues) => {
    setError('');
    try {
      const { error: failure } = await authClient.requestPasswordReset({
        email,
        redirectTo: RESET_CALLBACK,
      });
      if (failure) setError(authErrorMessage(failure, FAILED));
      else setSentTo(email);
    } catch {
      setError(FAILED);
    }
  };

  if (sentTo) {
    return (
      <div role="status" className="text-center">
        <MailCheck aria-hidden="true" className="mx-auto size-12 text-indigo-500" />
        <p className="mt-4 font-medium text-slate-900 dark:text-white">{t('Check your email')}</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          <Trans
            i18nKey="If an account exists for <email>{{email}}</email>, a link to choose a new password is on its way. It works for one hour."
            values={{ email: sentTo }}
            components={{ email: <strong className="break-all" /> }}
          />
        </p>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      onFocus={resolver.preload}
      className="space-y-5"
    >
      {error && <FormMessage kind="error">{t(error)}</FormMessage>}
      <Field label={t('Email')} error={errors.email?.message && t(errors.email.message)}>
        <input
          type="email"
          autoComplete="email"
          className={inputClass}
          placeholder={t('you@example.com')}
          {...register('email')}
        />
      </Field>
      <button
        type="submit"
        disabled={isSubmitting}
        className={buttonClass('primary', 'lg', 'w-full')}
      >
        {isSubmitting && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {isSubmitting ? t('Sending...') : t('Send reset link')}
      </button>
    </form>
  );
}
