// Plan changes (docs/product.md §4 Plan, §5 Plans, §6 roles, §7 upgrade_user_subscription and
// upgrade_user_subscription_admin):
// - a paid plan starts only from a verified payment notification (applyPaidPlan, called by
//   payments.service.ts), which stores the end of the paid period (+1 month); a cheaper paid
//   plan, like free, waits for the end of the dearer plan's running period;
// - without a payment a user may only switch down to free: with a paid period running it is
//   scheduled for the period's end, otherwise it applies at once;
// - an admin may put any user (by default themselves) on any plan, without a paid period;
// - a trial (trials.service.ts) ends when the plan changes: back to free it has lapsed
//   ([Note: read-only after a trial] in the protocol's trials.ts), a payment or an admin's grant
//   takes it over; paying for the plan on trial starts the paid month at the trial's end.
// Every change writes the user_subscriptions row and profiles.current_plan_id in one transaction.
import {
  messages,
  planIdSchema,
  subscriptionMessages,
  type AdminUpgradeRequest,
  type PlanId,
  type SubscriptionResponse,
} from '@sealvault/protocol';
import { recordAdminAction } from '../admin/audit.repository.ts';
import type { SessionUser } from '../auth/auth.middleware.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import { readOnlyVaults } from '../plans/read-only.ts';
import type { PeriodicJob } from '../jobs/periodic.ts';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import { countVaults } from '../vaults/vaults.repository.ts';
import * as repo from './subscriptions.repository.ts';

export type Deps = Pick<AppDeps, 'db' | 'now' | 'logger'>;

/** [Note: user deletion hooks] A deleted account's subscription and payments go with it. */
export const deleteSubscriptionsOfUser: UserDeletedHook = async ({ db, userId }) => {
  await repo.deleteSubscriptionData(db.kysely, userId);
};

/** One calendar month later, clamped to the month's last day (Jan 31 -> Feb 28/29). */
export function addOneMonth(from: Date): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(from);
  d.setUTCDate(1);
  d.setUTCFullYear(y, m, Math.min(from.getUTCDate(), lastDay));
  return d;
}

/** A paid plan whose period ended this long ago without a renewal falls back to free. */
export const LAPSE_GRACE_MS = 3 * 24 * 3_600_000;

const notAuthenticated = () => new HttpError(401, 'unauthorized', messages.auth.notAuthenticated);

export async function subscriptionResponse(
  deps: Deps,
  userId: string,
): Promise<SubscriptionResponse> {
  const db = deps.db.kysely;
  const subscription = await repo.readSubscription(db, userId);
  if (!subscription) throw notAuthenticated();
  return {
    subscription,
    // The storage used beside its quota, as GET /api/limits has it (the page's usage bars).
    limits: {
      ...(await getLimits(db, userId, deps.logger)),
      storage_used_bytes: await storageUsed(db, userId),
    },
    vault_count: await countVaults(db, userId),
    read_only_vaults: (await readOnlyVaults(db, userId, deps.logger)).map(({ id, name }) => ({
      id,
      name,
    })),
  };
}

/**
 * Puts the user on `planId`. A running trial ends with it: lapsed when the plan is free, else
 * 'paid' or 'granted' by `paid`; a lapsed trial's read-only rule ends when a paid plan starts.
 */
export async function changePlan(
  trx: repo.Q,
  userId: string,
  planId: PlanId,
  now: Date,
  periodEnd: string | null,
  opts: { paid: boolean; providerRef?: string | null },
): Promise<void> {
  const at = now.toISOString();
  const before = await repo.findSubscription(trx, userId);
  await repo.writePlan(trx, userId, { planId, periodEnd, now: at, providerRef: opts.providerRef });
  if (planId !== 'pro') await repo.unhideVaults(trx, userId, at);
  const trial = before && repo.trialOf(before);
  const outcome = planId === 'free' ? 'lapsed' : opts.paid ? 'paid' : 'granted';
  if (trial?.outcome === 'running') {
    await repo.settleTrial(trx, userId, outcome, trial.ends_at > at ? at : undefined);
  } else if (trial?.outcome === 'lapsed' && planId !== 'free') {
    await repo.settleTrial(trx, userId, outcome);
  }
}

/**
 * upgrade_user_subscription without a payment: only a switch down to free (docs/product.md §6), or keeping
 * the current paid plan, which cancels its scheduled downgrade.
 */
export async function requestPlanChange(
  deps: Deps,
  userId: string,
  planId: PlanId,
): Promise<SubscriptionResponse> {
  const now = deps.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const current = await repo.readSubscription(trx, userId);
    if (!current) throw notAuthenticated();
    if (planId !== 'free') {
      // A scheduled switch to free can be called off; a cheaper plan already paid for cannot.
      if (planId === current.plan_id && current.pending_plan_id === 'free') {
        await repo.setPendingPlan(trx, userId, null, now.toISOString());
        return;
      }
      throw new HttpError(403, 'forbidden', subscriptionMessages.paymentRequired);
    }
    if (current.plan_id === 'free') return;
    const paidUntil = current.current_period_end;
    if (paidUntil && paidUntil > now.toISOString()) {
      await repo.setPendingPlan(trx, userId, 'free', now.toISOString());
    } else {
      await changePlan(trx, userId, 'free', now, null, { paid: false });
    }
  });
  deps.logger.info({ userId, planId }, 'plan change requested');
  return subscriptionResponse(deps, userId);
}

