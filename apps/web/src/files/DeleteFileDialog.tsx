// Delete confirmation (docs/product.md §2): 'Are you sure you want to delete "{name}"?', or for
// several selected files 'Are you sure you want to delete {n} files?'. Files go one after the
// other; a failure stops there and says how many were deleted.
import { useState, type RefObject } from 'react';
import { messageForUser, messages } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import type { FileEntry } from './model.ts';

export function DeleteFileDialog({
  files,
  onClose,
  onDelete,
  fallbackFocus,
}: {
  /** The files to delete; null when the dialog is closed. */
  files: readonly FileEntry[] | null;
  onClose: () => void;
  onDelete: (f: FileEntry) => Promise<unknown>;
  /** Where the focus goes once the file (and the Delete button that opened this) is gone. */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(0);
  const close = () => {
    setError(null);
    setDone(0);
    onClose();
  };
  const many = (files?.length ?? 0) > 1;
  const confirm = async () => {
    if (!files) return;
    setBusy(true);
    setError(null);
    let deleted = 0;
    try {
      for (const f of files.slice(done)) {
        await onDelete(f);
        deleted += 1;
        setDone((d) => d + 1);
      }
      close();
    } catch (err) {
      const reason = messageForUser(err);
      const text = reason
        ? `${messages.files.deleteFailed}: ${reason}`
        : messages.files.deleteFailedRetry;
      setError(many ? `${text} (${done + deleted} of ${files.length} deleted)` : text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={files !== null}
      fallbackFocus={fallbackFocus}
      onOpenChange={(o) => !o && close()}
      size="sm"
      closable={!busy}
      title={many ? 'Delete files' : 'Delete file'}
      footer={
        <DialogFooter
          onCancel={close}
          submit="Delete"
          busyText={many ? `Deleting ${done + 1} of ${files?.length ?? 0}...` : 'Deleting...'}
          busy={busy}
          tone="danger"
          onSubmit={() => void confirm()}
        />
      }
    >
      <p className="text-sm break-words text-slate-700 dark:text-slate-300">
        {many ? (
          <>Are you sure you want to delete {files?.length} files?</>
        ) : (
          <>Are you sure you want to delete &quot;{files?.[0]?.name}&quot;?</>
        )}
      </p>
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}
