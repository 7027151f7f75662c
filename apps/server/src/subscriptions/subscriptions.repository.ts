// user_subscriptions rows and the plan on the profile. A user without a row is on the profile's
// plan since the profile was created (users from before this table, and users who never changed).
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  paidPlanIdSchema,
  planIdSchema,
  type PlanId,
  type Subscription,
  type Trial,
} from '@sealvault/protocol';
import type { Database, UserSubscriptionsTable } from '../db/schema.ts';

export type Q = Kysely<Database> | Transaction<Database>;
export type SubscriptionRow = Selectable<UserSubscriptionsTable>;

export function findSubscription(db: Q, userId: string): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's subscription, from its row or, without one, from the profile; undefined if neither. */
export async function readSubscription(db: Q, userId: string): Promise<Subscription | undefined> {
  const profile = await db
    .selectFrom('profiles')
    .select(['current_plan_id', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!profile) return undefined;
  const row = await findSubscription(db, userId);
  return {
    // The profile's plan is the one limits read; the row only adds the period and the schedule.
    plan_id: planIdSchema.parse(profile.current_plan_id),
    status: 'active',
    started_at: row?.started_at ?? profile.created_at,
    current_period_end: row?.current_period_end ?? null,
    pending_plan_id: row?.pending_plan_id ? planIdSchema.parse(row.pending_plan_id) : null,
    trial: row ? trialOf(row) : null,
    // [Note: one trial per e-mail] in trial-emails.ts.
    earlier_trial: row?.earlier_trial === 1,
  };
}

/** The row's trial, if the account ever started one. */
export function trialOf(row: SubscriptionRow): Trial | null {
  if (!row.trial_plan_id || !row.trial_started_at || !row.trial_ends_at) return null;
  return {
    plan_id: paidPlanIdSchema.parse(row.trial_plan_id),
    started_at: row.trial_started_at,
    ends_at: row.trial_ends_at,
    outcome: row.trial_outcome ?? 'running',
  };
}

/** Records the account's one trial (the plan itself is written by writePlan). */
export async function recordTrial(
  db: Q,
  userId: string,
  trial: { planId: PlanId; startedAt: string; endsAt: string },
): Promise<void> {
  await db
    .updateTable('user_subscriptions')
    .set({
      trial_plan_id: trial.planId,
      trial_started_at: trial.startedAt,
      trial_ends_at: trial.endsAt,
      trial_outcome: null,
      updated_at: trial.startedAt,
    })
    .where('user_id', '=', userId)
    .execute();
}

/** How the trial ended; `endedAt` moves its end earlier when it ended before its time. */
export async function settleTrial(
  db: Q,
  userId: string,
  outcome: 'lapsed' | 'paid' | 'granted',
  endedAt?: string,
): Promise<void> {
  await db
    .updateTable('user_subscriptions')
    .set({ trial_outcome: outcome, ...(endedAt ? { trial_ends_at: endedAt } : {}) })
    .where('user_id', '=', userId)
    .execute();
}

/** Users whose running trial has reached its end. */
export async function dueTrials(db: Q, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_subscriptions')
    .select('user_id')
    .where('trial_started_at', 'is not', null)
    .where('trial_outcome', 'is', null)
    .where('trial_ends_at', '<=', now)
    .execute();
  return rows.map((r) => r.user_id);
}

export interface PlanChange {
  planId: PlanId;
  periodEnd: string | null;
  providerRef?: string | null;
  now: string;
}

/** Puts the user on a plan: the row (created if missing), the profile, and no pending change. */
export async function writePlan(db: Q, userId: string, change: PlanChange): Promise<void> {
  const existing = await findSubscription(db, userId);
  const profile = await db
    .selectFrom('profiles')
    .select('current_plan_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  const samePlan = profile?.current_plan_id === change.planId;
  const values = {
    plan_id: change.planId,
    status: 'active' as const,
    started_at: samePlan && existing ? existing.started_at : change.now,
    current_period_end: change.periodEnd,
    pending_plan_id: null,
    provider_ref:
      change.providerRef === undefined ? (existing?.provider_ref ?? null) : change.providerRef,
    updated_at: change.now,
  };
  if (existing) {
    await db.updateTable('user_subscriptions').set(values).where('user_id', '=', userId).execute();
  } else {
    await db
      .insertInto('user_subscriptions')
      .values({ user_id: userId, created_at: change.now, ...values })
      .execute();
  }
  await db
    .updateTable('profiles')
    .set({ current_plan_id: change.planId, updated_at: change.now })
    .where('id', '=', userId)
    .execute();
}

export async function setPendingPlan(
  db: Q,
  userId: string,
  pendingPlanId: PlanId | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('user_subscriptions')
    .set({ pending_plan_id: pendingPlanId, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Users whose scheduled downgrade is due. */
export async function dueDowngrades(db: Q, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_subscriptions')
    .select('user_id')
    .where('pending_plan_id', 'is not', null)
    .where('current_period_end', '<=', now)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Users on a paid plan whose period ended before `cutoff` without a renewal. */
export async function lapsedSubscriptions(db: Q, cutoff: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_subscriptions')
    .select('user_id')
    .where('pending_plan_id', 'is', null)
    .where('plan_id', '!=', 'free')
    .where('current_period_end', '<=', cutoff)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Hidden vaults are a Pro feature: leaving Pro shows them again. */
export async function unhideVaults(db: Q, userId: string, now: string): Promise<void> {
  await db
    .updateTable('vaults')
    .set({ is_hidden: 0, updated_at: now })
    .where('user_id', '=', userId)
    .where('is_hidden', '=', 1)
    .execute();
}

/**
 * A deleted account's plan data. Handled payment notifications stay (their ids keep a replay from
 * changing anything) but no longer name the user.
 */
export async function deleteSubscriptionData(db: Q, userId: string): Promise<void> {
  await db.deleteFrom('user_subscriptions').where('user_id', '=', userId).execute();
  await db.deleteFrom('payment_checkouts').where('user_id', '=', userId).execute();
  await db
    .updateTable('payment_notifications')
    .set({ user_id: null })
    .where('user_id', '=', userId)
    .execute();
}
