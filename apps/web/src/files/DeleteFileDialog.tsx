// Delete confirmation (docs/product.md §2): 'Are you sure you want to delete "{name}"?', or for
// several selected files 'Are you sure you want to delete {n} files?', or for folders the count of
// what is inside them (deleteRequest). Everything goes one record after the other, what is inside
// a folder before the folder; a failure stops there and says how many were deleted.
import { useState, type RefObject } from 'react';
import { messageForUser, messages } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import type { FolderTree } from './folders.ts';
import type { FileEntry } from './model.ts';
import { i18n, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface DeleteRequest {
  /** Every record to delete, in order (what is inside a folder before the folder). */
  entries: readonly FileEntry[];
  title: string;
  question: string;
  /** The confirm button's text: "Delete" unless told. */
  submit?: string;
}

/** What deleting `chosen` asks and deletes: with folders, everything below them too. */
export function deleteRequest(tree: FolderTree, chosen: readonly FileEntry[]): DeleteRequest {
  const entries: FileEntry[] = [];
  const seen = new Set<string>();
  const add = (e: FileEntry) => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    entries.push(e);
  };
  for (const e of chosen) {
    if (e.isFolder) [...tree.below(e.id)].reverse().forEach(add);
    add(e);
  }
  const files = entries.filter((e) => !e.isFolder).length;
  const inside =
    files === 1
      ? i18n.t('{{count}} file', { count: formatNumber(files) })
      : i18n.t('{{count}} files', { count: formatNumber(files) });
  const only = chosen.length === 1 ? chosen[0] : undefined;
  if (only && !only.isFolder) {
    return {
      entries,
      title: i18n.t('Delete file'),
      question: i18n.t('Are you sure you want to delete "{{name}}"?', { name: only.name }),
    };
  }
  if (only) {
    return {
      entries,
      title: i18n.t('Delete folder'),
      question: i18n.t(
        'Are you sure you want to delete the folder "{{name}}" and everything in it ({{inside}})?',
        { name: only.name, inside },
      ),
    };
  }
  if (chosen.every((e) => !e.isFolder)) {
    return {
      entries,
      title: i18n.t('Delete files'),
      question: i18n.t('Are you sure you want to delete {{count}} files?', {
        count: formatNumber(chosen.length),
      }),
    };
  }
  return {
    entries,
    title: i18n.t('Delete items'),
    question: i18n.t(
      'Are you sure you want to delete {{count}} items and everything in them ({{inside}})?',
      { count: formatNumber(chosen.length), inside },
    ),
  };
}

export function DeleteFileDialog({
  request,
  onClose,
  onDelete,
  fallbackFocus,
}: {
  /** What to delete; null when the dialog is closed. */
  request: DeleteRequest | null;
  onClose: () => void;
  onDelete: (f: FileEntry) => Promise<unknown>;
  /** Where the focus goes once the file (and the Delete button that opened this) is gone. */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(0);
  const close = () => {
    setError(null);
    setDone(0);
    onClose();
  };
  const files = request?.entries;
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
        ? `${t(messages.files.deleteFailed)}: ${t(reason)}`
        : t(messages.files.deleteFailedRetry);
      setError(
        many
          ? `${text} (${t('{{done}} of {{total}} deleted', {
              done: formatNumber(done + deleted),
              total: formatNumber(files.length),
            })})`
          : text,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={request !== null}
      fallbackFocus={fallbackFocus}
      onOpenChange={(o) => !o && close()}
      size="sm"
      closable={!busy}
      title={request?.title ?? t('Delete file')}
      footer={
        <DialogFooter
          onCancel={close}
          submit={request?.submit ?? t('Delete')}
          busyText={
            many
              ? t('Deleting {{done}} of {{total}}...', {
                  done: formatNumber(done + 1),
                  total: formatNumber(files?.length ?? 0),
                })
              : t('Deleting...')
          }
          busy={busy}
          tone="danger"
          onSubmit={() => void confirm()}
        />
      }
    >
      <p className="text-sm break-words text-slate-700 dark:text-slate-300">{request?.question}</p>
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}
