// The Unlock Vault dialog (docs/product.md §2): vault name, password with show/hide, the security notice,
// Cancel and Unlock. The password goes to the crypto Worker only; a wrong one, like any other
// failure to open the key slot, reads 'Invalid password'. Before the vault opens its manifest is
// checked (manifest/vaultManifest.ts): a vault the server tampered with stays locked, and the
// dialog says why. The unlock time is kept on this device only (lastAccessed.ts).
// A vault whose provider needs an account connection that this browser lacks asks for the
// connection first (docs/product.md §2 "Unlock dialog", with the provider's name), instead of the
// password (UnlockDialogConnect.tsx).
// A vault with passkeys offers "Unlock with a passkey" where the browser has WebAuthn's PRF
// extension; elsewhere one line says why only the password is offered (UnlockDialogPasskey.tsx).
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CryptoError } from '@sealvault/crypto';
import { messages, userMessage, vaultsApi, type Vault } from '@sealvault/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field } from '../components/Field.tsx';
import { needsConnection, useProviderEnv } from './providers.tsx';
import { useVaultSessions } from './sessionContext.tsx';
import { afterUnlock, beginUnlock, prefetchForUnlock } from './earlyUnlock.ts';
import { recordAccess } from './lastAccessed.ts';
import { unlockChecked, VaultIntegrityError } from './manifest/vaultManifest.ts';
import { ConnectFirst } from './UnlockDialogConnect.tsx';
import { PasskeyChoice, usePasskeyUnlock } from './UnlockDialogPasskey.tsx';

export { passkeyRefusedText } from './UnlockDialogPasskey.tsx';

const unlockSchema = z.object({ password: z.string().min(1, msg('Enter the vault password.')) });
type UnlockValues = z.infer<typeof unlockSchema>;

export function UnlockDialog({
  vault,
  open,
  onCancel,
  notice,
  fallbackFocus,
}: {
  vault: Vault;
  open: boolean;
  onCancel: () => void;
  /** Shown above the field, e.g. that the session expired. */
  notice?: string | undefined;
  /** Gets the focus once unlocked, when what opened the dialog is not on this page. */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const sessions = useVaultSessions();
  const qc = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: busy },
  } = useForm<UnlockValues>({
    resolver: zodResolver(unlockSchema),
    defaultValues: { password: '' },
  });
  const [refused, setRefused] = useState<string | null>(null);
  const env = useProviderEnv();
  const mustConnect = needsConnection(vault.provider_type, env);

  // The key as stored now: this page's copy is stale after a password change or a rotation on
  // another device (manifest/keyRevision.ts), and its old slots would refuse the password.
  const currentVault = () =>
    vaultsApi.get(vault.id).then(
      (r) => r.vault,
      () => vault,
    );

  // The page holds the record the unlock used; the first unlock of an older vault re-seals its
  // slot, and the new key is read again (earlyUnlock.ts, afterUnlock).
  const unlocked = (current: Vault) => {
    reset();
    recordAccess(vault.id);
    afterUnlock(qc, current);
  };

  const passkey = usePasskeyUnlock({ vault, open, currentVault, setRefused, unlocked });

  // While the password is typed and the key derived, fetch the vault's (encrypted) secrets or
  // file records; meanwhile the crypto Worker starts, so pressing Unlock only pays for the key
  // derivation (earlyUnlock.ts).
  useEffect(() => {
    if (!open || mustConnect) return;
    prefetchForUnlock(qc, {
      id: vault.id,
      vault_type: vault.vault_type,
      provider_type: vault.provider_type,
    });
  }, [open, mustConnect, qc, vault.id, vault.vault_type, vault.provider_type]);

  if (mustConnect) {
    return (
      <ConnectFirst vault={vault} open={open} onCancel={onCancel} fallbackFocus={fallbackFocus} />
    );
  }

  // A password typed and then abandoned is not kept for the next time the dialog opens.
  const cancel = () => {
    reset();
    setRefused(null);
    onCancel();
  };

  const unlock = async ({ password }: UnlockValues) => {
    setRefused(null);
    // The manifest is fetched beside the vault's own record, once ([Note: manifest at unlock]),
    // and the key derived meanwhile (earlyUnlock.ts); the records are opened as soon as the key is.
    const early = beginUnlock(vault, password);
    const current = await currentVault();
    try {
      sessions.start(vault.id, await unlockChecked(current, password, early.options(current)));
    } catch (err) {
      early.failed();
      if (err instanceof VaultIntegrityError) setRefused(err.message);
      else
        setError(
          'password',
          {
            message:
              err instanceof CryptoError
                ? messages.vaults.invalidPassword
                : userMessage(err, messages.vaults.invalidPassword),
          },
          { shouldFocus: true },
        );
      return;
    }
    unlocked(current);
  };

  const { passkeyBusy, why } = passkey;
  const working = busy || passkeyBusy;

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && cancel()}
      size="sm"
      closable={!working}
      fallbackFocus={fallbackFocus}
      title={t('Unlock Vault')}
      description={vault.name}
      footer={
        <DialogFooter
          onCancel={cancel}
          submit={t('Unlock')}
          busyText={t('Unlocking...')}
          busy={busy}
          submitDisabled={passkeyBusy}
          cancelDisabled={working}
          form="unlock-form"
        />
      }
    >
      <form
        id="unlock-form"
        noValidate
        onSubmit={(e) => void handleSubmit(unlock)(e)}
        className="space-y-4"
      >
        {notice && (
          <p
            role="status"
            className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
          >
            {notice}
          </p>
        )}
        {refused && (
          <p
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900/60 dark:bg-red-950/50 dark:text-red-200"
          >
            {t(refused)}
          </p>
        )}
        {passkey.offered && (
          <PasskeyChoice
            working={working}
            passkeyBusy={passkeyBusy}
            onUnlock={() => void passkey.unlockWithPasskey()}
          />
        )}
        <Field
          label={t('Vault password')}
          error={errors.password?.message && t(errors.password.message)}
        >
          <PasswordInput autoFocus autoComplete="current-password" {...register('password')} />
        </Field>
        {why && <p className="text-xs text-slate-600 dark:text-slate-400">{t(why)}</p>}
        <p className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
          <ShieldCheck
            aria-hidden="true"
            className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
          />
          {t(
            'Your password decrypts this vault here, on this device. It is never sent to our server, and we never see it.',
          )}
        </p>
      </form>
    </Modal>
  );
}
