// The head of the file browser (docs/product.md §2 "File browser"): the title with the count of
// files (or of items in the trash), the list/grid toggle and the 'Trash', 'New folder' and
// 'Upload Files' buttons. A part of FileBrowser.tsx of its own, since it only shows what the
// browser holds and hands the clicks back.
import { FolderPlus, Grid2x2, List, Trash2, Upload } from 'lucide-react';
import type { RefObject } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export type ViewMode = 'list' | 'grid';

export function FileBrowserHeader({
  heading,
  inTrash,
  count,
  trashCount,
  shownCount,
  view,
  onView,
  loaded,
  onTrash,
  onNewFolder,
  onUpload,
}: {
  /** The title, focused after the trash or a reconnection changes what is shown. */
  heading: RefObject<HTMLHeadingElement | null>;
  inTrash: boolean;
  /** Files in the vault (folders not counted). */
  count: number;
  trashCount: number;
  /** How many entries a search shows, or null when there is no search to report. */
  shownCount: number | null;
  view: ViewMode;
  onView: (mode: ViewMode) => void;
  /** Whether the listing has arrived (the trash and 'New folder' wait for it). */
  loaded: boolean;
  onTrash: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h2
          id="files-title"
          ref={heading}
          tabIndex={-1}
          className="text-xl font-bold text-slate-900 focus:outline-none dark:text-white"
        >
          {inTrash ? t('Trash') : t('Files')}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {inTrash
            ? trashCount === 1
              ? t('{{count}} item in the trash', { count: formatNumber(trashCount) })
              : t('{{count}} items in the trash', { count: formatNumber(trashCount) })
            : count === 1
              ? t('{{count}} file', { count: formatNumber(count) })
              : t('{{count}} files', { count: formatNumber(count) })}
          {shownCount !== null
            ? ` · ${t('{{count}} shown', { count: formatNumber(shownCount) })}`
            : ''}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <div
          role="group"
          aria-label={t('View')}
          className="flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700"
        >
          {(['list', 'grid'] as const).map((mode) => {
            const Icon = mode === 'list' ? List : Grid2x2;
            return (
              <button
                key={mode}
                type="button"
                aria-label={mode === 'list' ? t('List view') : t('Grid view')}
                aria-pressed={view === mode}
                onClick={() => onView(mode)}
                className={`rounded-md p-2 focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                  view === mode
                    ? 'bg-indigo-600 text-white dark:bg-indigo-500'
                    : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
                }`}
              >
                <Icon aria-hidden="true" className="size-4" />
              </button>
            );
          })}
        </div>
        <button
          type="button"
          onClick={onTrash}
          disabled={!loaded || inTrash}
          className={buttonClass('secondary')}
        >
          <Trash2 aria-hidden="true" className="size-4" /> {t('Trash')}
          {trashCount > 0 ? ` (${formatNumber(trashCount)})` : ''}
        </button>
        <button
          type="button"
          onClick={onNewFolder}
          disabled={!loaded}
          className={buttonClass('secondary')}
        >
          <FolderPlus aria-hidden="true" className="size-4" /> {t('New folder')}
        </button>
        <button type="button" onClick={onUpload} className={buttonClass('primary')}>
          <Upload aria-hidden="true" className="size-4" /> {t('Upload Files')}
        </button>
      </div>
    </div>
  );
}
