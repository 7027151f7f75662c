// The Unlock Vault dialog (docs/product.md §2): vault name, password with show/hide, the security notice,
// Cancel and Unlock. The password goes to the crypto Worker only; a wrong one, like any other
// failure to open the key slot, reads 'Invalid password'. Before the vault opens its manifest is
// checked (manifest/vaultManifest.ts): a vault the server tampered with stays locked, and the
// dialog says why. The unlock time is kept on this device only (lastAccessed.ts).
// A vault whose provider needs an account connection that this browser lacks asks for the
// connection first (docs/product.md §2 "Unlock dialog", with the provider's name), instead of the password.
// A vault with passkeys offers "Unlock with a passkey" where the browser has WebAuthn's PRF
// extension (passkeys/webauthn.ts); elsewhere one line says why only the password is offered.
import { zodResolver } from '@hookform/resolvers/zod';
import { CloudOff, Fingerprint, ShieldCheck } from 'lucide-react';
import { useEffect, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { CryptoError } from '@sealvault/crypto';
import { messages, userMessage, vaultsApi, type Vault } from '@sealvault/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field } from '../components/Field.tsx';
import { connectCloud } from '../storage/cloud/connect.ts';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import { needsConnection, providerConnection, providerInfo, useProviderEnv } from './providers.tsx';
import { useVaultSessions } from './sessionContext.tsx';
import { afterUnlock, beginUnlock, prefetchForUnlock } from './earlyUnlock.ts';
import { recordAccess } from './lastAccessed.ts';
import { unlockChecked, VaultIntegrityError } from './manifest/vaultManifest.ts';
import { passkeySlots, unlockCredentials } from './passkeys/vaultPasskeys.ts';
import {
  assertVaultPasskey,
  PasskeyError,
  passkeyTexts,
  prfSupported,
} from './passkeys/webauthn.ts';

/** Said when the passkey's answer does not open the vault's passkey slot. */
export const passkeyRefusedText = msg('This passkey did not unlock the vault. Use the password.');

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
  const [prf, setPrf] = useState<boolean | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const env = useProviderEnv();
  const mustConnect = needsConnection(vault.provider_type, env);
  const hasPasskeys = passkeySlots(vault).length > 0;

  useEffect(() => {
    if (!open) return;
    let live = true;
    void prfSupported().then((yes) => live && setPrf(yes));
    return () => {
      live = false;
    };
  }, [open]);

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

  const unlockWithPasskey = async () => {
    setRefused(null);
    setPasskeyBusy(true);
    const current = await currentVault(); // never throws: the page's copy if it fails
    try {
      const used = await assertVaultPasskey(unlockCredentials(current));
      const prfOutput = new Uint8Array(used.prf);
      used.prf.fill(0);
      sessions.start(
        vault.id,
        await unlockChecked(current, { credentialId: used.credentialId, prf: prfOutput }),
      );
    } catch (err) {
      setPasskeyBusy(false);
      setRefused(
        err instanceof VaultIntegrityError || err instanceof PasskeyError
          ? err.message
          : err instanceof CryptoError
            ? passkeyRefusedText
            : userMessage(err, passkeyTexts.failed),
      );
      return;
    }
    setPasskeyBusy(false);
    unlocked(current);
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

  const working = busy || passkeyBusy;
  const why =
    prf === null ? null : !prf ? passkeyTexts.noPrf : !hasPasskeys ? passkeyTexts.noSlots : null;

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
        {prf && hasPasskeys && (
          <div className="space-y-3">
            <button
              type="button"
              onClick={() => void unlockWithPasskey()}
              disabled={working}
              className={buttonClass('secondary', 'md', 'w-full')}
            >
              <Fingerprint aria-hidden="true" className="size-4" />
              {passkeyBusy ? t('Waiting for the passkey...') : t('Unlock with a passkey')}
            </button>
            <p
              aria-hidden="true"
              className="flex items-center gap-3 text-xs text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200 dark:text-slate-400 dark:before:bg-slate-700 dark:after:bg-slate-700"
            >
              {t('or use the password')}
            </p>
          </div>
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

function ConnectFirst({
  vault,
  open,
  onCancel,
  fallbackFocus,
}: {
  vault: Vault;
  open: boolean;
  onCancel: () => void;
  fallbackFocus?: RefObject<HTMLElement | null> | undefined;
}) {
  const { t } = useTranslation();
  const provider = providerInfo(vault.provider_type).name;
  // The spec's prompt for a vault whose provider account is not connected in this browser.
  const texts = {
    title: t('{{provider}} Not Connected', { provider }),
    prompt: t("You must connect your {{provider}} account to access this vault's files.", {
      provider,
    }),
    required: t('Please connect to {{provider}} to unlock this vault.', { provider }),
  };
  const env = useProviderEnv();
  const id = vault.provider_type as CloudId;
  const status = providerConnection(vault.provider_type, env);
  // Connect right here (the provider's popup) where this server has the provider; otherwise only
  // Settings can say why it cannot be connected.
  const canConnect = status === 'disconnected' || status === 'failed' || status === 'connecting';
  const passing = connections.passing(id);
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      size="sm"
      fallbackFocus={fallbackFocus}
      title={t('Unlock Vault')}
      description={vault.name}
      footer={
        <DialogFooter
          onCancel={onCancel}
          cancelDisabled={false}
          extra={
            <Link
              to="/dashboard?view=settings"
              className={buttonClass(canConnect ? 'secondary' : 'primary')}
            >
              {t('Go to Settings')}
            </Link>
          }
          submit={canConnect ? t('Connect {{provider}}', { provider }) : undefined}
          busyText={t('Connecting...')}
          busy={status === 'connecting'}
          onSubmit={() => void connectCloud(id)}
        />
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700 dark:text-slate-300">{texts.required}</p>
        <section
          aria-labelledby="connect-first-title"
          className="flex gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <CloudOff
            aria-hidden="true"
            className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-300"
          />
          <div>
            <h3 id="connect-first-title" className="font-semibold">
              {texts.title}
            </h3>
            <p className="mt-1 text-sm">{texts.prompt}</p>
          </div>
        </section>
        {passing?.status === 'failed' && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {t(passing.error)}
          </p>
        )}
      </div>
    </Modal>
  );
}
