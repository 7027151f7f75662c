// What the file browser shows once a vault's files are listed and the trash is not open
// (docs/product.md §2 "File browser"): the integrity and unreadable-file notices, the folder path,
// search, sort and the selection's bulk actions (FileToolbar.tsx), then the list or grid of the
// folder's entries or the text saying there are none. A part of FileBrowser.tsx of its own: the
// browser holds the state and the dialogs, this only lays the listing out.
import { FolderOpen } from 'lucide-react';
import type { FileActions } from './FileItems.tsx';
import { BulkActions, FileSearch, FileSort, SelectAll } from './FileToolbar.tsx';
import type { ViewMode } from './FileBrowserHeader.tsx';
import { FileGrid, FileList } from './FileViews.tsx';
import { FolderPath } from './FolderPath.tsx';
import type { FileEntry } from './model.ts';
import type { FilesList } from './useFiles.ts';
import type { useFolderView } from './useFolderView.ts';
import { IntegrityNotice } from '../vaults/manifest/IntegrityNotice.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export function FolderListing({
  data,
  v,
  view,
  renamingId,
  onRenamed,
  actions,
  onDownload,
  onMove,
  onDelete,
  onDropInto,
}: {
  data: FilesList;
  v: ReturnType<typeof useFolderView>;
  view: ViewMode;
  renamingId: string | null;
  onRenamed: (file: FileEntry, name: string | null) => void;
  actions: FileActions;
  onDownload: (chosen: readonly FileEntry[]) => void;
  onMove: (chosen: readonly FileEntry[]) => void;
  onDelete: (chosen: readonly FileEntry[]) => void;
  /** Moves the entries with these ids into a folder of the path (null: the root). */
  onDropInto: (target: string | null, ids: readonly string[]) => void;
}) {
  const { t } = useTranslation();
  const entries = data.live;
  const { shown, selected, selectedEntries } = v;
  return (
    <>
      <IntegrityNotice lines={data.integrity} />
      {data.unreadable > 0 && (
        <p role="alert" className="mt-4 text-sm text-amber-800 dark:text-amber-300">
          {t('{{count}} file(s) could not be decrypted and are not shown.', {
            count: formatNumber(data.unreadable),
          })}
        </p>
      )}
      {!v.searching && <FolderPath path={v.path} onOpen={v.open} onDropInto={onDropInto} />}
      {entries.length > 0 && (
        <div className="mt-4 flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <FileSearch query={v.query} onQuery={v.setQuery} />
            <FileSort order={v.order} onOrder={v.changeOrder} />
            <SelectAll shown={shown.length} selected={selected.size} onAll={v.selectAll} />
          </div>
          {selected.size > 0 && (
            <BulkActions
              count={selected.size}
              zip={selectedEntries.length > 1 || selectedEntries.some((e) => e.isFolder)}
              onDownload={() => onDownload(selectedEntries)}
              onMove={() => onMove(selectedEntries)}
              onDelete={() => onDelete(selectedEntries)}
              onClear={() => v.selectAll(false)}
            />
          )}
        </div>
      )}
      {entries.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 py-16 text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <FolderOpen aria-hidden="true" className="size-10" />
          <p>{t('No files in this vault')}</p>
        </div>
      ) : shown.length === 0 ? (
        <p role="status" className="mt-10 text-center text-slate-600 dark:text-slate-400">
          {v.searching ? t('No files match your search.') : t('This folder is empty.')}
        </p>
      ) : view === 'list' ? (
        <FileList
          files={shown}
          selected={selected}
          renamingId={renamingId}
          onRenamed={onRenamed}
          actions={actions}
        />
      ) : (
        <div className="mt-4">
          <FileGrid files={shown} selected={selected} actions={actions} />
        </div>
      )}
    </>
  );
}
