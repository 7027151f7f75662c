// Account settings: two-factor sign-in with an authenticator app (TOTP). Turning it on runs the
// enrolment dialog; turning it off asks for the password again.
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { authClient } from '../auth/authClient.ts';
import { passwordProof } from '../auth/opaque.ts';
import { authErrorMessage } from '../auth/authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { msg, Trans, useTranslation } from '../i18n/i18n.ts';
import { useSession } from '../shell/session.tsx';
import { Panel } from './Panel.tsx';
import { TwoFactorEnrolDialog } from './TwoFactorEnrolDialog.tsx';

export function TwoFactorPanel({ hasPassword }: { hasPassword: boolean | undefined }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const enabled = user.twoFactorEnabled === true;
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);

  return (
    <Panel
      title={t('Two-factor authentication')}
      description={t('Ask for a code from an authenticator app each time you sign in.')}
      icon={<ShieldCheck className="size-5" />}
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <p className="flex items-center gap-2 text-sm">
          <span
            aria-hidden="true"
            className={`size-2 rounded-full ${enabled ? 'bg-emerald-500' : 'bg-slate-400'}`}
          />
          <span className="text-slate-700 dark:text-slate-300">
            {enabled ? (
              <Trans
                i18nKey="Two-factor sign-in is <strong>on</strong>"
                components={{ strong: <strong /> }}
              />
            ) : (
              <Trans
                i18nKey="Two-factor sign-in is <strong>off</strong>"
                components={{ strong: <strong /> }}
              />
            )}
          </span>
        </p>
        {hasPassword === false ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t('Your Google account protects your sign-in.')}
          </p>
        ) : enabled ? (
          <button
            type="button"
            onClick={() => setDisabling(true)}
            className={buttonClass('secondary')}
          >
            {t('Turn off')}
          </button>
        ) : (
          <button type="button" onClick={() => setEnrolling(true)} className={buttonClass()}>
            {t('Turn on two-factor')}
          </button>
        )}
      </div>
      <TwoFactorEnrolDialog open={enrolling} onClose={() => setEnrolling(false)} />
      <DisableDialog open={disabling} onClose={() => setDisabling(false)} />
    </Panel>
  );
}

const disableSchema = z.object({ password: z.string().min(1, msg('Enter your password')) });
type DisableValues = z.infer<typeof disableSchema>;

function DisableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: busy },
  } = useForm<DisableValues>({
    resolver: zodResolver(disableSchema),
    defaultValues: { password: '' },
  });
  const close = () => {
    reset();
    onClose();
  };
  const submit = async ({ password }: DisableValues) => {
    // A ticket of an OPAQUE login stands in for the password (auth/opaque.ts).
    const proof = await passwordProof(password).catch(() => ({ error: { message: '' } }));
    const { error: failure } =
      'error' in proof
        ? proof
        : await authClient.twoFactor
            .disable({ password: proof.password })
            .catch(() => ({ error: { message: '' } }));
    if (failure)
      setError('root', {
        message: authErrorMessage(failure, t('Could not turn off two-factor sign-in')),
      });
    else close();
  };
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && close()}
      size="sm"
      title={t('Turn off two-factor sign-in')}
      description={t('Confirm your password. Your backup codes stop working.')}
      footer={
        <DialogFooter
          onCancel={close}
          submit={t('Turn off')}
          busyText={t('Turning off...')}
          busy={busy}
          form="twofactor-disable"
        />
      }
    >
      <form
        id="twofactor-disable"
        noValidate
        onSubmit={(e) => void handleSubmit(submit)(e)}
        className="space-y-4"
      >
        {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
        <Field label={t('Password')} error={errors.password?.message && t(errors.password.message)}>
          <PasswordInput autoComplete="current-password" autoFocus {...register('password')} />
        </Field>
      </form>
    </Modal>
  );
}
