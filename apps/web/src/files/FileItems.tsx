// A file or folder as a list row (its checkbox, icon, name, size or item count, created date;
// rename, move, download, delete) and as a grid tile (checkbox, icon, name, size). Activating a
// file's name opens the previewer, a folder's opens the folder. A shift-click on a checkbox selects
// the range from the last one clicked. Rows and tiles can be dragged onto a folder (or a step of
// the folder path) to move them there (dragMove.ts).
import { Download, FolderInput, History, Link2, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '@sealvault/protocol';
import { formatDate } from '../vaults/format.ts';
import { dragSource, dropTarget } from './dragMove.ts';
import { FileIcon } from './FileIcon.tsx';
import type { FileEntry } from './model.ts';
import { RenameField } from './RenameField.tsx';
import { useThumbnail } from './thumbnails.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface FileActions {
  onOpen: (f: FileEntry) => void;
  onRename: (f: FileEntry) => void;
  onMove: (f: FileEntry) => void;
  onDownload: (f: FileEntry) => void;
  onDelete: (f: FileEntry) => void;
  /** Shows a file's older versions (a file that has some). */
  onVersions: (f: FileEntry) => void;
  /** Makes a share link for a file (issue 29). */
  onShare: (f: FileEntry) => void;
  /** The file's checkbox was clicked; `shift` extends the selection as a range. */
  onSelect: (f: FileEntry, shift: boolean) => void;
  /** The ids a drag that starts on `f` carries: the selection if `f` is in it, else `f`. */
  dragged: (f: FileEntry) => string[];
  /** Entries dropped onto the folder `f`. */
  onDropInto: (folder: FileEntry, ids: string[]) => void;
  /** Where an entry is, shown under its name in a search ('' when nothing is to be said). */
  detail: (f: FileEntry) => string;
  /** A folder's "{n} items", shown where a file shows its size. */
  itemCount: (f: FileEntry) => string;
  /** The vault, for the grid's thumbnails. */
  vaultId: string;
}

/** A tile's picture: the file's thumbnail once decrypted, its type's icon until then or without one. */
function TileImage({ file, vaultId }: { file: FileEntry; vaultId: string }) {
  const thumb = useThumbnail(vaultId, file.thumb);
  const img = useRef<HTMLImageElement>(null);
  // The object URL lives as long as the tile shows this thumbnail.
  useEffect(() => {
    const el = img.current;
    if (!el || !thumb.data) return;
    const url = URL.createObjectURL(thumb.data);
    el.src = url;
    return () => URL.revokeObjectURL(url);
  }, [thumb.data]);
  if (!thumb.data) return <FileIcon mime={file.mime} name={file.name} className="size-10" />;
  return (
    <img
      ref={img}
      alt=""
      data-thumbnail=""
      className="h-16 max-w-full rounded-md object-contain"
      draggable={false}
    />
  );
}

function SelectBox({
  file,
  selected,
  onSelect,
  className = '',
}: {
  file: FileEntry;
  selected: boolean;
  onSelect: FileActions['onSelect'];
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <input
      type="checkbox"
      aria-label={t('Select {{name}}', { name: file.name })}
      data-file-select=""
      checked={selected}
      // The click carries the shift key; the change alone would not.
      onClick={(e) => onSelect(file, e.shiftKey)}
      onChange={() => undefined}
      className={`size-4 shrink-0 accent-indigo-600 ${className}`}
    />
  );
}

const iconButton =
  'rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

/** Drag and drop for a row or tile: every entry can be dragged, a folder takes drops. */
function useDrag(file: FileEntry, actions: FileActions) {
  const [over, setOver] = useState(false);
  const drop = file.isFolder
    ? dropTarget((ids) => actions.onDropInto(file, ids), setOver, file.id)
    : {};
  return { over, props: { ...dragSource(() => actions.dragged(file)), ...drop } };
}

