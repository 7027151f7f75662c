// [Note: one trial per e-mail] A trial is once per account (trials.service.ts), and deleting the
// account must not reset that (issue 25, finding 6). When an account that had a trial is deleted,
// its e-mail is remembered in trial_emails as a keyed hash: HMAC-SHA256 of the normalised address
// (trimmed, lower-case; nothing else is folded, so "a.b+x@" and "ab@" stay different addresses)
// under a key derived from the Better Auth secret. The table alone cannot tell which addresses
// it holds, not even by hashing guessed ones. A new account of a remembered e-mail (e-mail or
// Google sign-up) gets a user_subscriptions row on Free marked earlier_trial = 1: it is offered no
// trial, and POST /api/subscription/trial answers 409. Changing BETTER_AUTH_SECRET forgets them.
import { createHmac } from 'node:crypto';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import type { Q } from './subscriptions.repository.ts';

/** The form of an address that is hashed: trimmed and lower-case. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** The keyed hash that stands for `email` in trial_emails (hex). */
export function trialEmailHash(secret: string, email: string): string {
  // A key of its own, so the hash can be confused with nothing else Better Auth's secret signs.
  const key = createHmac('sha256', secret).update('sealvault trial e-mails v1').digest();
  return createHmac('sha256', key).update(normaliseEmail(email)).digest('hex');
}

/**
 * [Note: user deletion hooks] Before the subscription row goes: the e-mail of an account that
 * had a trial (or was refused one for its e-mail) is remembered. Idempotent.
 */
export const rememberTrialEmail: UserDeletedHook = async ({ db, userId, secret }) => {
  const k = db.kysely;
  const row = await k
    .selectFrom('user_subscriptions')
    .innerJoin('user', 'user.id', 'user_subscriptions.user_id')
    .select([
      'user.email',
      'user_subscriptions.trial_started_at',
      'user_subscriptions.earlier_trial',
    ])
    .where('user_subscriptions.user_id', '=', userId)
    .executeTakeFirst();
  if (!row || (!row.trial_started_at && !row.earlier_trial)) return;
  await k
    .insertInto('trial_emails')
    .values({ email_hash: trialEmailHash(secret, row.email), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('email_hash').doNothing())
    .execute();
};

/**
 * At sign-up (the user's create hook in auth/auth.ts, after the profile exists): a new account of
 * a remembered e-mail starts on Free with no trial to take.
 */
export async function markEarlierTrial(
  db: Q,
  secret: string,
  user: { id: string; email: string },
  now: Date,
): Promise<void> {
  const remembered = await db
    .selectFrom('trial_emails')
    .select('email_hash')
    .where('email_hash', '=', trialEmailHash(secret, user.email))
    .executeTakeFirst();
  if (!remembered) return;
  const at = now.toISOString();
  await db
    .insertInto('user_subscriptions')
    .values({
      user_id: user.id,
      plan_id: 'free',
      status: 'active',
      started_at: at,
      current_period_end: null,
      pending_plan_id: null,
      provider_ref: null,
      trial_plan_id: null,
      trial_started_at: null,
      trial_ends_at: null,
      trial_outcome: null,
      earlier_trial: 1,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ earlier_trial: 1, updated_at: at }))
    .execute();
}
