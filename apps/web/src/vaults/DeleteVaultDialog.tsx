// Delete-vault confirmation (docs/product.md §2): 'Deleting...' while it runs; on failure an alert with the
// error or 'Failed to delete vault', kept in the dialog (rather than closing it, as the spec's
// original did) so the user can try again or cancel. Deleting ends the vault's session, so the
// Worker forgets its keys.
import { useState } from 'react';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { useVaultSessions } from './sessionContext.tsx';
import { useDeleteVault } from './useVaults.ts';

export function DeleteVaultDialog({
  vault,
  onClose,
  onDeleted,
}: {
  vault: Vault | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const sessions = useVaultSessions();
  const del = useDeleteVault();
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    if (!vault) return;
    setError(null);
    try {
      await del.mutateAsync(vault);
      sessions.end(vault.id);
      onClose();
      onDeleted?.();
    } catch (err) {
      setError(userMessage(err, messages.vaults.deleteFailed));
    }
  };

  const close = () => {
    setError(null);
    onClose();
  };

  return (
    <Modal
      open={vault !== null}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      size="sm"
      closable={!del.isPending}
      title="Delete vault"
      description={
        vault ? `"${vault.name}" and everything in it will be deleted for good.` : undefined
      }
      footer={
        <DialogFooter
          onCancel={close}
          submit="Delete vault"
          busyText="Deleting..."
          busy={del.isPending}
          tone="danger"
          onSubmit={() => void confirm()}
        />
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This cannot be undone. Files, secrets and the vault&apos;s keys are removed from the server.
      </p>
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}
