// Delete confirmation (docs/product.md §2): 'Are you sure you want to delete "{name}"?'.
import { useState, type RefObject } from 'react';
import { messageForUser, messages } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import type { FileEntry } from './model.ts';

export function DeleteFileDialog({
  file,
  onClose,
  onDelete,
  fallbackFocus,
}: {
  file: FileEntry | null;
  onClose: () => void;
  onDelete: (f: FileEntry) => Promise<unknown>;
  /** Where the focus goes once the file (and the Delete button that opened this) is gone. */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!file) return;
    setBusy(true);
    try {
      await onDelete(file);
      close();
    } catch (err) {
      const reason = messageForUser(err);
      setError(
        reason ? `${messages.files.deleteFailed}: ${reason}` : messages.files.deleteFailedRetry,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={file !== null}
      fallbackFocus={fallbackFocus}
      onOpenChange={(o) => !o && close()}
      size="sm"
      closable={!busy}
      title="Delete file"
      footer={
        <DialogFooter
          onCancel={close}
          submit="Delete"
          busyText="Deleting..."
          busy={busy}
          tone="danger"
          onSubmit={() => void confirm()}
        />
      }
    >
      <p className="text-sm break-words text-slate-700 dark:text-slate-300">
        Are you sure you want to delete &quot;{file?.name}&quot;?
      </p>
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}
