// The Unlock Vault dialog (spec §2): vault name, password with show/hide, the security notice,
// Cancel and Unlock. The password goes to the crypto Worker only; a wrong one, like any other
// failure to open the key slot, reads 'Invalid password'. Unlocking records last_accessed.
import { ShieldCheck } from 'lucide-react';
import { useEffect, useState, type RefObject } from 'react';
import { messages, vaultsApi, type Vault } from '@sealvault/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { warmUpCrypto } from '../crypto/client.ts';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { useVaultSessions } from './sessionContext.tsx';
import { vaultKeysQuery } from './useVaults.ts';
import { prefetchSecretRecords } from '../secrets/useSecrets.ts';

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
  const sessions = useVaultSessions();
  const qc = useQueryClient();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // While the password is typed and the key derived, fetch the vault's (encrypted) secrets.
  // Meanwhile the crypto Worker starts, so pressing Unlock only pays for the key derivation.
  useEffect(() => {
    if (!open) return;
    warmUpCrypto();
    if (vault.vault_type === 'secrets') void prefetchSecretRecords(qc, vault.id);
  }, [open, qc, vault.id, vault.vault_type]);

  const unlock = async () => {
    if (password === '') return setError('Enter the vault password.');
    setBusy(true);
    setError(null);
    try {
      await vaultKeys.unlock(vault.id, vault.key, password);
    } catch {
      setBusy(false);
      return setError(messages.vaults.invalidPassword);
    }
    sessions.start(vault.id);
    setPassword('');
    setBusy(false);
    // Best effort: the vault is open whether or not the date could be recorded.
    vaultsApi.markAccessed(vault.id).then(
      () => qc.invalidateQueries({ queryKey: vaultKeysQuery.all }),
      () => undefined,
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      size="sm"
      closable={!busy}
      fallbackFocus={fallbackFocus}
      title="Unlock Vault"
      description={vault.name}
      footer={
        <>
          <button
            type="button"
            onClick={onCancel}
            disabled={busy}
            className={buttonClass('secondary')}
          >
            Cancel
          </button>
          <button
            type="submit"
            form="unlock-form"
            disabled={busy}
            className={buttonClass('primary')}
          >
            {busy ? 'Unlocking...' : 'Unlock'}
          </button>
        </>
      }
    >
      <form
        id="unlock-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void unlock();
        }}
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
        <div>
          <label
            htmlFor="unlock-password"
            className="mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Vault password
          </label>
          <PasswordInput
            id="unlock-password"
            autoFocus
            required
            autoComplete="current-password"
            value={password}
            aria-invalid={error !== null}
            aria-describedby={error ? 'unlock-error' : undefined}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
          {error && (
            <p
              id="unlock-error"
              role="alert"
              className="mt-2 text-sm font-medium text-red-700 dark:text-red-400"
            >
              {error}
            </p>
          )}
        </div>
        <p className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
          <ShieldCheck
            aria-hidden="true"
            className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
          />
          Your password decrypts this vault here, on this device. It is never sent to our server,
          and we never see it.
        </p>
      </form>
    </Modal>
  );
}
