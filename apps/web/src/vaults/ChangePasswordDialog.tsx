// Vault password change: the current password, then the new one twice. The vault master key
// stays the same and only its password slot is replaced (vault-format.md §1), so no data is
// re-encrypted; the server swaps the slot only if no other device changed it meanwhile.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { messages, userMessage, vaultsApi, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { vaultKeysQuery } from './useVaults.ts';
import { vaultPassword } from './wizard.ts';

const changeSchema = z
  .object({
    current: z.string().min(1, 'Current password is required'),
    next: vaultPassword,
    confirm: z.string(),
  })
  .refine((v) => v.next === v.confirm, {
    message: messages.auth.passwordsDoNotMatch,
    path: ['confirm'],
  });
type ChangeValues = z.infer<typeof changeSchema>;
const empty: ChangeValues = { current: '', next: '', confirm: '' };

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
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: busy },
  } = useForm<ChangeValues>({ resolver: zodResolver(changeSchema), defaultValues: empty });

  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      reset(empty);
      setDone(false);
    }
  };

  const submit = async (f: ChangeValues) => {
    let key;
    try {
      key = await vaultKeys.changePassword(vault.id, vault.key, f.current, f.next);
    } catch {
      // The Worker could not open the key slot with it: the current password is wrong.
      setError('current', { message: messages.vaults.invalidPassword }, { shouldFocus: true });
      return;
    }
    try {
      await vaultsApi.replaceKey(vault.id, { expected_revision: vault.key_revision, key });
      await qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
      setDone(true);
    } catch (err) {
      setError('root', { message: userMessage(err, messages.vaults.passwordChangeFailed) });
    }
  };

  const field = (id: keyof ChangeValues, text: string, autoComplete: string) => (
    <Field label={text} error={errors[id]?.message}>
      <PasswordInput
        toggleLabel={text.toLowerCase()}
        autoComplete={autoComplete}
        {...register(id)}
      />
    </Field>
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
          onSubmit={(e) => void handleSubmit(submit)(e)}
        >
          {errors.root && <FormMessage kind="error">{errors.root.message}</FormMessage>}
          {field('current', 'Current password', 'current-password')}
          {field('next', 'New password', 'new-password')}
          {field('confirm', 'Confirm new password', 'new-password')}
        </form>
      )}
    </Modal>
  );
}
