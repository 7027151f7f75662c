// The trash of a file vault (issue 28 item 4; docs/product.md "Trash"): what was deleted, where it
// was, when, and when it goes for good; Restore and "Delete forever" on each, "Empty trash" for all.
// Items still waiting to be deleted from a cloud provider (not connected, or a request failed) are
// named, since only the browser can delete them there.
import { ArrowLeft, RotateCcw, Trash2 } from 'lucide-react';
import { useState, type RefObject } from 'react';
import { toast } from 'sonner';
import { formatBytes, userMessage } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatDate } from '../vaults/format.ts';
import { DeleteFileDialog, type DeleteRequest } from './DeleteFileDialog.tsx';
import { FileIcon } from './FileIcon.tsx';
import type { FolderTree } from './folders.ts';
import { TRASH_MS, type TrashItem } from './trash.ts';
import { deleteRecords, useReloadFiles } from './useFiles.ts';
import { useTrashMutations } from './useTrash.ts';
import { i18n, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

// Functions: each text is translated when it is shown.
export const trashTexts = {
  intro: () =>
    i18n.t(
      'Deleted files and folders stay here for {{days}} days, then they are deleted for good. They still count toward your storage.',
      { days: formatNumber(TRASH_MS / 86_400_000) },
    ),
  empty: () => i18n.t('The trash is empty.'),
  restoreFailed: () => i18n.t('The item could not be restored. Please try again.'),
  restored: (name: string) => i18n.t('"{{name}}" was restored.', { name }),
  restoredAs: (from: string, to: string) =>
    i18n.t('"{{from}}" was restored as "{{to}}": the name is in use there.', { from, to }),
  waiting: (n: number, where: string) =>
    n === 1
      ? i18n.t(
          '{{count}} item is waiting to be deleted from {{where}}. They are deleted the next time this vault is open with {{where}} connected.',
          { count: formatNumber(n), where },
        )
      : i18n.t(
          '{{count}} items are waiting to be deleted from {{where}}. They are deleted the next time this vault is open with {{where}} connected.',
          { count: formatNumber(n), where },
        ),
} as const;

const filesText = (n: number) =>
  n === 1
    ? i18n.t('{{count}} file', { count: formatNumber(n) })
    : i18n.t('{{count}} files', { count: formatNumber(n) });

const ago = (item: TrashItem) => formatDate(new Date(item.entry.trashed!).toISOString());
const goesOn = (item: TrashItem) => formatDate(new Date(item.purgeAt).toISOString());

/** What "Delete forever" of `items` asks, and the records it deletes in order. */
export function foreverRequest(items: readonly TrashItem[], all: boolean): DeleteRequest {
  const entries = items.flatMap((i) => i.records);
  const files = items.reduce((n, i) => n + i.files, 0);
  const only = items.length === 1 ? items[0]! : null;
  const what =
    only && !only.entry.isFolder
      ? i18n.t('"{{name}}"', { name: only.entry.name })
      : only
        ? i18n.t('the folder "{{name}}" and everything in it ({{files}})', {
            name: only.entry.name,
            files: filesText(files),
          })
        : i18n.t('{{count}} items ({{files}})', {
            count: formatNumber(items.length),
            files: filesText(files),
          });
  return all
    ? {
        entries,
        title: i18n.t('Empty trash'),
        question: i18n.t(
          'Delete everything in the trash, {{what}}, for good? This cannot be undone.',
          { what },
        ),
        submit: i18n.t('Empty trash'),
      }
    : {
        entries,
        title: i18n.t('Delete forever'),
        question: i18n.t('Delete {{what}} for good? This cannot be undone.', { what }),
        submit: i18n.t('Delete forever'),
      };
}

export function TrashView({
  vaultId,
  items,
  waiting,
  holder,
  tree,
  onBack,
  heading,
}: {
  vaultId: string;
  items: readonly TrashItem[];
  /** Items due that could not be deleted yet (trash.ts dueItems). */
  waiting: readonly TrashItem[];
  /** The provider's name, when it is not our server ("Dropbox", "this browser"). */
  holder: string | null;
  tree: FolderTree;
  onBack: () => void;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation();
  const { restore } = useTrashMutations(vaultId);
  const reload = useReloadFiles(vaultId);
  const [deleting, setDeleting] = useState<DeleteRequest | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const restoreOne = (item: TrashItem) => {
    setBusyId(item.entry.id);
    restore.mutate(
      { tree, items: [item] },
      {
        onSuccess: ({ renamed }) => {
          const r = renamed[0];
          toast.success(
            r ? trashTexts.restoredAs(r.from, r.to) : trashTexts.restored(item.entry.name),
          );
          heading.current?.focus();
        },
        onError: (err) => toast.error(t(userMessage(err, trashTexts.restoreFailed()))),
        onSettled: () => setBusyId(null),
      },
    );
  };

  return (
    <div className="mt-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button type="button" onClick={onBack} className={buttonClass('secondary')}>
          <ArrowLeft aria-hidden="true" className="size-4" /> {t('Back to files')}
        </button>
        <button
          type="button"
          disabled={items.length === 0}
          onClick={() => setDeleting(foreverRequest(items, true))}
          className={buttonClass('danger')}
        >
          <Trash2 aria-hidden="true" className="size-4" /> {t('Empty trash')}
        </button>
      </div>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">{trashTexts.intro()}</p>
      {waiting.length > 0 && holder && (
        <p role="status" className="mt-3 text-sm font-medium text-amber-800 dark:text-amber-300">
          {trashTexts.waiting(waiting.length, holder)}
        </p>
      )}
      {items.length === 0 ? (
        <p
          role="status"
          className="mt-10 flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 py-16 text-slate-600 dark:border-slate-700 dark:text-slate-400"
        >
          <Trash2 aria-hidden="true" className="size-10" />
          {trashTexts.empty()}
        </p>
      ) : (
        <ul
          aria-label={t('Trash')}
          className="mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        >
          {items.map((item) => {
            const e = item.entry;
            const size = e.isFolder
              ? `${filesText(item.files)}, ${formatBytes(item.bytes)}`
              : formatBytes(item.bytes);
            return (
              <li
                key={e.id}
                aria-label={e.name}
                className="flex min-h-14 items-center gap-3 border-b border-slate-200 px-3 py-2 last:border-b-0 dark:border-slate-800"
              >
                <FileIcon mime={e.mime} name={e.name} />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
                    {e.name}
                  </p>
                  <p className="text-xs break-words text-slate-600 dark:text-slate-400">
                    {t(
                      '{{size}} · from {{folder}} · deleted {{deleted}} · gone for good on {{date}}',
                      {
                        size,
                        folder: item.from || t('All files'),
                        deleted: ago(item),
                        date: goesOn(item),
                      },
                    )}
                  </p>
                </div>
                <button
                  type="button"
                  aria-label={t('Restore {{name}}', { name: e.name })}
                  disabled={busyId !== null}
                  onClick={() => restoreOne(item)}
                  className={buttonClass('secondary')}
                >
                  <RotateCcw aria-hidden="true" className="size-4" />
                  <span className="hidden sm:inline">{t('Restore')}</span>
                </button>
                <button
                  type="button"
                  aria-label={t('Delete {{name}} forever', { name: e.name })}
                  disabled={busyId !== null}
                  onClick={() => setDeleting(foreverRequest([item], false))}
                  className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-red-400"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <DeleteFileDialog
        request={deleting}
        onClose={() => {
          setDeleting(null);
          void reload();
        }}
        onDelete={(r) => deleteRecords(vaultId, [r])}
        fallbackFocus={heading}
      />
    </div>
  );
}
