// The second step of a sign-in with two-factor: the 6-digit code from the authenticator app, or
// one of the backup codes. Better Auth holds the half-finished sign-in in a short-lived cookie.
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { messages } from '@sealvault/protocol';
import { authClient } from './authClient.ts';
import { authErrorMessage } from './authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import type { TwoFactorValues } from './authSchemas.ts';
import { lazyResolver } from './lazyResolver.ts';
import { useTranslation } from '../i18n/i18n.ts';

// [Note: auth forms without zod at start-up] (lazyResolver.ts).
const resolvers = () => import('./authResolvers.ts');
const authenticatorCodeResolver = lazyResolver(
  async () => (await resolvers()).authenticatorCodeResolver,
);
const backupCodeResolver = lazyResolver(async () => (await resolvers()).backupCodeResolver);

export function TwoFactorForm({
  onCancel,
  offerTrust = true,
}: {
  onCancel: () => void;
  /**
   * 'Trust this device' is offered after a password sign-in only: the server asks a Google
   * sign-in for the code every time (auth.hooks.ts, secondFactorAfterOAuth).
   */
  offerTrust?: boolean;
}) {
  const { t } = useTranslation();
  const [useBackup, setUseBackup] = useState(false);
  // Stays on after a code is accepted, until the session store moves the screen on.
  const [accepted, setAccepted] = useState(false);
  const {
    register,
    handleSubmit,
    getValues,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorValues>({
    // The code comes out without spaces (an app shows '123 456').
    resolver: useBackup ? backupCodeResolver : authenticatorCodeResolver,
    defaultValues: { code: '', trust: false },
  });
  const busy = isSubmitting || accepted;

  const submit = async ({ code, trust }: TwoFactorValues) => {
    try {
      const { error: failure } = useBackup
        ? await authClient.twoFactor.verifyBackupCode({ code, trustDevice: trust })
        : await authClient.twoFactor.verifyTotp({ code, trustDevice: trust });
      // On success the session store refetches and the screen moves on; stay busy until then.
      if (failure)
        setError('root', { message: authErrorMessage(failure, messages.auth.loginFailed) });
      else setAccepted(true);
    } catch {
      setError('root', { message: messages.auth.loginFailed });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(submit)(e)}
      onFocus={authenticatorCodeResolver.preload}
      className="space-y-5"
    >
      {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
      <Field
        key={useBackup ? 'backup' : 'totp'}
        label={useBackup ? t('Backup code') : t('Authentication code')}
        error={errors.code?.message && t(errors.code.message)}
        hint={
          useBackup
            ? t('Each backup code works once.')
            : t('The 6-digit code your authenticator app shows for SealVault.')
        }
      >
        <input
          type="text"
          inputMode={useBackup ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          className={`${inputClass} font-mono tracking-widest`}
          {...register('code')}
        />
      </Field>
      {offerTrust && (
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300 accent-indigo-600"
            {...register('trust')}
          />
          {t('Trust this device for 30 days')}
        </label>
      )}
      <button type="submit" disabled={busy} className={buttonClass('primary', 'lg', 'w-full')}>
        {busy && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
        {busy ? t('Verifying...') : t('Verify')}
      </button>
      <div className="flex justify-between text-sm">
        <button
          type="button"
          onClick={() => {
            setUseBackup((b) => !b);
            reset({ code: '', trust: getValues('trust') });
          }}
          className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {useBackup ? t('Use authenticator code') : t('Use a backup code')}
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="text-slate-600 hover:underline dark:text-slate-400"
        >
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}
