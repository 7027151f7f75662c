// The Subscription page (docs/product.md §2), at /subscription and /dashboard?view=subscription: the heading
// with an 'Admin' badge for admins, the current plan and usage, the plan cards with their actions,
// the empty state and the FAQ. A paid plan starts only when the provider's signed notification
// reaches the server; 'Pay Now' leaves for the checkout's own page (checkout/open.ts), and coming
// back from the checkout, the page polls until the plan changes. An
// account on Free that never had a trial may try a paid plan for TRIAL_DAYS (issue 19), unless its
// e-mail had one on an earlier, deleted account (earlier_trial, issue 25). On a self-hosted
// instance (PLANS_MODE=self-hosted, issue 33) it shows the plan and usage only: no plan cards, no
// checkout, no trial, no FAQ about payments; an admin still gets the plan cards to grant a plan.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  messages,
  subscriptionMessages,
  subscriptionsApi,
  type PaidPlanId,
  type Plan,
  type PlanId,
  type SubscriptionResponse,
  userMessage,
} from '@sealvault/protocol';
import { useProfile } from '../auth/useAccount.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { usePlans } from '../plans/usePlans.ts';
import { useSelfHosted } from '../plans/usePlansMode.ts';
import { CurrentPlanCard } from './CurrentPlanCard.tsx';
import { Faq } from './Faq.tsx';
import { LoadError, Loading, NoticeBar, type Notice } from './Notices.tsx';
import { openCheckoutPage } from '../checkout/open.ts';
import { isCheckoutReturn } from './planFeatures.ts';
import { PlanOption, type PlanAction } from './PlanOption.tsx';
import { SwitchToFreeDialog } from './SwitchToFreeDialog.tsx';
import {
  useChangePlan,
  usePaymentsConfig,
  useRefreshPlan,
  useSubscription,
  type PlanChange,
} from './useSubscription.ts';

const RETURN_POLL_MS = 3000;
const RETURN_POLL_FOR_MS = 2 * 60_000;
/** A paid period runs a month; anything ending 27+ days after the return is the new one. */
const PAID_PERIOD_MIN_MS = 27 * 24 * 3_600_000;

/** Whether a paid period started after `since` (a period runs a month from the payment). */
const isNewPeriod = (data: SubscriptionResponse, since: number): boolean => {
  const end = data.subscription.current_period_end;
  return end !== null && new Date(end).getTime() > since + PAID_PERIOD_MIN_MS;
};

