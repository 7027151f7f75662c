// Vault password change: the current password, then the new one twice. The vault master key
// stays the same and only its password slot is replaced (vault-format.md §1), so no data is
// re-encrypted; the server swaps the slot only if no other device changed it meanwhile.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { messages, userMessage, vaultsApi, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { vaultKeysQuery } from './useVaults.ts';
import { MIN_VAULT_PASSWORD } from './wizard.ts';

const empty = { current: '', next: '', confirm: '' };
const label = 'mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200';

export function ChangePasswordDialog({
  vault,
  open,
  onOpenChange,
}: {
  vault: Vault;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const qc = useQueryClient();
  const [f, setF] = useState(empty);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      setF(empty);
      setError(null);
      setDone(false);
    }
  };

  const submit = async () => {
    if (f.next.length < MIN_VAULT_PASSWORD) return setError(messages.vaults.passwordTooShort);
    if (f.next !== f.confirm) return setError(messages.auth.passwordsDoNotMatch);
    setBusy(true);
    setError(null);
    let sending = false; // past the Worker: a failure now is the request's, not the password's
    try {
      const key = await vaultKeys.changePassword(vault.id, vault.key, f.current, f.next);
      sending = true;
      await vaultsApi.replaceKey(vault.id, { expected_revision: vault.key_revision, key });
      await qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
      setDone(true);
    } catch (err) {
      setError(
        sending
          ? userMessage(err, messages.vaults.passwordChangeFailed)
          : messages.vaults.invalidPassword,
      );
    } finally {
      setBusy(false);
    }
  };

  const field = (id: keyof typeof empty, text: string, autoComplete: string) => (
    <div>
      <label htmlFor={`cp-${id}`} className={label}>
        {text}
      </label>
      <PasswordInput
        id={`cp-${id}`}
        toggleLabel={text.toLowerCase()}
        autoComplete={autoComplete}
        value={f[id]}
        onChange={(e) => {
          setF({ ...f, [id]: e.target.value });
          setError(null);
        }}
      />
    </div>
  );

  return (
    <Modal
      open={open}
      onOpenChange={close}
      size="sm"
      closable={!busy}
      title="Change vault password"
      description={vault.name}
      footer={
        done ? (
          <button type="button" onClick={() => close(false)} className={buttonClass('primary')}>
            Done
          </button>
        ) : (
          <DialogFooter
            onCancel={() => close(false)}
            submit="Change password"
            busyText="Changing..."
            busy={busy}
            form="change-password-form"
          />
        )
      }
    >
      {done ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          The password was changed. From now on only the new password unlocks this vault.
        </p>
      ) : (
        <form
          id="change-password-form"
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {field('current', 'Current password', 'current-password')}
          {field('next', 'New password', 'new-password')}
          {field('confirm', 'Confirm new password', 'new-password')}
          {error && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
