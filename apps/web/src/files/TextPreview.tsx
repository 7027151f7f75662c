// The previews of text (docs/product.md "Previewer"): plain text and code in a monospace block,
// Markdown rendered (MarkdownView.tsx), CSV and TSV as a table (CsvView.tsx), each of the last two
// with a button to see the file's plain text instead. Only the first 2 MB are ever shown. The
// Markdown and CSV views load on first use, so the vault screen does not carry their libraries; if
// one cannot load, the plain text is shown.
import { Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

export type TextFormat = 'plain' | 'markdown' | 'csv';

import type * as CsvModule from './CsvView.tsx';
import type * as MarkdownModule from './MarkdownView.tsx';

type Views = typeof MarkdownModule & typeof CsvModule;
let views: Promise<Views> | null = null;
function loadViews(): Promise<Views> {
  views ??= Promise.all([import('./MarkdownView.tsx'), import('./CsvView.tsx')]).then(
    ([markdown, csv]) => ({ ...markdown, ...csv }),
  );
  views.catch(() => (views = null)); // a later preview tries again
  return views;
}

/** The Markdown and CSV views once loaded; 'failed' when they cannot be. */
function useViews(needed: boolean): Views | 'failed' | null {
  const [loaded, setLoaded] = useState<Views | 'failed' | null>(null);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    loadViews().then(
      (v) => live && setLoaded(v),
      () => live && setLoaded('failed'),
    );
    return () => {
      live = false;
    };
  }, [needed]);
  return loaded;
}

const TOGGLE = {
  markdown: [msg('Show source'), msg('Show formatted')],
  csv: [msg('Show as text'), msg('Show as table')],
} as const;

function PlainText({ text }: { text: string }) {
  return (
    <pre className="max-h-[70vh] overflow-auto rounded-lg bg-slate-50 p-4 font-mono text-sm whitespace-pre-wrap text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {text}
    </pre>
  );
}

export function TextPreview({
  text,
  truncated,
  format,
  name,
}: {
  text: string;
  /** The file is longer than the 2 MB shown. */
  truncated: boolean;
  format: TextFormat;
  name: string;
}) {
  const { t } = useTranslation();
  const [asText, setAsText] = useState(false);
  const v = useViews(format !== 'plain');
  let body;
  if (format === 'plain' || asText || v === 'failed') body = <PlainText text={text} />;
  else if (v === null)
    body = (
      <p role="status" className="flex justify-center py-16">
        <Loader2 aria-label={t('Loading')} className="size-5 animate-spin text-slate-500" />
      </p>
    );
  else if (format === 'markdown') body = <v.MarkdownView text={text} />;
  else body = <v.CsvView text={text} name={name} truncated={truncated} />;
  return (
    <>
      {format !== 'plain' && v !== 'failed' && (
        <div className="mb-3 flex justify-end">
          <button
            type="button"
            onClick={() => setAsText((on) => !on)}
            className={buttonClass('secondary', 'md', '!h-8 !px-3')}
          >
            {t(TOGGLE[format][asText ? 1 : 0])}
          </button>
        </div>
      )}
      {body}
      {truncated && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {t('Only the first 2 MB are shown. Download the file to see all of it.')}
        </p>
      )}
    </>
  );
}
