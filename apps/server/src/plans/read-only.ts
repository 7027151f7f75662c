// Vaults that only read: after a trial that ended without a payment, the vaults beyond the Free
// plan's allowance ([Note: read-only after a trial] in the protocol's trials.ts). Every change to
// a vault's contents or name asks assertVaultWritable first; reads never do.
import type { Kysely, Transaction } from 'kysely';
import { trialMessages, vaultsWithinAllowance } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { listVaults } from '../vaults/vaults.repository.ts';
import { getLimits } from './limits.service.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** Whether a user with this plan and trial outcome is on Free after a lapsed trial. */
export const trialLapsed = (row: {
  current_plan_id: string | null;
  trial_outcome: string | null;
}): boolean => row.current_plan_id === 'free' && row.trial_outcome === 'lapsed';

/**
 * Whose vaults: a user id, or the signed-in user as requireUser() read them
 * (auth/auth.middleware.ts), whose session query also read whether their trial lapsed, so that
 * no query asks again. `whose` picks the second where the request's user is the one asked about.
 */
export type Whose = string | { id: string; trialLapsed: boolean };
export const whose = (
  deps: { user?: { id: string; trialLapsed: boolean } },
  userId: string,
): Whose => (deps.user?.id === userId ? deps.user : userId);

/** Whether the user is on Free after a lapsed trial (the only state with read-only vaults). */
async function restricted(db: Q, who: Whose): Promise<boolean> {
  if (typeof who !== 'string') return who.trialLapsed;
  const row = await db
    .selectFrom('profiles')
    .innerJoin('user_subscriptions', 'user_subscriptions.user_id', 'profiles.id')
    .select(['profiles.current_plan_id', 'user_subscriptions.trial_outcome'])
    .where('profiles.id', '=', who)
    .executeTakeFirst();
  return row !== undefined && trialLapsed(row);
}

/** The user's read-only vaults, oldest first; none unless a trial lapsed. */
export async function readOnlyVaults(db: Q, who: Whose, logger?: Logger) {
  if (!(await restricted(db, who))) return [];
  const userId = typeof who === 'string' ? who : who.id;
  const vaults = await listVaults(db, userId);
  const limits = await getLimits(db, userId, logger);
  const writable = new Set(vaultsWithinAllowance(limits, vaults).map((v) => v.id));
  return vaults.filter((v) => !writable.has(v.id));
}

/** 403 with trialMessages.readOnlyVault when `vaultId` is one of the user's read-only vaults. */
export async function assertVaultWritable(
  db: Q,
  who: Whose,
  vaultId: string,
  logger?: Logger,
): Promise<void> {
  const readOnly = await readOnlyVaults(db, who, logger);
  if (readOnly.some((v) => v.id === vaultId)) {
    throw new HttpError(403, 'forbidden', trialMessages.readOnlyVault);
  }
}
