// A file as a list row (its checkbox, icon, name, size, created date; rename, download, delete) and as
// a grid tile (checkbox, icon, name, size). Activating the name opens the previewer; a shift-click
// on a checkbox selects the range from the last one clicked.
import { Download, Pencil, Trash2 } from 'lucide-react';
import { formatBytes } from '@sealvault/protocol';
import { formatDate } from '../vaults/format.ts';
import { FileIcon } from './FileIcon.tsx';
import type { FileEntry } from './model.ts';
import { RenameField } from './RenameField.tsx';

export interface FileActions {
  onOpen: (f: FileEntry) => void;
  onRename: (f: FileEntry) => void;
  onDownload: (f: FileEntry) => void;
  onDelete: (f: FileEntry) => void;
  /** The file's checkbox was clicked; `shift` extends the selection as a range. */
  onSelect: (f: FileEntry, shift: boolean) => void;
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
  return (
    <input
      type="checkbox"
      aria-label={`Select ${file.name}`}
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
  return (
    <div
      className={`flex h-14 items-center gap-3 border-b border-slate-200 px-3 dark:border-slate-800 ${
        selected ? 'bg-indigo-50 dark:bg-indigo-950/50' : ''
      }`}
    >
      <SelectBox file={file} selected={selected} onSelect={actions.onSelect} />
      <FileIcon mime={file.mime} name={file.name} />
      <div className="min-w-0 flex-1">
        {renaming ? (
          <RenameField name={file.name} onDone={onRenamed} />
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
        <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-400">
          {formatBytes(file.size)} · {formatDate(file.createdAt)}
        </span>
      </div>
      <span className="hidden w-24 text-right text-sm text-slate-600 tabular-nums sm:block dark:text-slate-400">
        {formatBytes(file.size)}
      </span>
      <span className="hidden w-28 text-right text-sm text-slate-600 tabular-nums md:block dark:text-slate-400">
        {formatDate(file.createdAt)}
      </span>
      <div className="flex shrink-0 items-center">
        <button
          type="button"
          aria-label={`Rename ${file.name}`}
          onClick={() => actions.onRename(file)}
          className={iconButton}
        >
          <Pencil aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          aria-label={`Download ${file.name}`}
          onClick={() => actions.onDownload(file)}
          className={iconButton}
        >
          <Download aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          aria-label={`Delete ${file.name}`}
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
  return (
    <div className="relative">
      <button
        type="button"
        onClick={() => actions.onOpen(file)}
        title={file.name}
        className={`flex h-36 w-full flex-col items-center justify-center gap-2 rounded-xl border bg-white p-3 text-center hover:border-indigo-400 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900 dark:hover:border-indigo-500 ${
          selected
            ? 'border-indigo-500 ring-1 ring-indigo-500 dark:border-indigo-400'
            : 'border-slate-200 dark:border-slate-800'
        }`}
      >
        <FileIcon mime={file.mime} name={file.name} className="size-10" />
        <span className="line-clamp-2 w-full text-sm font-medium break-all text-slate-900 dark:text-slate-100">
          {file.name}
        </span>
        <span className="text-xs text-slate-600 dark:text-slate-400">{formatBytes(file.size)}</span>
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
