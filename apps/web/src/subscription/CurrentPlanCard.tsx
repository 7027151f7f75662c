// The current plan summary of the subscription page: the plan with its star, price and period,
// a running trial's end, a scheduled change (a switch to free can be called off; a paid one
// cannot), the limits, the usage bars of vaults and storage, and after a trial that lapsed the
// vaults that are now read-only ([Note: read-only after a trial] in the protocol's trials.ts).
import { CalendarClock, Lock, Star } from 'lucide-react';
import {
  formatPlanSize,
  trialMessages,
  type Plan,
  type SubscriptionResponse,
} from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatDate, formatNumber } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatPrice } from '../plans/planDisplay.ts';
import { StorageUsageBar, UsageBar } from '../vaults/UsageBar.tsx';

const longDate = (iso: string) =>
  formatDate(iso, { year: 'numeric', month: 'short', day: 'numeric' });

export function CurrentPlanCard({
  data,
  plan,
  pendingPlan,
  trialPlan,
  onKeep,
  keeping,
}: {
  data: SubscriptionResponse;
  plan: Plan | undefined;
  /** The plan a scheduled change switches to at the period's end. */
  pendingPlan: Plan | undefined;
  /** The plan of the account's trial, if it had one. */
  trialPlan?: Plan | undefined;
  onKeep: () => void;
  keeping: boolean;
}) {
  const { t } = useTranslation();
  const { subscription, limits, vault_count, read_only_vaults: readOnly } = data;
  const free = subscription.plan_id === 'free';
  const price = plan ? formatPrice(plan.price_monthly) : null;
  const trial = subscription.trial;
  const onTrial = trial?.outcome === 'running';
  const lapsed = free && trial?.outcome === 'lapsed';
  return (
    <section
      aria-labelledby="current-plan-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-6">
        <div>
          <h2 id="current-plan-title" className="text-sm text-slate-600 dark:text-slate-400">
            {t('Current plan')}
          </h2>
          <p className="mt-1 flex items-center gap-2 text-2xl font-bold text-slate-900 dark:text-white">
            <Star
              aria-hidden="true"
              className={`size-5 ${free ? 'text-slate-400' : 'fill-amber-400 text-amber-500'}`}
            />
            <span data-testid="current-plan-name" translate="no">
              {limits.plan_name}
            </span>
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950/60 dark:text-emerald-300">
              {onTrial ? t('Trial') : t('Active')}
            </span>
          </p>
          {onTrial && (
            <p
              data-testid="trial-ends"
              className="mt-1 flex items-center gap-1.5 text-sm font-medium text-indigo-700 dark:text-indigo-300"
            >
              <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
              {t(trialMessages.ends(longDate(trial.ends_at)))}
            </p>
          )}
          {price && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {price.amount} {t(price.period)}
              {subscription.current_period_end &&
                !subscription.pending_plan_id &&
                ` · ${t('Paid until {{date}}', { date: longDate(subscription.current_period_end) })}`}
            </p>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-x-8 gap-y-1 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">{t('Vaults')}</dt>
          <dd className="font-medium text-slate-900 dark:text-white">
            {limits.max_vaults === -1 ? t('Unlimited') : formatNumber(limits.max_vaults)}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">{t('Max file size')}</dt>
          <dd className="font-medium text-slate-900 dark:text-white">
            {formatPlanSize(limits.max_file_size_mb)}
          </dd>
          {limits.max_storage_mb !== undefined && (
            <>
              <dt className="text-slate-600 dark:text-slate-400">{t('Storage')}</dt>
              <dd className="font-medium text-slate-900 dark:text-white">
                {formatPlanSize(limits.max_storage_mb)}
              </dd>
            </>
          )}
        </dl>
      </div>

      <div className="mt-6 grid gap-x-8 gap-y-4 sm:grid-cols-2">
        <UsageBar count={vault_count} max={limits.max_vaults} />
        {limits.max_storage_mb !== undefined && limits.storage_used_bytes !== undefined && (
          <StorageUsageBar usedBytes={limits.storage_used_bytes} maxMb={limits.max_storage_mb} />
        )}
      </div>

      {onTrial && (
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          {t(
            'No card is on file. Without a payment, your account returns to the Free plan when the trial ends; nothing is deleted.',
          )}
        </p>
      )}

      {lapsed && (
        <div
          role="status"
          data-testid="trial-lapsed"
          className="mt-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-200"
        >
          <p className="flex items-center gap-2 font-medium">
            <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
            {t(trialMessages.lapsed(trialPlan?.name ?? 'paid', longDate(trial.ends_at)))}
          </p>
          {readOnly.length > 0 && (
            <>
              <p className="mt-2">{t(trialMessages.readOnlyList(readOnly.length))}</p>
              <ul aria-label={t('Read-only vaults')} className="mt-2 flex flex-wrap gap-2">
                {readOnly.map((v) => (
                  <li
                    key={v.id}
                    className="inline-flex max-w-full items-center gap-1.5 rounded-full bg-white/70 px-2.5 py-0.5 text-xs font-medium dark:bg-slate-900/60"
                  >
                    <Lock aria-hidden="true" className="size-3 shrink-0" />
                    <span className="truncate">{v.name}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}

      {subscription.pending_plan_id && subscription.current_period_end && (
        <div
          role="status"
          className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-200"
        >
          <span className="flex items-center gap-2">
            <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
            {t('Your plan switches to {{plan}} on {{date}}, at the end of the billing period.', {
              plan: pendingPlan?.name ?? 'Free',
              date: longDate(subscription.current_period_end),
            })}
          </span>
          {/* A switch to free can be called off; a cheaper plan already paid for cannot. */}
          {subscription.pending_plan_id === 'free' && (
            <button
              type="button"
              onClick={onKeep}
              disabled={keeping}
              className={buttonClass('secondary', 'md', '!h-9')}
            >
              {keeping ? t('Processing...') : t('Keep {{plan}}', { plan: limits.plan_name })}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
