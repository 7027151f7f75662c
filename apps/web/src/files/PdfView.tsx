// A PDF preview with pdf.js (spec: page 1 at scale 1.5, page navigation). pdf.js runs its parser
// in its own Worker, loaded from the app's bundle; the document comes in as bytes, never a URL.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

import type * as PdfJsModule from 'pdfjs-dist';

type PdfJs = typeof PdfJsModule;
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | null = null;
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  return pdfjs;
}

const EMPTY = msg('PDF data is empty or invalid.');

export function PdfView({ data }: { data: Uint8Array }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let task: ReturnType<PdfJs['getDocument']> | null = null;
    if (data.length === 0) return;
    loadPdfJs()
      .then((lib) => {
        if (cancelled) return null;
        task = lib.getDocument({ data: data.slice() });
        return task.promise;
      })
      .then((d) => {
        if (d && !cancelled) setDoc(d);
      })
      .catch(() => !cancelled && setError(EMPTY));
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [data]);

  useEffect(() => {
    if (!doc) return;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    let cancelled = false;
    void (async () => {
      try {
        const p = await doc.getPage(page);
        const el = canvas.current;
        if (cancelled) return;
        if (!el) {
          setError(msg('Canvas not found.'));
          return;
        }
        const viewport = p.getViewport({ scale: 1.5 });
        el.width = viewport.width;
        el.height = viewport.height;
        task = p.render({ canvas: el, viewport });
        await task.promise;
      } catch (err) {
        if (!cancelled && (err as Error).name !== 'RenderingCancelledException') {
          setError(msg('Failed to render PDF.'));
        }
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page]);

  const shown = data.length === 0 ? EMPTY : error;
  if (shown)
    return (
      <p role="alert" className="text-center text-red-700 dark:text-red-400">
        {t(shown)}
      </p>
    );
  const pages = doc?.numPages ?? 0;
  return (
    <div className="flex flex-col items-center gap-3">
      {pages > 1 && (
        <div className="flex items-center gap-3">
          <button
            type="button"
            aria-label={t('Previous page')}
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
            className={buttonClass('secondary')}
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
          </button>
          <span aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300">
            {t('Page {{page}} of {{pages}}', {
              page: formatNumber(page),
              pages: formatNumber(pages),
            })}
          </span>
          <button
            type="button"
            aria-label={t('Next page')}
            disabled={page >= pages}
            onClick={() => setPage((p) => p + 1)}
            className={buttonClass('secondary')}
          >
            <ChevronRight aria-hidden="true" className="size-4" />
          </button>
        </div>
      )}
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('PDF page {{page}} of {{pages}}', {
          page: formatNumber(page),
          pages: pages ? formatNumber(pages) : '…',
        })}
        className="max-w-full bg-white shadow"
      />
    </div>
  );
}
