// One plan card of the subscription page: name, label, price, description, features and the
// action of docs/product.md §2: 'Current Plan', 'Pay Now' (normal user), 'Admin Upgrade (Free)' (admin) or
// 'Switch to Free' (downgrade), reading 'Processing...' or 'Downgrading...' while it runs. An
// account on Free that never had a trial is also offered one on each paid plan (issue 19); the
// plan on trial keeps 'Pay Now', to go on after the trial.
import { Check } from 'lucide-react';
import { trialMessages, type Plan, type Subscription } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatPrice, planBadges } from '../plans/planDisplay.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { planFeatures } from './planFeatures.ts';

export type PlanAction = 'pay' | 'admin' | 'free' | 'trial';

export const PAYMENTS_OFF = msg(
  'Card payments are not set up on this server. Ask the administrator to upgrade your plan.',
);

export function PlanOption({
  plan,
  subscription,
  isAdmin,
  busy,
  busyAction,
  disabled,
  paymentsOff = false,
  trialOffered = false,
  onAction,
}: {
  plan: Plan;
  subscription: Subscription;
  isAdmin: boolean;
  /** This card's change is running. */
  busy: boolean;
  /** Which of this card's actions runs (its main one when not given). */
  busyAction?: PlanAction;
  /** The account may start its one trial (on Free, never had one): offered on paid plans. */
  trialOffered?: boolean;
  /** Another change is running. */
  disabled: boolean;
  /** This server takes no card payments: a paid plan says so instead of a dead 'Pay Now'. */
  paymentsOff?: boolean;
  onAction: (plan: Plan, action: PlanAction) => void;
}) {
  const { t } = useTranslation();
  const current = plan.id === subscription.plan_id;
  const price = formatPrice(plan.price_monthly);
  const badge = planBadges[plan.id];
  const titleId = `subscription-plan-${plan.id}`;
  const scheduled = plan.id === 'free' && subscription.pending_plan_id === 'free';
  const onTrial = current && subscription.trial?.outcome === 'running';
  const offerTrial = trialOffered && !current && plan.id !== 'free';
  const trialBusy = busy && busyAction === 'trial';
  const mainBusy = busy && !trialBusy;

  let action: PlanAction | null = null;
  let label = t('Current Plan');
  if (!current && plan.id === 'free') {
    action = 'free';
    label = mainBusy
      ? t('Downgrading...')
      : scheduled
        ? t('Switch scheduled')
        : t('Switch to Free');
  } else if (!current || onTrial) {
    action = isAdmin ? 'admin' : 'pay';
    label = mainBusy ? t('Processing...') : isAdmin ? t('Admin Upgrade (Free)') : t('Pay Now');
  }

  return (
    <article
      aria-labelledby={titleId}
      data-current={current || undefined}
      className={`relative flex h-full flex-col rounded-2xl border bg-white p-6 dark:bg-slate-900 ${
        current
          ? 'border-indigo-500 shadow-lg ring-1 shadow-indigo-600/10 ring-indigo-500 dark:border-indigo-400 dark:ring-indigo-400'
          : 'border-slate-200 shadow-sm dark:border-slate-800'
      }`}
    >
      <div className="flex min-h-6 flex-wrap items-center justify-between gap-2">
        <h3
          id={titleId}
          translate="no"
          className="text-lg font-semibold text-slate-900 dark:text-white"
        >
          {plan.name}
        </h3>
        {current ? (
          <span className="rounded-full bg-indigo-600 px-2.5 py-0.5 text-xs font-semibold text-white dark:bg-indigo-500">
            {t('Current Plan')}
          </span>
        ) : (
          badge && (
            <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {t(badge)}
            </span>
          )
        )}
      </div>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-3xl font-extrabold tracking-tight text-slate-900 dark:text-white">
          {price.amount}
        </span>
        <span className="text-sm font-medium text-slate-500 dark:text-slate-400">
          {t(price.period)}
        </span>
      </p>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t(plan.description)}</p>
      <ul className="mt-5 mb-6 space-y-2.5 text-sm">
        {planFeatures(plan).map((f) => (
          <li key={f} className="flex items-start gap-2.5 text-slate-700 dark:text-slate-300">
            <Check
              aria-hidden="true"
              className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
            />
            {f}
          </li>
        ))}
      </ul>
      <div className="mt-auto space-y-3">
        {offerTrial && (
          <div>
            <button
              type="button"
              aria-label={`${trialBusy ? t('Processing...') : t(trialMessages.start)}: ${plan.name}`}
              disabled={busy || disabled}
              onClick={() => onAction(plan, 'trial')}
              className={buttonClass('primary', 'md', 'w-full')}
            >
              {trialBusy ? t('Processing...') : t(trialMessages.start)}
            </button>
            <p className="mt-1.5 text-center text-xs text-slate-500 dark:text-slate-400">
              {t(trialMessages.noCard)}
            </p>
          </div>
        )}
        {action === 'pay' && paymentsOff ? (
          <p className="rounded-lg border border-dashed border-slate-300 px-3 py-2.5 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
            {t(PAYMENTS_OFF)}
          </p>
        ) : (
          <button
            type="button"
            aria-label={
              action
                ? `${label}: ${plan.name}`
                : t('{{plan}} is your current plan', { plan: plan.name })
            }
            disabled={!action || busy || disabled || scheduled}
            onClick={() => action && onAction(plan, action)}
            className={buttonClass(
              (action === 'pay' || action === 'admin') && !offerTrial ? 'primary' : 'secondary',
              'md',
              'w-full',
            )}
          >
            {label}
          </button>
        )}
      </div>
    </article>
  );
}
