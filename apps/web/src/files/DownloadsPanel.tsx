// Downloads in progress (docs/product.md §4 Download): each file being decrypted to disk, with its percent and
// a Cancel button. Where the browser's own downloads show the progress (the Service Worker path),
// only the name is shown, without a percent or a Cancel it could not honour.
import { Download, X } from 'lucide-react';
import { Progress } from '../components/Progress.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface ActiveDownload {
  id: string;
  name: string;
  /** Whole percent decrypted, or null when the browser's downloads show the progress. */
  percent: number | null;
  cancel: () => void;
}

export function DownloadsPanel({ downloads }: { downloads: ActiveDownload[] }) {
  const { t } = useTranslation();
  return (
    // Announces a download starting or ending, not each percent (the progress bars carry those).
    <div aria-live="polite">
      {downloads.length > 0 && (
        <ul aria-label={t('Downloads')} className="mt-4 space-y-2">
          {downloads.map((d) => (
            <li
              key={d.id}
              className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <Download
                aria-hidden="true"
                className="size-4 shrink-0 text-indigo-600 dark:text-indigo-400"
              />
              <div className="min-w-0 flex-1">
                <p className="truncate text-slate-800 dark:text-slate-100">
                  {t('Downloading {{name}}...', { name: d.name })}
                </p>
                {d.percent !== null && (
                  <Progress
                    label={t('Download progress of {{name}}', { name: d.name })}
                    value={d.percent}
                  />
                )}
              </div>
              {d.percent !== null && (
                <>
                  <span
                    aria-hidden="true"
                    className="w-10 text-right text-slate-700 tabular-nums dark:text-slate-300"
                  >
                    {formatNumber(d.percent / 100, { style: 'percent' })}
                  </span>
                  <button
                    type="button"
                    onClick={d.cancel}
                    aria-label={t('Cancel download of {{name}}', { name: d.name })}
                    className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800"
                  >
                    <X aria-hidden="true" className="size-4" />
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
