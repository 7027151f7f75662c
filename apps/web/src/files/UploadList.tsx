// The chosen files in the upload dialog (UploadDialog.tsx; docs/product.md §4 Upload): each with
// its checkbox, folder, size and what became of it (percent, progress bar, uploaded, skipped,
// saved under another name, retrying, or its error). A part of the dialog of its own since it only
// shows the selection and the batch's status (useUploadBatch.ts).
import { CheckCircle2 } from 'lucide-react';
import { formatBytes } from '@sealvault/protocol';
import { Progress } from '../components/Progress.tsx';
import { sizeProblem, type Selected } from './model.ts';
import type { Status } from './useUploadBatch.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export function UploadList({
  selection,
  onSelection,
  status,
  busy,
  maxFileSizeMb,
}: {
  selection: Selected[];
  onSelection: (s: Selected[]) => void;
  status: Record<string, Status>;
  busy: boolean;
  maxFileSizeMb: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <ul
      aria-label={t('Selected files')}
      className="mt-4 divide-y divide-slate-200 dark:divide-slate-800"
    >
      {selection.map((s) => {
        const problem = sizeProblem(s.file.size, maxFileSizeMb);
        const st = status[s.key];
        return (
          <li key={s.key} className="py-2">
            <label className="flex items-center gap-3 text-sm">
              <input
                type="checkbox"
                checked={s.checked && !problem}
                disabled={busy || !!problem}
                onChange={(e) =>
                  onSelection(
                    selection.map((x) =>
                      x.key === s.key ? { ...x, checked: e.target.checked } : x,
                    ),
                  )
                }
                className="size-4 accent-indigo-600"
              />
              <span className="min-w-0 flex-1 truncate text-slate-900 dark:text-slate-100">
                {s.dir.length > 0 && (
                  <span className="text-slate-500 dark:text-slate-400">{s.dir.join('/')}/</span>
                )}
                {s.file.name}
              </span>
              <span className="text-slate-600 tabular-nums dark:text-slate-400">
                {formatBytes(s.file.size)}
              </span>
              {st?.done ? (
                <CheckCircle2 aria-label={t('Uploaded')} className="size-4 text-emerald-600" />
              ) : st?.skipped ? (
                <span className="text-slate-600 dark:text-slate-400">{t('Skipped')}</span>
              ) : st ? (
                <span className="w-10 text-right text-slate-700 tabular-nums dark:text-slate-300">
                  {formatNumber(st.percent / 100, { style: 'percent' })}
                </span>
              ) : null}
            </label>
            {st?.savedAs && (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {t('Saved as "{{name}}"', { name: st.savedAs })}
              </p>
            )}
            {st && !st.done && !st.error && !st.skipped && (
              <Progress
                label={t('Upload progress of {{name}}', { name: s.file.name })}
                value={st.percent}
              />
            )}
            {st?.retrying && !st.done && !st.error && (
              <p role="status" className="mt-1 text-sm text-amber-700 dark:text-amber-400">
                {t('Connection lost. Retrying...')}
              </p>
            )}
            {(problem ?? st?.error) && (
              <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                {t(problem ?? st?.error ?? '')}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
