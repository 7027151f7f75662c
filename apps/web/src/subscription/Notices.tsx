// Status lines of the subscription page: a notice (info, success or error, the latter as an
// alert), a loading line and a load error with a retry.
import { AlertTriangle, CheckCircle2, Info, Loader2, RefreshCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { messages } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { useTranslation } from '../i18n/i18n.ts';

export type Notice = { tone: 'error' | 'info' | 'success'; text: string };

export function NoticeBar({
  notice,
  onDismiss,
  busy = false,
}: {
  notice: Notice;
  onDismiss?: () => void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  // A notice answers a button further down the page: bring it into view.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [notice.text]);
  const tones = {
    error:
      'border-red-300 bg-red-50 text-red-800 dark:border-red-800/70 dark:bg-red-950/50 dark:text-red-200',
    info: 'border-indigo-200 bg-indigo-50 text-indigo-900 dark:border-indigo-800/70 dark:bg-indigo-950/50 dark:text-indigo-200',
    success:
      'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800/70 dark:bg-emerald-950/50 dark:text-emerald-200',
  } as const;
  const Icon = busy
    ? Loader2
    : notice.tone === 'error'
      ? AlertTriangle
      : notice.tone === 'success'
        ? CheckCircle2
        : Info;
  return (
    <div
      ref={ref}
      role={notice.tone === 'error' ? 'alert' : 'status'}
      className={`flex items-start justify-between gap-3 rounded-xl border px-4 py-3 text-sm ${tones[notice.tone]}`}
    >
      <span className="flex items-start gap-2">
        <Icon
          aria-hidden="true"
          className={`mt-0.5 size-4 shrink-0 ${busy ? 'animate-spin' : ''}`}
        />
        {t(notice.text)}
      </span>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          className="shrink-0 rounded font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          {t('Dismiss')}
        </button>
      )}
    </div>
  );
}

export function Loading({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
      <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {text}
    </p>
  );
}

export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="flex items-center gap-3 text-sm text-red-700 dark:text-red-400">
      {t(messages.plans.unexpected)}
      <button type="button" onClick={onRetry} className={buttonClass('secondary')}>
        <RefreshCw aria-hidden="true" className="size-4" /> {t('Retry')}
      </button>
    </div>
  );
}
