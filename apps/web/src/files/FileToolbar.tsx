// The file browser's tools above the list (docs/product.md §2 "File browser"): search by name as you
// type, the sort order and its direction, "Select all", and once files are selected, what can be
// done to all of them at once: download (one ZIP for several or a folder), move, delete, clear the
// selection.
import { ArrowDownAZ, ArrowUpZA, Download, FolderInput, Search, Trash2, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { inputClass } from '../components/PasswordInput.tsx';
import { SORT_KEYS, type SortKey, type SortOrder } from './listing.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export function FileSearch({ query, onQuery }: { query: string; onQuery: (q: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="relative min-w-0 flex-1 sm:max-w-sm">
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        type="search"
        aria-label={t('Search files')}
        placeholder={t('Search files by name')}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        className={`${inputClass} pl-9`}
      />
    </div>
  );
}

export function FileSort({
  order,
  onOrder,
}: {
  order: SortOrder;
  onOrder: (o: SortOrder) => void;
}) {
  const { t } = useTranslation();
  const Dir = order.dir === 'asc' ? ArrowDownAZ : ArrowUpZA;
  return (
    <div className="flex items-center gap-1">
      <label className="sr-only" htmlFor="file-sort">
        {t('Sort by')}
      </label>
      <select
        id="file-sort"
        value={order.key}
        onChange={(e) => onOrder({ ...order, key: e.target.value as SortKey })}
        className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {SORT_KEYS.map((k) => (
          <option key={k.key} value={k.key}>
            {t(k.label)}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() => onOrder({ ...order, dir: order.dir === 'asc' ? 'desc' : 'asc' })}
        aria-label={order.dir === 'asc' ? t('Ascending order') : t('Descending order')}
        title={
          order.dir === 'asc'
            ? t('Ascending: press for descending')
            : t('Descending: press for ascending')
        }
        className="rounded-lg border border-slate-300 p-2.5 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <Dir aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

/** "Select all" over the files shown: checked, unchecked, or mixed when some are. */
export function SelectAll({
  shown,
  selected,
  onAll,
}: {
  shown: number;
  selected: number;
  onAll: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLInputElement>(null);
  const mixed = selected > 0 && selected < shown;
  useEffect(() => {
    if (box.current) box.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <input
        ref={box}
        type="checkbox"
        checked={shown > 0 && selected === shown}
        disabled={shown === 0}
        onChange={(e) => onAll(e.target.checked)}
        className="size-4 accent-indigo-600"
      />
      {t('Select all')}
    </label>
  );
}

export function BulkActions({
  count,
  zip,
  onDownload,
  onMove,
  onDelete,
  onClear,
}: {
  count: number;
  /** The download is one ZIP (several entries, or a folder). */
  zip: boolean;
  onDownload: () => void;
  onMove: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="region"
      aria-label={t('Selected files')}
      className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 dark:bg-indigo-950/60"
    >
      <p
        aria-live="polite"
        className="mr-auto text-sm font-medium text-indigo-900 dark:text-indigo-100"
      >
        {t('{{count}} selected', { count: formatNumber(count) })}
      </p>
      <button type="button" onClick={onDownload} className={buttonClass('secondary')}>
        <Download aria-hidden="true" className="size-4" />
        {zip ? t('Download as ZIP') : t('Download')}
      </button>
      <button type="button" onClick={onMove} className={buttonClass('secondary')}>
        <FolderInput aria-hidden="true" className="size-4" /> {t('Move to')}
      </button>
      <button type="button" onClick={onDelete} className={buttonClass('danger')}>
        <Trash2 aria-hidden="true" className="size-4" /> {t('Delete')}
      </button>
      <button
        type="button"
        onClick={onClear}
        aria-label={t('Clear selection')}
        className="rounded-lg p-2.5 text-indigo-900 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-100 dark:hover:bg-indigo-900"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
