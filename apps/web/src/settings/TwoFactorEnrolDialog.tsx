// Turning on two-factor sign-in, in three steps: confirm the password (Better Auth's
// two-factor/enable answers with the otpauth URI and backup codes), scan the QR code or type the
// secret and confirm with a code (verify-totp switches it on), then keep the backup codes, which
// are shown this once.
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy } from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { authClient } from '../auth/authClient.ts';
import { passwordProof } from '../auth/opaque.ts';
import { authErrorMessage } from '../auth/authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { totpCode } from '../auth/authSchemas.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { groupSecret, totpSecretFromUri } from './totp.ts';

type Step =
  | { name: 'password' }
  | { name: 'scan'; uri: string; backupCodes: string[] }
  | { name: 'codes'; backupCodes: string[] };

const passwordStep = z.object({ value: z.string().min(1, msg('Enter your password')) });
const codeStep = z.object({ value: totpCode });
type StepValues = z.input<typeof passwordStep>;

export function TwoFactorEnrolDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ name: 'password' });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: busy },
  } = useForm<StepValues>({
    // The code step's value comes out without the spaces an app shows between digit groups.
    resolver: zodResolver(step.name === 'password' ? passwordStep : codeStep),
    defaultValues: { value: '' },
  });

  // Each step starts with an empty field, as if never submitted (checked on submit, not at the
  // first keystroke of a code).
  useEffect(() => reset(), [step.name, reset]);

  const close = () => {
    setStep({ name: 'password' });
    reset();
    onClose();
  };

  const submit = async ({ value }: StepValues) => {
    if (step.name === 'password') {
      // A ticket of an OPAQUE login stands in for the password (auth/opaque.ts).
      const proof = await passwordProof(value).catch(() => ({ error: { message: '' } }));
      if ('error' in proof) {
        setError('root', { message: authErrorMessage(proof.error, t('Could not start set-up')) });
        return;
      }
      const { data, error: failure } = await authClient.twoFactor
        .enable({ password: proof.password, method: 'totp' })
        .catch(() => ({ data: null, error: { message: '' } }));
      if (failure || !data || data.method !== 'totp') {
        setError('root', { message: authErrorMessage(failure, t('Could not start set-up')) });
        return;
      }
      setStep({ name: 'scan', uri: data.totpURI, backupCodes: data.backupCodes });
    } else if (step.name === 'scan') {
      const { error: failure } = await authClient.twoFactor
        .verifyTotp({ code: value })
        .catch(() => ({ error: { message: '' } }));
      if (failure) {
        setError('root', { message: authErrorMessage(failure, t('That code did not work')) });
        return;
      }
      setStep({ name: 'codes', backupCodes: step.backupCodes });
    }
  };

  const footer =
    step.name === 'codes' ? (
      <button type="button" onClick={close} className={buttonClass('primary')}>
        {t('I have saved my backup codes')}
      </button>
    ) : (
      <DialogFooter
        onCancel={close}
        submit={step.name === 'password' ? t('Continue') : t('Turn on')}
        busyText={t('Checking...')}
        busy={busy}
        form="twofactor-enrol"
      />
    );

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && close()}
      title={t('Turn on two-factor sign-in')}
      description={
        step.name === 'password'
          ? t('Confirm your password to begin.')
          : step.name === 'scan'
            ? t('Scan the QR code with an authenticator app, then enter the code it shows.')
            : t('Two-factor sign-in is on. Keep these backup codes somewhere safe.')
      }
      footer={footer}
      closable={step.name !== 'codes'}
    >
      {step.name === 'codes' ? (
        <BackupCodes codes={step.backupCodes} />
      ) : (
        <form
          id="twofactor-enrol"
          noValidate
          onSubmit={(e) => void handleSubmit(submit)(e)}
          className="space-y-5"
        >
          {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
          {step.name === 'scan' && <QrAndSecret uri={step.uri} />}
          {step.name === 'password' ? (
            <Field
              key="password"
              label={t('Password')}
              error={errors.value?.message && t(errors.value.message)}
            >
              <PasswordInput autoComplete="current-password" autoFocus {...register('value')} />
            </Field>
          ) : (
            <Field
              key="code"
              label={t('Code from the app')}
              error={errors.value?.message && t(errors.value.message)}
            >
              <input
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                autoFocus
                className={`${inputClass} font-mono tracking-widest`}
                {...register('value')}
              />
            </Field>
          )}
        </form>
      )}
    </Modal>
  );
}

function QrAndSecret({ uri }: { uri: string }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(uri, { margin: 1, width: 192 }).then(
      (url) => live && setQr(url),
      () => live && setQr(''),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  const secret = totpSecretFromUri(uri);
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <div className="flex size-48 shrink-0 items-center justify-center rounded-xl border border-slate-200 bg-white p-2 dark:border-slate-700">
        {qr ? (
          <img src={qr} alt={t('QR code for your authenticator app')} className="size-full" />
        ) : (
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {t('Drawing QR code…')}
          </span>
        )}
      </div>
      <div className="min-w-0 text-sm text-slate-600 dark:text-slate-400">
        <p>{t("Can't scan it? Enter this key in the app instead:")}</p>
        <p
          data-testid="totp-secret"
          className="mt-2 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900 select-all dark:bg-slate-800 dark:text-white"
        >
          {groupSecret(secret)}
        </p>
      </div>
    </div>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast.success(t('Backup codes copied.')),
      () => toast.error(t('Copying was refused by the browser.')),
    );
  };
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t('Each code signs you in once if you lose your authenticator. They are not shown again.')}
      </p>
      <ul
        aria-label={t('Backup codes')}
        className="mt-4 grid grid-cols-2 gap-2 rounded-xl bg-slate-100 p-4 font-mono text-sm text-slate-900 dark:bg-slate-800 dark:text-white"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" onClick={copy} className={buttonClass('secondary', 'md', 'mt-4')}>
        <Copy aria-hidden="true" className="size-4" /> {t('Copy codes')}
      </button>
    </div>
  );
}
