// The Unlock Vault dialog's passkey branch (issue 30; UnlockDialog.tsx): "Unlock with a passkey"
// where the browser has WebAuthn's PRF extension (passkeys/webauthn.ts) and the vault a passkey
// slot, and otherwise one line saying why only the password is offered. The PRF output goes to the
// crypto Worker only, and the page's copy is wiped once handed over. The vault opens through the
// same manifest check as with the password (manifest/vaultManifest.ts).
import { Fingerprint } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CryptoError } from '@sealvault/crypto';
import { userMessage, type Vault } from '@sealvault/protocol';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { useVaultSessions } from './sessionContext.tsx';
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

/**
 * The passkey unlock of the dialog: whether it is offered (`prf && hasPasskeys`), why not
 * (`why`), whether it is under way (`passkeyBusy`), and the unlock itself.
 */
export function usePasskeyUnlock({
  vault,
  open,
  currentVault,
  setRefused,
  unlocked,
}: {
  vault: Vault;
  open: boolean;
  /** The vault's record as stored now; never throws (the page's copy if it fails). */
  currentVault: () => Promise<Vault>;
  /** Shows (or with null clears) the dialog's refusal. */
  setRefused: (text: string | null) => void;
  /** Called once the vault is open, with the record the unlock used. */
  unlocked: (current: Vault) => void;
}) {
  const sessions = useVaultSessions();
  const [prf, setPrf] = useState<boolean | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const hasPasskeys = passkeySlots(vault).length > 0;

  useEffect(() => {
    if (!open) return;
    let live = true;
    void prfSupported().then((yes) => live && setPrf(yes));
    return () => {
      live = false;
    };
  }, [open]);

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

  const why =
    prf === null ? null : !prf ? passkeyTexts.noPrf : !hasPasskeys ? passkeyTexts.noSlots : null;

  return { offered: prf === true && hasPasskeys, why, passkeyBusy, unlockWithPasskey };
}

/** "Unlock with a passkey" above the password field, and the line between them. */
export function PasskeyChoice({
  working,
  passkeyBusy,
  onUnlock,
}: {
  working: boolean;
  passkeyBusy: boolean;
  onUnlock: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-3">
      <button
        type="button"
        onClick={onUnlock}
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
  );
}
