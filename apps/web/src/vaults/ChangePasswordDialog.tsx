// Vault password change: the current password, then the new one twice, and whether to rotate the
// vault's keys too (on by default). Without rotation the vault master key stays and only its
// password slot is replaced; with it, a new master key re-encrypts every file key, name and
// secret (manifest/passwordChange.ts, ADR 0007). The dialog says what the first does not protect
// against. Either way the server applies the change only if no other device changed it meanwhile.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { CryptoError } from '@sealvault/crypto';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { VaultPasswordStrength } from '../secrets/StrengthMeter.tsx';
import { Progress } from '../components/Progress.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { cryptoClient } from '../crypto/client.ts';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import {
  changePasswordOnly,
  rotateKeys,
  type RotationProgress,
} from './manifest/passwordChange.ts';
import { useVaultSessions } from './sessionContext.tsx';
import { vaultKeysQuery } from './useVaults.ts';
import { vaultPassword } from './wizard.ts';

const changeSchema = z
  .object({
    current: z.string().min(1, msg('Current password is required')),
    next: vaultPassword,
    confirm: z.string(),
    rotate: z.boolean(),
  })
  .refine((v) => v.next === v.confirm, {
    message: messages.auth.passwordsDoNotMatch,
    path: ['confirm'],
  });
type ChangeValues = z.infer<typeof changeSchema>;
const empty: ChangeValues = { current: '', next: '', confirm: '', rotate: true };

/** What a change without rotation leaves open (issue 18), said before the user chooses. */
export const withoutRotationText = msg(
  'Without rotation the vault key stays the same: anyone who kept a copy of the old key slot (the server, or an old backup) and learns or cracks the old password can still read this vault, including what you add later.',
);
export const withRotationText = msg(
  'A new vault key re-encrypts every file key, file name and secret here in your browser (file contents stay as they are). It can take a moment for a large vault.',
);

/** Shown after a change on a vault with passkeys: they are kept (vault-format.md "Passkey slots"). */
export const passkeysKeptText = msg("The vault's passkeys still unlock it.");

type Done = { rotated: boolean; recoveryKey?: string };

export function ChangePasswordDialog({
  vault,
  open,
  onOpenChange,
}: {
  vault: Vault;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const sessions = useVaultSessions();
  const [done, setDone] = useState<Done | null>(null);
  const [progress, setProgress] = useState<RotationProgress | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting: busy },
  } = useForm<ChangeValues>({ resolver: zodResolver(changeSchema), defaultValues: empty });
  const rotate = useWatch({ control, name: 'rotate' });
  const next = useWatch({ control, name: 'next' });

  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      reset(empty);
      setDone(null);
      setProgress(null);
    }
  };

  const submit = async (f: ChangeValues) => {
    const session = sessions.get(vault.id)?.handle;
    if (!session) {
      setError('root', { message: messages.vaults.notUnlocked });
      return;
    }
    try {
      if (f.rotate) {
        const rotated = await rotateKeys(vault, session, f.current, f.next, setProgress);
        // The new keys become the vault's session; the Workers forget the old ones.
        sessions.start(vault.id, rotated.session);
        void cryptoClient()
          .closeSession(session)
          .catch(() => undefined);
        setDone(
          rotated.recoveryKey
            ? { rotated: true, recoveryKey: rotated.recoveryKey }
            : { rotated: true },
        );
      } else {
        await changePasswordOnly(vault, session, f.current, f.next);
        setDone({ rotated: false });
      }
    } catch (err) {
      setProgress(null);
      if (err instanceof CryptoError && err.code === 'INVALID_PASSWORD')
        setError('current', { message: messages.vaults.invalidPassword }, { shouldFocus: true });
      else setError('root', { message: userMessage(err, messages.vaults.passwordChangeFailed) });
      return;
    }
    await Promise.all([
      qc.invalidateQueries({ queryKey: vaultKeysQuery.all }),
      qc.invalidateQueries({ queryKey: ['files', vault.id] }),
      qc.invalidateQueries({ queryKey: ['secrets', vault.id] }),
    ]);
  };

  const field = (
    id: 'current' | 'next' | 'confirm',
    text: string,
    toggleLabel: string,
    autoComplete: string,
  ) => {
    const error = errors[id]?.message;
    return (
      <Field label={text} error={error && t(error)}>
        <PasswordInput toggleLabel={toggleLabel} autoComplete={autoComplete} {...register(id)} />
      </Field>
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      size="sm"
      closable={!busy}
      title={t('Change vault password')}
      description={vault.name}
      footer={
        done ? (
          <button type="button" onClick={() => close(false)} className={buttonClass('primary')}>
            {t('Done')}
          </button>
        ) : (
          <DialogFooter
            onCancel={() => close(false)}
            submit={rotate ? t('Change password and rotate keys') : t('Change password')}
            busyText={rotate ? t('Rotating keys...') : t('Changing...')}
            busy={busy}
            form="change-password-form"
          />
        )
      }
    >
      {done ? (
        <div role="status" className="space-y-3 text-sm">
          <p className="text-emerald-700 dark:text-emerald-400">
            {done.rotated
              ? t(
                  'The password was changed and the keys were rotated. From now on only the new password unlocks this vault, and an old copy of its key slot opens nothing.',
                )
              : t(
                  'The password was changed. From now on only the new password unlocks this vault.',
                )}
          </p>
          {vault.key.slots.some((s) => s.kind === 'passkey') && (
            <p className="text-slate-700 dark:text-slate-300">{t(passkeysKeptText)}</p>
          )}
          {done.recoveryKey && (
            <p className="text-slate-800 dark:text-slate-200">
              {t('Your new recovery key (the old one no longer works). Keep it somewhere safe:')}
              <code className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono dark:bg-slate-800">
                {done.recoveryKey}
              </code>
            </p>
          )}
        </div>
      ) : (
        <form
          id="change-password-form"
          noValidate
          className="space-y-4"
          onSubmit={(e) => void handleSubmit(submit)(e)}
        >
          {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
          {field('current', t('Current password'), t('current password'), 'current-password')}
          <div>
            {field('next', t('New password'), t('new password'), 'new-password')}
            <VaultPasswordStrength password={next} />
          </div>
          {field('confirm', t('Confirm new password'), t('confirm new password'), 'new-password')}
          <div className="rounded-lg border border-slate-200 px-3 py-2.5 dark:border-slate-700">
            <label className="flex items-start gap-2 text-sm font-medium text-slate-800 dark:text-slate-100">
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-indigo-600"
                aria-describedby="rotate-help"
                {...register('rotate')}
              />
              {t("Rotate the vault's keys too")}
            </label>
            <p id="rotate-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {t(rotate ? withRotationText : withoutRotationText)}
            </p>
          </div>
          {progress && progress.total > 0 && (
            <div role="status" className="text-xs text-slate-600 dark:text-slate-400">
              {t('Re-encrypting {{done}} of {{total}}', {
                done: formatNumber(progress.done),
                total: formatNumber(progress.total),
              })}
              <Progress label={t('Rotating keys')} value={(100 * progress.done) / progress.total} />
            </div>
          )}
        </form>
      )}
    </Modal>
  );
}
