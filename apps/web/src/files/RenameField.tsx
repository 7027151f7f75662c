// Inline rename (docs/product.md §4 Rename): the name without its extension is edited, the extension is
// kept (a folder's whole name is edited). Enter confirms, Escape cancels; an unchanged or empty
// name cancels.
import { useEffect, useRef, useState } from 'react';
import { renamedName, splitName } from './model.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function RenameField({
  name,
  whole = false,
  onDone,
}: {
  name: string;
  /** Edit the whole name, extension and all (a folder). */
  whole?: boolean;
  /** The new full name, or null when the rename was cancelled. */
  onDone: (newName: string | null) => void;
}) {
  const { t } = useTranslation();
  const [base, ext] = whole ? [name, ''] : splitName(name);
  const [value, setValue] = useState(base);
  const ref = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (result: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(result);
  };
  return (
    <span className="flex min-w-0 items-center gap-1">
      <input
        ref={ref}
        aria-label={t('New name for {{name}}', { name })}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            const trimmed = value.trim();
            finish(
              whole ? (trimmed && trimmed !== name ? trimmed : null) : renamedName(name, value),
            );
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            finish(null);
          }
        }}
        onBlur={() => finish(null)}
        className="h-8 min-w-0 flex-1 rounded-md border border-indigo-400 bg-white px-2 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-500 dark:bg-slate-950 dark:text-white"
      />
      {ext && <span className="text-sm text-slate-500 dark:text-slate-400">{ext}</span>}
    </span>
  );
}
