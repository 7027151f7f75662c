// The vault's passkeys (issue 30; docs/product.md "Vault passkeys"), from the vault menu ("Add a
// passkey", "Manage passkeys"): the passkeys that unlock the vault, each with its remove button,
// and the form that adds one (a name, the vault password, then the browser's passkey prompt).
// The password always unlocks the vault too and is not listed: it cannot be removed.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Fingerprint, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CryptoError, MAX_PASSKEY_SLOTS, PASSKEY_NAME_MAX } from '@sealvault/crypto';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { Modal } from '../../components/Modal.tsx';
import { PasswordInput, inputClass } from '../../components/PasswordInput.tsx';
import { buttonClass } from '../../components/buttonStyles.ts';
import { Field, FormMessage } from '../../components/Field.tsx';
import { i18n, msg, useTranslation } from '../../i18n/i18n.ts';
import { useVaultSessions } from '../sessionContext.tsx';
import { vaultKeysQuery } from '../useVaults.ts';
import {
  addPasskey,
  defaultPasskeyName,
  manageTexts,
  passkeySlots,
  removePasskey,
} from './vaultPasskeys.ts';
import { PasskeyError, passkeyTexts, prfSupported } from './webauthn.ts';

// Shown with t(text); added and removed are translated when they are said.
export const passkeysDialogTexts = {
  title: msg('Vault passkeys'),
  intro: msg(
    'A passkey unlocks this vault without its password, on the devices where the passkey is available. The vault password still unlocks it too, and cannot be removed.',
  ),
  none: msg('No passkey unlocks this vault yet.'),
  nameHint: msg('Stored unencrypted: our server can read this name. Do not put a secret in it.'),
  passwordHint: msg('Your vault password confirms the change; it stays on this device.'),
  added: (name: string) => i18n.t('The passkey "{{name}}" now unlocks this vault.', { name }),
  removed: (name: string) =>
    i18n.t('The passkey "{{name}}" no longer unlocks this vault.', { name }),
  removeFailed: msg('The passkey could not be removed. Try again.'),
  addFailed: msg('The passkey could not be added. Try again.'),
} as const;

const addSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, msg('Enter a name for the passkey.'))
    .max(PASSKEY_NAME_MAX, msg('At most {{max}} characters.')) // shown with max: PASSKEY_NAME_MAX
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, msg('The name cannot hold control characters.')),
  password: z.string().min(1, msg('Enter the vault password.')),
});
type AddValues = z.infer<typeof addSchema>;

