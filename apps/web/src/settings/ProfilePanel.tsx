// Account settings: the full name (PATCH /api/me) and the e-mail address it signs in with.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { api, userMessage } from '@sealvault/protocol';
import { meQueryKey, useProfile } from '../auth/useAccount.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { authClient } from '../auth/authClient.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { useSession } from '../shell/session.tsx';
import { fullNameSchema, type FullNameValues } from '../auth/authSchemas.ts';
import { Panel } from './Panel.tsx';

export function ProfilePanel() {
  const { t } = useTranslation();
  const { user } = useSession();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const current = profile.data?.full_name ?? user.name;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FullNameValues>({
    resolver: zodResolver(fullNameSchema),
    values: { fullName: current },
  });

  const onSubmit = async ({ fullName }: FullNameValues) => {
    try {
      const me = await api.updateMe({ full_name: fullName });
      queryClient.setQueryData(meQueryKey, me);
      reset({ fullName: me.full_name ?? '' });
      // The session's user carries the name too; refresh it for everything that reads it.
      authClient.$store.notify('$sessionSignal');
      toast.success(t('Your name is saved.'));
    } catch (err) {
      setError('root', { message: userMessage(err, t('Could not save your name')) });
    }
  };

  return (
    <Panel
      title={t('Profile')}
      description={t('Your name as SealVault shows it.')}
      icon={<UserRound className="size-5" />}
    >
      <form
        noValidate
        onSubmit={(e) => void handleSubmit(onSubmit)(e)}
        className="grid gap-5 sm:grid-cols-2"
      >
        <Field
          label={t('Full name')}
          error={errors.fullName?.message && t(errors.fullName.message)}
        >
          <input type="text" autoComplete="name" className={inputClass} {...register('fullName')} />
        </Field>
        <Field label={t('Email')} hint={t('The address you sign in with.')}>
          <input
            type="email"
            readOnly
            value={profile.data?.email ?? user.email}
            className={`${inputClass} !bg-slate-100 !text-slate-600 dark:!bg-slate-800/60 dark:!text-slate-400`}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <button
            type="submit"
            disabled={isSubmitting || !isDirty}
            className={buttonClass('primary')}
          >
            {isSubmitting ? t('Saving...') : t('Save name')}
          </button>
          {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
        </div>
      </form>
    </Panel>
  );
}
