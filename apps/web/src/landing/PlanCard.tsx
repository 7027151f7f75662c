// One plan of the pricing table: name, description, price, limits, features (the plans table's),
// trial note and a CTA. The seeded plans' descriptions and feature lines are shown in the
// reader's language (catalogued from the protocol's FALLBACK_PLANS); an operator's own as written.
import type { Plan } from '@sealvault/protocol';
import { formatPlanSize, isUnlimited, TRIAL_DAYS } from '@sealvault/protocol/plan-rules';
import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatNumber } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatPrice, isFreePlan, planBadges } from '../plans/planDisplay.ts';
import { signUpPath } from './links.ts';

export function PlanCard({ plan, featured }: { plan: Plan; featured: boolean }) {
  const { t } = useTranslation();
  const free = isFreePlan(plan);
  const price = formatPrice(plan.price_monthly);
  const badge = planBadges[plan.id];
  const titleId = `plan-${plan.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className={`relative flex h-full flex-col rounded-2xl border bg-white p-6 dark:bg-slate-900 ${
        featured
          ? 'border-indigo-500 shadow-lg ring-1 shadow-indigo-600/10 ring-indigo-500 dark:border-indigo-400 dark:ring-indigo-400'
          : 'border-slate-200 shadow-sm dark:border-slate-800'
      }`}
    >
      <div className="flex items-center justify-between gap-2">
        <h3
          id={titleId}
          translate="no"
          className="text-lg font-semibold text-slate-900 dark:text-white"
        >
          {plan.name}
        </h3>
        {badge && (
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
              featured
                ? 'bg-indigo-600 text-white dark:bg-indigo-500'
                : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
            }`}
          >
            {t(badge)}
          </span>
        )}
      </div>
      <p className="mt-2 text-sm sm:min-h-15 text-slate-600 dark:text-slate-400">
        {t(plan.description)}
      </p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight text-slate-900 dark:text-white">
          {price.amount}
        </span>
        <span className="text-sm font-medium text-slate-500 dark:text-slate-400">
          {t(price.period)}
        </span>
      </p>
      {free ? (
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('No card needed')}</p>
      ) : (
        <p className="mt-1 text-sm font-medium text-emerald-700 dark:text-emerald-400">
          {t('Includes a {{days}}-day free trial', { days: formatNumber(TRIAL_DAYS) })}
        </p>
      )}
      <dl className="mt-6 space-y-3 text-sm">
        <Limit
          label={t('Vaults')}
          value={isUnlimited(plan.max_vaults) ? t('Unlimited') : formatNumber(plan.max_vaults)}
        />
        <Limit
          label={t('Max file size')}
          value={
            isUnlimited(plan.max_file_size_mb)
              ? t('Unlimited')
              : formatPlanSize(plan.max_file_size_mb)
          }
        />
      </dl>
      {/* The plans table's feature lines (issue 19), after the limits it also holds. */}
      <ul
        aria-label={t('{{plan}} features', { plan: plan.name })}
        className="mt-3 mb-8 space-y-3 text-sm"
      >
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-center gap-3 text-slate-700 dark:text-slate-300">
            <Check
              aria-hidden="true"
              className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
            />
            {t(feature)}
          </li>
        ))}
      </ul>
      <Link
        to={signUpPath()}
        aria-label={
          free
            ? t('Start free with the {{plan}} plan', { plan: plan.name })
            : t('Start free trial with the {{plan}} plan', { plan: plan.name })
        }
        className={buttonClass(featured ? 'primary' : 'secondary', 'md', 'mt-auto w-full')}
      >
        {free ? t('Start Free') : t('Start Free Trial')}
      </Link>
    </article>
  );
}

function Limit({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center gap-3">
      <Check
        aria-hidden="true"
        className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
      />
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="ml-auto font-semibold text-slate-900 dark:text-white">{value}</dd>
    </div>
  );
}