export function PasskeysDialog({
  vault,
  open,
  onOpenChange,
  userName,
}: {
  vault: Vault;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** The account's e-mail: the passkey's user name in the browser's and device's lists. */
  userName: string;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const sessions = useVaultSessions();
  const [prf, setPrf] = useState<boolean | null>(null);
  // What this dialog last saved, until the page's copy of the vault catches up.
  const [saved, setSaved] = useState<Vault | null>(null);
  const current = saved && saved.key_revision > vault.key_revision ? saved : vault;
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const fresh = () => ({ name: defaultPasskeyName(), password: '' });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: adding },
  } = useForm<AddValues>({ resolver: zodResolver(addSchema), defaultValues: fresh() });

  useEffect(() => {
    if (!open) return;
    let live = true;
    void prfSupported().then((yes) => live && setPrf(yes));
    return () => {
      live = false;
    };
  }, [open]);

  const slots = passkeySlots(current);
  const busy = adding || removing !== null;
  const full = slots.length >= MAX_PASSKEY_SLOTS;

  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      reset(fresh());
      setDone(null);
      setFailed(null);
    }
  };

  const onSaved = async (changed: Vault, text: string) => {
    setSaved(changed);
    setDone(text);
    await qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
  };

  const add = async (f: AddValues) => {
    setDone(null);
    setFailed(null);
    const session = sessions.get(vault.id)?.handle;
    if (!session) {
      setFailed(messages.vaults.notUnlocked);
      return;
    }
    try {
      const changed = await addPasskey(current, session, {
        password: f.password,
        name: f.name,
        userName,
      });
      reset(fresh());
      await onSaved(changed, passkeysDialogTexts.added(f.name));
    } catch (err) {
      if (err instanceof CryptoError && err.code === 'INVALID_PASSWORD')
        setError('password', { message: messages.vaults.invalidPassword }, { shouldFocus: true });
      else if (err instanceof PasskeyError) setFailed(err.message);
      else setFailed(userMessage(err, passkeysDialogTexts.addFailed));
    }
  };

  const remove = async (id: string, name: string) => {
    setDone(null);
    setFailed(null);
    const session = sessions.get(vault.id)?.handle;
    if (!session) {
      setFailed(messages.vaults.notUnlocked);
      return;
    }
    setRemoving(id);
    try {
      await onSaved(await removePasskey(current, session, id), passkeysDialogTexts.removed(name));
    } catch (err) {
      setFailed(userMessage(err, passkeysDialogTexts.removeFailed));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      size="sm"
      closable={!busy}
      title={t(passkeysDialogTexts.title)}
      description={vault.name}
      footer={
        <button
          type="button"
          onClick={() => close(false)}
          disabled={busy}
          className={buttonClass('secondary')}
        >
          {t('Done')}
        </button>
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700 dark:text-slate-300">{t(passkeysDialogTexts.intro)}</p>
        {done && <FormMessage kind="success">{t(done)}</FormMessage>}
        {failed && <FormMessage kind="error">{t(failed)}</FormMessage>}
        {slots.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t(passkeysDialogTexts.none)}
          </p>
        ) : (
          <ul
            aria-label={t('Passkeys that unlock this vault')}
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
          >
            {slots.map((s) => (
              <li key={s.id} className="flex items-center gap-3 px-3 py-2">
                <Fingerprint
                  aria-hidden="true"
                  className="size-4 shrink-0 text-indigo-600 dark:text-indigo-300"
                />
                <span className="min-w-0 flex-1 truncate text-sm text-slate-900 dark:text-slate-100">
                  {s.name}
                </span>
                <button
                  type="button"
                  aria-label={t('Remove passkey {{name}}', { name: s.name ?? '' })}
                  disabled={busy}
                  onClick={() => void remove(s.id, s.name ?? '')}
                  className={buttonClass(
                    'ghost',
                    'md',
                    '!h-8 !px-2 !text-red-700 dark:!text-red-400',
                  )}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                  {removing === s.id ? t('Removing...') : t('Remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        {prf === false ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t(passkeyTexts.noPrf)}</p>
        ) : full ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{manageTexts.full()}</p>
        ) : (
          <form
            id="add-passkey-form"
            noValidate
            aria-label={t('Add a passkey')}
            className="space-y-4 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
            onSubmit={(e) => void handleSubmit(add)(e)}
          >
            <Field
              label={t('Passkey name')}
              error={errors.name?.message && t(errors.name.message, { max: PASSKEY_NAME_MAX })}
              hint={t(passkeysDialogTexts.nameHint)}
            >
              <input
                type="text"
                autoComplete="off"
                maxLength={PASSKEY_NAME_MAX}
                className={inputClass}
                {...register('name')}
              />
            </Field>
            <Field
              label={t('Vault password')}
              error={errors.password?.message && t(errors.password.message)}
              hint={t(passkeysDialogTexts.passwordHint)}
            >
              <PasswordInput autoComplete="current-password" {...register('password')} />
            </Field>
            <button
              type="submit"
              disabled={busy || prf !== true}
              className={buttonClass('primary', 'md', 'w-full')}
            >
              <Fingerprint aria-hidden="true" className="size-4" />
              {adding ? t('Adding the passkey...') : t('Add a passkey')}
            </button>
          </form>
        )}
      </div>
    </Modal>
  );
}
