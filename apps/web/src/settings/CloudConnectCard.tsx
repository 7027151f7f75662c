// A connect card of 'Cloud Storage Settings': one cloud provider, its connection state and the
// action that state offers (cloudConnection.ts decides which).
import { AlertCircle, CheckCircle2, Loader2, RotateCw } from 'lucide-react';
import { useId } from 'react';
import type { ProviderType } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { providerInfo } from '../vaults/providers.tsx';
import { cloudCardView, type CloudCardState, type CloudCardView } from './cloudConnection.ts';
import { isPopupBlocked, PopupSteps } from './PopupSteps.tsx';

const toneClass: Record<CloudCardView['tone'], string> = {
  muted: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  neutral: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  busy: 'bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200',
  ok: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300',
  error: 'bg-red-50 text-red-800 dark:bg-red-950/60 dark:text-red-300',
};

export function CloudConnectCard({
  provider,
  state,
  onConnect,
  onDisconnect,
}: {
  provider: ProviderType;
  state: CloudCardState;
  /** Needed in the states that offer Connect ('disconnected', 'connecting', 'failed'). */
  onConnect?: () => void;
  /** Needed in the state that offers Disconnect ('connected'). */
  onDisconnect?: () => void;
}) {
  const info = providerInfo(provider);
  const view = cloudCardView(info.name, state);
  const headingId = useId();
  const failed = state.status === 'failed';
  return (
    <section
      aria-labelledby={headingId}
      className={`flex flex-col rounded-2xl border p-5 ${
        failed
          ? 'border-red-200 bg-red-50 dark:border-red-900/60 dark:bg-red-950/40'
          : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'
      }`}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        >
          <info.icon className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h4 id={headingId} className="font-semibold text-slate-900 dark:text-white">
            {view.heading}
          </h4>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs">
            {failed && <span className="text-slate-700 dark:text-slate-300">{info.name}</span>}
            <span className={`rounded-full px-2 py-0.5 font-medium ${toneClass[view.tone]}`}>
              {view.status}
            </span>
          </p>
        </div>
      </div>
      <p
        role={failed ? 'alert' : undefined}
        className={`mt-3 flex-1 text-sm ${
          failed ? 'text-red-800 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'
        }`}
      >
        {failed && <AlertCircle aria-hidden="true" className="mr-1.5 inline size-4 align-[-3px]" />}
        {state.status === 'connected' && (
          <CheckCircle2
            aria-hidden="true"
            className="mr-1.5 inline size-4 align-[-3px] text-emerald-600 dark:text-emerald-400"
          />
        )}
        {view.message}
      </p>
      {failed && isPopupBlocked(state.error) && (
        <PopupSteps className="mt-2 text-red-800 dark:text-red-300" />
      )}
      {view.action && (
        <div className="mt-4">
          <button
            type="button"
            disabled={view.action.disabled}
            onClick={view.action.kind === 'connect' ? onConnect : onDisconnect}
            aria-label={`${view.action.label} ${info.name}`}
            // A hand over every enabled action (Tailwind's buttons keep the arrow), so the
            // Connect of a failed card reads as the live button it is (issue 25); only
            // 'Connecting...' is disabled.
            className={buttonClass(
              view.action.kind === 'connect' ? 'primary' : 'secondary',
              'md',
              'enabled:cursor-pointer',
            )}
          >
            {state.status === 'connecting' && (
              <Loader2 aria-hidden="true" className="size-4 animate-spin" />
            )}
            {failed && <RotateCw aria-hidden="true" className="size-4" />}
            {view.action.label}
          </button>
        </div>
      )}
    </section>
  );
}
