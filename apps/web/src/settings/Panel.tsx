// A settings panel: a titled card with a short description, used by every settings section.
import type { ReactNode } from 'react';

export function Panel({
  title,
  description,
  children,
  tone = 'default',
  icon,
  level = 3,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  tone?: 'default' | 'danger';
  icon?: ReactNode;
  /** 3 inside a settings section; 2 for a panel that stands alone after them. */
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl border bg-white p-6 dark:bg-slate-900 ${
        tone === 'danger'
          ? 'border-red-200 dark:border-red-900/60'
          : 'border-slate-200 dark:border-slate-800'
      }`}
    >
      <div className="flex items-start gap-3">
        {icon && (
          <span
            aria-hidden="true"
            className={`mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-lg ${
              tone === 'danger'
                ? 'bg-red-50 text-red-600 dark:bg-red-950/60 dark:text-red-300'
                : 'bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300'
            }`}
          >
            {icon}
          </span>
        )}
        <div className="min-w-0">
          <Heading id={id} className="font-semibold text-slate-900 dark:text-white">
            {title}
          </Heading>
          {description && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
          )}
        </div>
      </div>
      <div className="mt-5">{children}</div>
    </section>
  );
}
