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
import { i18n, msg, useTranslation } from '../i18n/i18n.ts';
import { formatDate, formatNumber } from '../i18n/format.ts';

export const versionTexts = {
  about: () =>
    i18n.t(
      'The last {{count}} versions are kept. Each is a whole copy and counts toward your storage.',
      { count: formatNumber(MAX_VERSIONS) },
    ),
  restored: (name: string) => i18n.t('The older version of "{{name}}" is now the file.', { name }),
  restoreFailed: msg('The version could not be restored. Please try again.'),
  deleteFailed: msg('The version could not be deleted. Please try again.'),
} as const;

const stamp = (e: FileEntry) =>
  formatDate(e.createdAt, {
    month: 'numeric',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

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
  const { t } = useTranslation();
  const reload = useReloadFiles(vaultId);
  const [busy, setBusy] = useState<string | null>(null);
  const versions = file?.versions ?? [];
  const act = async (id: string, work: () => Promise<unknown>, failed: string) => {
    setBusy(id);
    try {
      await work();
      return true;
    } catch (err) {
      toast.error(t(userMessage(err, failed)));
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
      title={file ? t('Versions of "{{name}}"', { name: file.name }) : t('Versions')}
      description={versionTexts.about()}
    >
      {file && (
        <ul aria-label={t('Versions')} className="divide-y divide-slate-200 dark:divide-slate-800">
          <li className="flex items-center gap-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-900 dark:text-slate-100">
                {t('Current')}
              </p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {stamp(file)} · {formatBytes(file.size)}
              </p>
            </div>
          </li>
          {versions.map((v) => {
            const date = stamp(v);
            return (
              <li key={v.id} aria-label={stamp(v)} className="flex items-center gap-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="text-sm text-slate-900 dark:text-slate-100">{stamp(v)}</p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                    {formatBytes(v.size)}
                    {v.name !== file.name ? ` · ${t('was "{{name}}"', { name: v.name })}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  aria-label={t('Download the version of {{date}}', { date })}
                  onClick={() => onDownload({ ...v, name: file.name })}
                  className={iconButton}
                >
                  <Download aria-hidden="true" className="size-4" />
                </button>
                <button
                  type="button"
                  aria-label={t('Restore the version of {{date}}', { date })}
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
                  <span className="hidden sm:inline">{t('Restore')}</span>
                </button>
                <button
                  type="button"
                  aria-label={t('Delete the version of {{date}}', { date })}
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
