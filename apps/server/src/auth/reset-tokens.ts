// Reset links die with the password they were meant to replace (issue 15, item 5). Better Auth
// keeps each reset token as a verification row `reset-password:<token>` whose value is the user id,
// and only deletes the one that is used. When the password changes (a completed reset, or
// change-password), every other outstanding reset token of that user is deleted too, so an old
// mail in someone's inbox cannot set the password again.
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';

// Better Auth's table, typed here for the one query this module makes.
type VerificationTables = {
  verification: { id: string; identifier: string; value: string };
};

export const RESET_TOKEN_PREFIX = 'reset-password:';

/** Deletes every outstanding password-reset token of the user. */
export async function revokeResetTokens(db: Db, userId: string): Promise<void> {
  const k: Kysely<VerificationTables> = db.kysely.withTables<VerificationTables>();
  await k
    .deleteFrom('verification')
    .where('identifier', 'like', `${RESET_TOKEN_PREFIX}%`)
    .where('value', '=', userId)
    .execute();
}
