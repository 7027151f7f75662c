// The pricing table, rendered from GET /api/plans: loading, error with retry, empty, or the plans.
// Not shown on a self-hosted instance (PLANS_MODE=self-hosted, issue 33): nothing is sold there.
import { messages } from '@sealvault/protocol/messages';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { buttonClass } from '../components/buttonStyles.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { usePlans } from '../plans/usePlans.ts';
import { useSelfHosted } from '../plans/usePlansMode.ts';
import { PlanCard } from './PlanCard.tsx';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

/** The plan the table highlights: the one labelled 'Most Popular'. */
const FEATURED_PLAN = 'basic';

export function Pricing() {
  const { t } = useTranslation();
  const shown = useAfterFirstPaint(); // [Note: landing below the fold]
  if (useSelfHosted() || !shown) return null;
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
            {t('Pricing')}
          </p>
          <h2
            id="pricing-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white"
          >
            {t('Simple, transparent pricing')}
          </h2>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
            {t('Every plan has the same end-to-end encryption. Pick the room you need.')}
          </p>
        </div>
        <div className="mt-14">
          <PlanList />
        </div>
      </div>
    </section>
  );
}

function PlanList() {
  const { t } = useTranslation();
  const { data: plans, isPending, isError, refetch, isFetching } = usePlans();

  if (isPending) {
    return (
      <div role="status" aria-live="polite">
        <span className="sr-only">{t('Loading plans…')}</span>
        <div aria-hidden="true" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <div
              key={i}
              className="h-96 animate-pulse rounded-2xl border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-900"
            />
          ))}
        </div>
      </div>
    );
  }

  if (isError) {
    return (
      <div
        role="alert"
        className="mx-auto flex max-w-md flex-col items-center rounded-2xl border border-amber-200 bg-amber-50 p-8 text-center dark:border-amber-900/60 dark:bg-amber-950/30"
      >
        <AlertTriangle aria-hidden="true" className="size-8 text-amber-600 dark:text-amber-400" />
        <p className="mt-3 font-semibold text-slate-900 dark:text-white">
          {t('We couldn’t load the plans.')}
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {t('Check your connection and try again.')}
        </p>
        <button
          type="button"
          onClick={() => void refetch()}
          disabled={isFetching}
          className={buttonClass('primary', 'md', 'mt-5')}
        >
          <RefreshCw aria-hidden="true" className={`size-4 ${isFetching ? 'animate-spin' : ''}`} />
          {isFetching ? t('Retrying…') : t('Try again')}
        </button>
      </div>
    );
  }

  if (plans.length === 0) {
    return (
      <p className="text-center text-slate-600 dark:text-slate-300">{t(messages.plans.noPlans)}</p>
    );
  }

  return (
    <ul role="list" aria-label={t('Plans')} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {plans.map((plan) => (
        <li key={plan.id}>
          <PlanCard plan={plan} featured={plan.id === FEATURED_PLAN} />
        </li>
      ))}
    </ul>
  );
}
