// Account settings: change the password (current, new, confirmation), optionally signing out
// every other session. A Google-only account has no password to change.
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { authClient } from '../auth/authClient.ts';
import { newPasswordToken, passwordProof } from '../auth/opaque.ts';
import { authErrorMessage } from '../auth/authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { changePasswordSchema, type ChangePasswordValues } from '../auth/authSchemas.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { Panel } from './Panel.tsx';

const FAILED = msg('Could not change your password');
const empty: ChangePasswordValues = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
  revokeOtherSessions: true,
};

export function PasswordPanel({ hasPassword }: { hasPassword: boolean | undefined }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: empty,
  });

  const onSubmit = async (v: ChangePasswordValues) => {
    try {
      // Neither password leaves the browser: a ticket proves the current one, and the token of
      // the new one's OPAQUE record replaces it (auth/opaque.ts).
      const proof = await passwordProof(v.currentPassword);
      const record = 'error' in proof ? proof : await newPasswordToken(v.newPassword);
      if ('error' in record) {
        setError('root', { message: authErrorMessage(record.error, t(FAILED)) });
        return;
      }
      const { error } = await authClient.changePassword({
        currentPassword: 'error' in proof ? '' : proof.password,
        newPassword: record.token,
        revokeOtherSessions: v.revokeOtherSessions,
      });
      if (error) {
        setError('root', { message: authErrorMessage(error, t(FAILED)) });
        return;
      }
      reset(empty);
      toast.success(
        v.revokeOtherSessions
          ? t('Your password is changed and your other sessions are signed out.')
          : t('Your password is changed.'),
      );
    } catch {
      setError('root', { message: t(FAILED) });
    }
  };

  return (
    <Panel
      title={t('Password')}
      description={t(
        'Your account password. It is not a vault password: each vault keeps its own.',
      )}
      icon={<KeyRound className="size-5" />}
    >
      {hasPassword === false ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t(
            'You sign in with Google, so this account has no password. To add one, sign out and use \u2018Forgot password?\u2019 on the sign-in page.',
          )}
        </p>
      ) : (
        <form
          noValidate
          onSubmit={(e) => void handleSubmit(onSubmit)(e)}
          className="grid gap-5 sm:grid-cols-2"
        >
          <div className="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]">
            <Field
              label={t('Current password')}
              error={errors.currentPassword?.message && t(errors.currentPassword.message)}
            >
              <PasswordInput autoComplete="current-password" {...register('currentPassword')} />
            </Field>
          </div>
          <Field
            label={t('New password')}
            error={errors.newPassword?.message && t(errors.newPassword.message)}
            hint={t('At least 6 characters')}
          >
            <PasswordInput autoComplete="new-password" {...register('newPassword')} />
          </Field>
          <Field
            label={t('Confirm new password')}
            error={errors.confirmPassword?.message && t(errors.confirmPassword.message)}
          >
            <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
          </Field>
          <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2 dark:text-slate-300">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300 accent-indigo-600"
              {...register('revokeOtherSessions')}
            />
            {t('Sign out of all other sessions')}
          </label>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <button type="submit" disabled={isSubmitting} className={buttonClass('primary')}>
              {isSubmitting ? t('Changing...') : t('Change password')}
            </button>
            {errors.root?.message && (
              <FormMessage kind="error">{t(errors.root.message)}</FormMessage>
            )}
          </div>
        </form>
      )}
    </Panel>
  );
}
