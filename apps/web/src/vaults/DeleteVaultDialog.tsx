// Delete-vault confirmation (docs/product.md §2): 'Deleting...' while it runs; on failure an alert
// with the error or 'Failed to delete vault' (the app's alert: an error toast, announced through
// the Toaster's live region), then the dialog closes, as the spec has it (issue 25). Deleting
// ends the vault's session, so the Worker forgets its keys.
import { toast } from 'sonner';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { useVaultSessions } from './sessionContext.tsx';
import { useDeleteVault } from './useVaults.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function DeleteVaultDialog({
  vault,
  onClose,
  onDeleted,
}: {
  vault: Vault | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const sessions = useVaultSessions();
  const del = useDeleteVault();

  const confirm = async () => {
    if (!vault) return;
    try {
      await del.mutateAsync(vault);
      sessions.end(vault.id);
      onClose();
      onDeleted?.();
    } catch (err) {
      toast.error(t(userMessage(err, messages.vaults.deleteFailed)));
      onClose();
    }
  };

  return (
    <Modal
      open={vault !== null}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      size="sm"
      closable={!del.isPending}
      title={t('Delete vault')}
      description={
        vault
          ? t('"{{name}}" and everything in it will be deleted for good.', { name: vault.name })
          : undefined
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          submit={t('Delete vault')}
          busyText={t('Deleting...')}
          busy={del.isPending}
          tone="danger"
          onSubmit={() => void confirm()}
        />
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t(
          "This cannot be undone. Files, secrets and the vault's keys are removed from the server.",
        )}
      </p>
    </Modal>
  );
}
