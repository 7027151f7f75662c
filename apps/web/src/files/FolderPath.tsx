// Where the file browser is: `All files` › Taxes › 2026 (docs/product.md §2 "File browser"). Each
// step above the current folder opens it, and takes files and folders dragged onto it.
import { ChevronRight, Home } from 'lucide-react';
import { useState } from 'react';
import { dropTarget } from './dragMove.ts';
import type { FileEntry } from './model.ts';
import { useTranslation } from '../i18n/i18n.ts';

function Step({
  label,
  folder,
  onOpen,
  onDropInto,
}: {
  label: React.ReactNode;
  folder: string | null;
  onOpen: (folder: string | null) => void;
  onDropInto: (folder: string | null, ids: string[]) => void;
}) {
  const [over, setOver] = useState(false);
  return (
    <button
      type="button"
      onClick={() => onOpen(folder)}
      {...dropTarget((ids) => onDropInto(folder, ids), setOver, folder ?? undefined)}
      className={`flex max-w-48 items-center gap-1 truncate rounded-md px-1.5 py-1 text-indigo-700 hover:bg-indigo-50 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-950 ${
        over ? 'bg-indigo-100 ring-2 ring-indigo-500 dark:bg-indigo-900' : ''
      }`}
    >
      {label}
    </button>
  );
}

export function FolderPath({
  path,
  onOpen,
  onDropInto,
}: {
  /** The folders from the root down to the current one ([] at the root). */
  path: readonly FileEntry[];
  onOpen: (folder: string | null) => void;
  onDropInto: (folder: string | null, ids: string[]) => void;
}) {
  const { t } = useTranslation();
  const rootLabel = (
    <>
      <Home aria-hidden="true" className="size-4 shrink-0" /> {t('All files')}
    </>
  );
  const current = path.at(-1);
  return (
    <nav aria-label={t('Folder path')} className="mt-3">
      <ol className="flex flex-wrap items-center gap-0.5 text-sm">
        <li className="flex items-center">
          {current ? (
            <Step label={rootLabel} folder={null} onOpen={onOpen} onDropInto={onDropInto} />
          ) : (
            <span
              aria-current="page"
              className="flex items-center gap-1 px-1.5 py-1 font-semibold text-slate-900 dark:text-white"
            >
              {rootLabel}
            </span>
          )}
        </li>
        {path.map((f) => (
          <li key={f.id} className="flex min-w-0 items-center gap-0.5">
            <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
            {f === current ? (
              <span
                aria-current="page"
                className="max-w-60 truncate px-1.5 py-1 font-semibold text-slate-900 dark:text-white"
              >
                {f.name}
              </span>
            ) : (
              <Step
                label={<span className="truncate">{f.name}</span>}
                folder={f.id}
                onOpen={onOpen}
                onDropInto={onDropInto}
              />
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