export function SubscriptionView() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const returning = isCheckoutReturn(search);
  const [returnedAt] = useState(() => Date.now());
  const [gaveUp, setGaveUp] = useState(false);
  const profile = useProfile();
  const isAdmin = profile.data?.role === 'admin';
  const selfHosted = useSelfHosted();
  const plans = usePlans();
  const sub = useSubscription({
    pollMs: returning && !gaveUp ? RETURN_POLL_MS : undefined,
    until: (data) => isNewPeriod(data, returnedAt),
  });
  const payments = usePaymentsConfig();
  const change = useChangePlan();
  const refresh = useRefreshPlan();
  const [busyPlan, setBusyPlan] = useState<PlanId | null>(null);
  const [busyAction, setBusyAction] = useState<PlanAction | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirmFree, setConfirmFree] = useState(false);
  const planId = sub.data?.subscription.plan_id;

  // Back from the checkout: poll until the provider's notification has started a paid period
  // (its end is about a month after the return), then refresh the top bar and the limits.
  const confirmed = sub.data ? isNewPeriod(sub.data, returnedAt) : false;
  const waiting = returning && !confirmed && !gaveUp;
  useEffect(() => {
    if (!returning) return;
    const stop = window.setTimeout(() => setGaveUp(true), RETURN_POLL_FOR_MS);
    return () => window.clearTimeout(stop);
  }, [returning]);
  useEffect(() => {
    if (returning && confirmed) void refresh();
  }, [returning, confirmed, refresh]);

  const runChange = (planChange: PlanChange, done?: () => void) => {
    setNotice(null);
    setBusyPlan(planChange.planId);
    setBusyAction(planChange.kind === 'trial' ? 'trial' : undefined);
    change.mutate(planChange, {
      onSuccess: (data) => {
        if (planChange.kind === 'trial' && data.subscription.trial) {
          const name = plans.data?.find((p) => p.id === planChange.planId)?.name ?? t('plan');
          setNotice({ tone: 'success', text: t('Your {{name}} trial has started.', { name }) });
        }
      },
      onError: (err) =>
        setNotice({ tone: 'error', text: t(userMessage(err, messages.plans.upgradeFailed)) }),
      onSettled: () => {
        setBusyPlan(null);
        setBusyAction(undefined);
        done?.();
      },
    });
  };

  const pay = async (plan: Plan) => {
    setNotice(null);
    const config = payments.data ?? (await payments.refetch()).data;
    if (!config?.configured) {
      setNotice({ tone: 'info', text: t(subscriptionMessages.paymentsNotConfigured) });
      return;
    }
    setBusyPlan(plan.id);
    try {
      const checkout = await subscriptionsApi.checkout({ plan_id: plan.id as PaidPlanId });
      // The provider's script runs only in the checkout's own page, never beside the app.
      openCheckoutPage(checkout.reference);
    } catch (err) {
      setNotice({
        tone: 'error',
        text: subscriptionMessages.paymentError(t(userMessage(err, messages.plans.unexpected))),
      });
      setBusyPlan(null);
    }
  };

  const onAction = (plan: Plan, action: PlanAction) => {
    if (action === 'admin') runChange({ kind: 'admin', planId: plan.id });
    else if (action === 'free') setConfirmFree(true);
    else if (action === 'trial' && plan.id !== 'free')
      runChange({ kind: 'trial', planId: plan.id });
    else void pay(plan);
  };

  const currentPlan = plans.data?.find((p) => p.id === planId);
  const trialOffered =
    !isAdmin &&
    !selfHosted &&
    sub.data?.subscription.plan_id === 'free' &&
    sub.data.subscription.trial === null &&
    !sub.data.subscription.earlier_trial;

  return (
    <section aria-labelledby="subscription-title" className="space-y-8">
      <div>
        <div className="flex flex-wrap items-center gap-3">
          <h1
            id="subscription-title"
            className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            {t('Subscription Management')}
          </h1>
          {isAdmin && (
            <span className="rounded-full bg-indigo-100 px-2.5 py-0.5 text-xs font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
              {t('Admin')}
            </span>
          )}
        </div>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {selfHosted
            ? t('Your plan on this server and what it holds.')
            : t('Choose the plan that fits how many vaults you keep and how large your files are.')}
        </p>
      </div>

      {returning && confirmed && (
        <NoticeBar
          notice={{ tone: 'success', text: t('Payment confirmed. Your new plan is active.') }}
        />
      )}
      {waiting && (
        <NoticeBar
          notice={{
            tone: 'info',
            text: t(
              'Thank you! Your payment is being confirmed. Your plan changes as soon as the payment provider confirms it, usually within a minute.',
            ),
          }}
          busy
        />
      )}
      {notice && <NoticeBar notice={notice} onDismiss={() => setNotice(null)} />}

      {sub.isError ? (
        <LoadError onRetry={() => void sub.refetch()} />
      ) : sub.data ? (
        <CurrentPlanCard
          data={sub.data}
          plan={currentPlan}
          pendingPlan={plans.data?.find((p) => p.id === sub.data?.subscription.pending_plan_id)}
          trialPlan={plans.data?.find((p) => p.id === sub.data?.subscription.trial?.plan_id)}
          keeping={busyPlan === planId && change.isPending}
          onKeep={() => planId && runChange({ kind: 'request', planId })}
        />
      ) : (
        <Loading text={t('Loading your plan…')} />
      )}

      {(!selfHosted || isAdmin) && (
        <section aria-labelledby="plans-title" className="space-y-4">
          <h2 id="plans-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            {t('Plans')}
          </h2>
          {plans.isError ? (
            <LoadError onRetry={() => void plans.refetch()} />
          ) : plans.isPending || !sub.data ? (
            <Loading text={t('Loading plans…')} />
          ) : plans.data.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-slate-300 px-6 py-10 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
              {t(messages.plans.noPlans)}
            </p>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              {plans.data.map((plan) => (
                <PlanOption
                  key={plan.id}
                  plan={plan}
                  subscription={sub.data.subscription}
                  isAdmin={isAdmin}
                  busy={busyPlan === plan.id}
                  busyAction={busyAction}
                  disabled={busyPlan !== null}
                  paymentsOff={payments.data?.configured === false}
                  trialOffered={trialOffered}
                  onAction={onAction}
                />
              ))}
            </div>
          )}
        </section>
      )}

      {!selfHosted && <Faq />}

      {sub.data && (
        <SwitchToFreeDialog
          open={confirmFree}
          subscription={sub.data.subscription}
          planName={sub.data.limits.plan_name}
          running={busyPlan === 'free'}
          onClose={() => setConfirmFree(false)}
          onConfirm={() =>
            runChange({ kind: 'request', planId: 'free' }, () => setConfirmFree(false))
          }
        />
      )}
    </section>
  );
}