/** upgrade_user_subscription_admin: admins only, any plan, no payment and no paid period. */
export async function adminUpgrade(
  deps: Deps,
  actor: SessionUser,
  input: AdminUpgradeRequest,
): Promise<SubscriptionResponse> {
  if (actor.role !== 'admin') throw new HttpError(403, 'forbidden', messages.plans.adminRequired);
  const target = input.user_id ?? actor.id;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const current = await repo.readSubscription(trx, target);
    if (!current) throw new HttpError(404, 'not_found', subscriptionMessages.unknownUser);
    await changePlan(trx, target, input.plan_id, deps.now(), null, { paid: false });
    // An admin action like the console's plan change (issue 33): in the audit log.
    await recordAdminAction(
      trx,
      {
        actorId: actor.id,
        action: 'user.plan',
        target,
        details: { from: current.plan_id, to: input.plan_id, via: 'admin-upgrade' },
      },
      deps.now(),
    );
  });
  deps.logger.info({ actor: actor.id, userId: target, planId: input.plan_id }, 'admin plan change');
  return subscriptionResponse(deps, target);
}

/** Plans in price order (planIdSchema lists them cheapest first). */
const rank = (planId: string) => planIdSchema.options.indexOf(planId as PlanId);

/**
 * A verified payment for `planId` (payments.service.ts, inside its transaction). Paying again
 * for the current plan extends its period by a month from its end; a dearer plan starts now; a
 * cheaper plan paid while a dearer one's period runs is a downgrade, so it waits for that period's
 * end (the job then starts its paid month, applyDueChanges). Paying for the plan on trial keeps
 * the trial's days: the paid month starts when the trial would have ended.
 */
export async function applyPaidPlan(
  trx: repo.Q,
  userId: string,
  planId: PlanId,
  now: Date,
  providerRef: string | null,
): Promise<void> {
  const current = await repo.readSubscription(trx, userId);
  const paidUntil = current?.current_period_end ? new Date(current.current_period_end) : null;
  const running = paidUntil && paidUntil > now ? paidUntil : null;
  if (current && running && rank(planId) < rank(current.plan_id)) {
    await repo.setPendingPlan(trx, userId, planId, now.toISOString());
    return;
  }
  const trial = current?.trial;
  const trialEnd =
    trial?.outcome === 'running' && trial.plan_id === planId ? new Date(trial.ends_at) : null;
  const from =
    current?.plan_id === planId && running ? running : trialEnd && trialEnd > now ? trialEnd : now;
  await changePlan(trx, userId, planId, now, addOneMonth(from).toISOString(), {
    paid: true,
    providerRef,
  });
}

export interface DueChanges {
  downgraded: number;
  lapsed: number;
  trialsEnded: number;
}

/**
 * One pass of the scheduled job: applies downgrades whose paid period has ended, moves paid
 * plans that were not renewed within the grace period back to free, and ends trials that reached
 * their end without a payment (back to free). Uses the deps' clock.
 */
export async function applyDueChanges(deps: Deps): Promise<DueChanges> {
  const now = deps.now();
  const at = now.toISOString();
  const db = deps.db.kysely;
  let downgraded = 0;
  for (const userId of await repo.dueDowngrades(db, at)) {
    await db.transaction().execute(async (trx) => {
      const row = await repo.findSubscription(trx, userId);
      // Re-read inside the transaction: a payment may have cancelled the change meanwhile.
      if (!row?.pending_plan_id || !row.current_period_end || row.current_period_end > at) return;
      // A paid plan waiting for this moment gets the month it was paid for, from the period's end.
      const next = planIdSchema.parse(row.pending_plan_id);
      const periodEnd = next === 'free' ? null : addOneMonth(new Date(row.current_period_end));
      await changePlan(trx, userId, next, now, periodEnd?.toISOString() ?? null, {
        paid: next !== 'free',
      });
      downgraded += 1;
    });
  }
  let lapsed = 0;
  const cutoff = new Date(now.getTime() - LAPSE_GRACE_MS).toISOString();
  for (const userId of await repo.lapsedSubscriptions(db, cutoff)) {
    await db.transaction().execute(async (trx) => {
      const row = await repo.findSubscription(trx, userId);
      if (!row?.current_period_end || row.current_period_end > cutoff || row.pending_plan_id)
        return;
      await changePlan(trx, userId, 'free', now, null, { paid: false });
      lapsed += 1;
    });
  }
  let trialsEnded = 0;
  for (const userId of await repo.dueTrials(db, at)) {
    await db.transaction().execute(async (trx) => {
      const row = await repo.findSubscription(trx, userId);
      // Re-read inside the transaction: a payment may have taken the trial over meanwhile.
      if (!row || repo.trialOf(row)?.outcome !== 'running' || (row.trial_ends_at ?? '') > at)
        return;
      await changePlan(trx, userId, 'free', now, null, { paid: false });
      trialsEnded += 1;
    });
  }
  return { downgraded, lapsed, trialsEnded };
}

/** applyDueChanges as a periodic job (jobs/periodic.ts, started in server.ts). */
export function subscriptionJob(deps: Deps, intervalMs = 5 * 60_000): PeriodicJob<DueChanges> {
  return {
    name: 'subscription changes',
    intervalMs,
    run: () => applyDueChanges(deps),
    worthLogging: (result) => result.downgraded + result.lapsed + result.trialsEnded > 0,
  };
}
