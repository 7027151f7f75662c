// [Note: dashboard frame before the app] (index.html): where index.html showed the dashboard's
// frame, the guard's loading state draws the same frame instead of its spinner, so that a session
// check still out when React first renders does not flash a spinner between the frame and the
// dashboard. The frame is drawn as index.html draws it (keep the two in step: the e2e spec
// vaults/dashboard-frame.spec.ts compares them); screen readers hear the guard's loading message.
import { Lock } from 'lucide-react';
import { LogoMark } from '../components/Logo.tsx';
import { useTranslation } from '../i18n/i18n.ts';

export function DashboardLoading() {
  const { t } = useTranslation();
  return (
    <div className="min-h-dvh bg-slate-50 dark:bg-slate-950">
      <p role="status" className="sr-only">
        {t('Loading your account...')}
      </p>
      <div aria-hidden="true" data-testid="dashboard-loading">
        <div className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
          <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
            <span className="flex shrink-0 items-center gap-2.5">
              <LogoMark className="size-8" />
              <span className="text-lg font-bold tracking-tight text-slate-900 max-sm:hidden dark:text-white">
                SealVault
              </span>
            </span>
            <span className="inline-flex shrink-0 items-center gap-1 rounded-full border border-emerald-200 bg-emerald-50 px-1.5 py-1 text-xs font-medium text-emerald-700 sm:px-2.5 sm:py-0.5 dark:border-emerald-900/70 dark:bg-emerald-950/60 dark:text-emerald-300">
              <Lock className="size-3" />
              <span className="max-sm:hidden">{t('End-to-End Encrypted')}</span>
            </span>
          </div>
        </div>
        <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <div className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
                {t('Your Vaults')}
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {t("Everything in a vault is encrypted on this device with the vault's password.")}
              </p>
              <div className="mt-2 h-6" />
            </div>
            {/* The usage box's place, its two bars' tracks (vaults/UsageBar.tsx) without figures. */}
            <div className="flex w-full max-w-sm flex-col gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900">
              {[0, 1].map((bar) => (
                <div key={bar}>
                  <div className="mb-1.5 h-5" />
                  <div className="h-2 rounded-full bg-slate-200 dark:bg-slate-800" />
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