export function FileRow({
  file,
  selected,
  renaming,
  onRenamed,
  actions,
}: {
  file: FileEntry;
  selected: boolean;
  renaming: boolean;
  onRenamed: (name: string | null) => void;
  actions: FileActions;
}) {
  const { t } = useTranslation();
  const drag = useDrag(file, actions);
  const detail = actions.detail(file);
  const size = file.isFolder ? actions.itemCount(file) : formatBytes(file.size);
  return (
    <div
      {...drag.props}
      className={`flex h-14 items-center gap-3 border-b border-slate-200 px-3 dark:border-slate-800 ${
        drag.over
          ? 'bg-indigo-100 ring-2 ring-indigo-500 ring-inset dark:bg-indigo-900/60'
          : selected
            ? 'bg-indigo-50 dark:bg-indigo-950/50'
            : ''
      }`}
    >
      <SelectBox file={file} selected={selected} onSelect={actions.onSelect} />
      <FileIcon mime={file.mime} name={file.name} />
      <div className="min-w-0 flex-1">
        {renaming ? (
          <RenameField name={file.name} whole={file.isFolder} onDone={onRenamed} />
        ) : (
          <button
            type="button"
            onClick={() => actions.onOpen(file)}
            title={file.name}
            className="block max-w-full truncate text-left text-sm font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-100"
          >
            {file.name}
          </button>
        )}
        <span className="block truncate text-xs text-slate-600 sm:hidden dark:text-slate-400">
          {size} · {formatDate(file.createdAt)}
        </span>
        {detail && (
          <span className="hidden truncate text-xs text-slate-600 sm:block dark:text-slate-400">
            {detail}
          </span>
        )}
      </div>
      <span className="hidden w-24 text-right text-sm text-slate-600 tabular-nums sm:block dark:text-slate-400">
        {size}
      </span>
      <span className="hidden w-28 text-right text-sm text-slate-600 tabular-nums md:block dark:text-slate-400">
        {formatDate(file.createdAt)}
      </span>
      <div className="flex shrink-0 items-center">
        <button
          type="button"
          aria-label={t('Rename {{name}}', { name: file.name })}
          onClick={() => actions.onRename(file)}
          className={iconButton}
        >
          <Pencil aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          aria-label={t('Move {{name}}', { name: file.name })}
          onClick={() => actions.onMove(file)}
          className={`${iconButton} hidden sm:inline-flex`}
        >
          <FolderInput aria-hidden="true" className="size-4" />
        </button>
        {file.versions && file.versions.length > 0 && (
          <button
            type="button"
            aria-label={t('Versions of {{name}} ({{count}} older)', {
              name: file.name,
              count: formatNumber(file.versions.length),
            })}
            title={
              file.versions.length === 1
                ? t('{{count}} older version', { count: formatNumber(file.versions.length) })
                : t('{{count}} older versions', { count: formatNumber(file.versions.length) })
            }
            onClick={() => actions.onVersions(file)}
            className={iconButton}
          >
            <History aria-hidden="true" className="size-4" />
          </button>
        )}
        <button
          type="button"
          aria-label={
            file.isFolder
              ? t('Download {{name}} as ZIP', { name: file.name })
              : t('Download {{name}}', { name: file.name })
          }
          onClick={() => actions.onDownload(file)}
          className={iconButton}
        >
          <Download aria-hidden="true" className="size-4" />
        </button>
        {!file.isFolder && (
          <button
            type="button"
            aria-label={t('Share {{name}}', { name: file.name })}
            onClick={() => actions.onShare(file)}
            className={`${iconButton} hidden sm:inline-flex`}
          >
            <Link2 aria-hidden="true" className="size-4" />
          </button>
        )}
        <button
          type="button"
          aria-label={t('Delete {{name}}', { name: file.name })}
          onClick={() => actions.onDelete(file)}
          className={`${iconButton} hover:!text-red-600`}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}

export function FileTile({
  file,
  selected,
  actions,
}: {
  file: FileEntry;
  selected: boolean;
  actions: FileActions;
}) {
  const drag = useDrag(file, actions);
  return (
    <div className="relative" {...drag.props}>
      <button
        type="button"
        onClick={() => actions.onOpen(file)}
        title={file.name}
        className={`flex h-36 w-full flex-col items-center justify-center gap-2 rounded-xl border bg-white p-3 text-center hover:border-indigo-400 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900 dark:hover:border-indigo-500 ${
          selected || drag.over
            ? 'border-indigo-500 ring-1 ring-indigo-500 dark:border-indigo-400'
            : 'border-slate-200 dark:border-slate-800'
        }`}
      >
        <TileImage file={file} vaultId={actions.vaultId} />
        <span className="line-clamp-2 w-full text-sm font-medium break-all text-slate-900 dark:text-slate-100">
          {file.name}
        </span>
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {file.isFolder ? actions.itemCount(file) : formatBytes(file.size)}
        </span>
      </button>
      <SelectBox
        file={file}
        selected={selected}
        onSelect={actions.onSelect}
        className="absolute top-2 left-2"
      />
    </div>
  );
}
