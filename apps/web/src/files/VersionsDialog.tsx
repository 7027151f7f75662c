// A file's older versions (issue 28 item 5; versions.ts): the current file and each older one with
// its date and size; an older one can be downloaded, restored (it becomes the file, and the
// current one an older version) or deleted for good.
import { Download, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { formatBytes, userMessage } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { Modal } from '../components/Modal.tsx';
import type { FileEntry } from './model.ts';
import { useReloadFiles } from './useFiles.ts';
import { deleteVersion, MAX_VERSIONS, restoreVersion } from './versions.ts';

export const versionTexts = {
  about: `The last ${MAX_VERSIONS} versions are kept. Each is a whole copy and counts toward your storage.`,
  restored: (name: string) => `The older version of "${name}" is now the file.`,
  restoreFailed: 'The version could not be restored. Please try again.',
  deleteFailed: 'The version could not be deleted. Please try again.',
} as const;

const when = new Intl.DateTimeFormat('en-US', {
  month: 'numeric',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const stamp = (e: FileEntry) => when.format(new Date(e.createdAt));

const iconButton =
  'rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

export function VersionsDialog({
  vaultId,
  file,
  onClose,
  onDownload,
}: {
  vaultId: string;
  /** The current file; null when the dialog is closed. */
  file: FileEntry | null;
  onClose: () => void;
  /** Downloads an older version under the file's name. */
  onDownload: (version: FileEntry) => void;
}) {
  const reload = useReloadFiles(vaultId);
  const [busy, setBusy] = useState<string | null>(null);
  const versions = file?.versions ?? [];
  const act = async (id: string, work: () => Promise<unknown>, failed: string) => {
    setBusy(id);
    try {
      await work();
      return true;
    } catch (err) {
      toast.error(userMessage(err, failed));
      return false;
    } finally {
      setBusy(null);
      await reload();
    }
  };
  return (
    <Modal
      open={file !== null}
      onOpenChange={(o) => !o && busy === null && onClose()}
      closable={busy === null}
      title={file ? `Versions of "${file.name}"` : 'Versions'}
      description={versionTexts.about}
    >
      {file && (
        <ul aria-label="Versions" className="divide-y divide-slate-200 dark:divide-slate-800">
          <li className="flex items-center gap-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-900 dark:text-slate-100">Current</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {stamp(file)} · {formatBytes(file.size)}
              </p>
            </div>
          </li>
          {versions.map((v) => {
            const label = `the version of ${stamp(v)}`;
            return (
              <li key={v.id} aria-label={stamp(v)} className="flex items-center gap-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="text-sm text-slate-900 dark:text-slate-100">{stamp(v)}</p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                    {formatBytes(v.size)}
                    {v.name !== file.name ? ` · was "${v.name}"` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  aria-label={`Download ${label}`}
                  onClick={() => onDownload({ ...v, name: file.name })}
                  className={iconButton}
                >
                  <Download aria-hidden="true" className="size-4" />
                </button>
                <button
                  type="button"
                  aria-label={`Restore ${label}`}
                  disabled={busy !== null}
                  onClick={() =>
                    void act(
                      v.id,
                      () => restoreVersion(vaultId, file, v),
                      versionTexts.restoreFailed,
                    ).then((ok) => {
                      if (!ok) return;
                      toast.success(versionTexts.restored(file.name));
                      onClose();
                    })
                  }
                  className={buttonClass('secondary')}
                >
                  <RotateCcw aria-hidden="true" className="size-4" />
                  <span className="hidden sm:inline">Restore</span>
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${label}`}
                  disabled={busy !== null}
                  onClick={() =>
                    void act(v.id, () => deleteVersion(vaultId, v), versionTexts.deleteFailed)
                  }
                  className={`${iconButton} hover:!text-red-600`}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}
