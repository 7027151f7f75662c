// Trials (issue 19): a paid plan tried once per account for TRIAL_DAYS, without a card, from the
// Free plan. The plan changes at once, like an admin's grant, and the account's row records the
// trial; the subscription job ends it (applyDueChanges) and any plan change before then takes it
// over (changePlan in subscriptions.service.ts). [Note: read-only after a trial] in the
// protocol's trials.ts says what a lapsed trial leaves. Deleting the account does not give the
// e-mail another: [Note: one trial per e-mail] in trial-emails.ts.
import { sql } from 'kysely';
import {
  messages,
  TRIAL_MS,
  trialMessages,
  type PaidPlanId,
  type SubscriptionResponse,
} from '@sealvault/protocol';
import { HttpError } from '../http/errors.ts';
import * as repo from './subscriptions.repository.ts';
import { subscriptionResponse, type Deps } from './subscriptions.service.ts';

export async function startTrial(
  deps: Deps,
  userId: string,
  planId: PaidPlanId,
): Promise<SubscriptionResponse> {
  const now = deps.now();
  const at = now.toISOString();
  const endsAt = new Date(now.getTime() + TRIAL_MS).toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    // One trial per account, also when two requests race (SQLite writes are serial already).
    if (deps.db.kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`subscription:${userId}`}))`.execute(trx);
    }
    const current = await repo.readSubscription(trx, userId);
    if (!current) throw new HttpError(401, 'unauthorized', messages.auth.notAuthenticated);
    if (current.trial) throw new HttpError(409, 'conflict', trialMessages.alreadyUsed);
    // [Note: one trial per e-mail] in trial-emails.ts.
    if (current.earlier_trial)
      throw new HttpError(409, 'conflict', trialMessages.alreadyUsedByEmail);
    if (current.plan_id !== 'free') {
      const plan = await trx
        .selectFrom('subscription_plans')
        .select('name')
        .where('id', '=', current.plan_id)
        .executeTakeFirst();
      throw new HttpError(409, 'conflict', trialMessages.onlyFromFree(plan?.name ?? 'a paid plan'));
    }
    const plan = await trx
      .selectFrom('subscription_plans')
      .select('id')
      .where('id', '=', planId)
      .where('is_active', '=', 1)
      .executeTakeFirst();
    if (!plan) throw new HttpError(404, 'not_found', trialMessages.planUnavailable);
    await repo.writePlan(trx, userId, { planId, periodEnd: null, now: at });
    await repo.recordTrial(trx, userId, { planId, startedAt: at, endsAt });
  });
  deps.logger.info({ userId, planId, endsAt }, 'trial started');
  return subscriptionResponse(deps, userId);
}
