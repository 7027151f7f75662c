// [Note: password attempt budget] Every route that checks the account password or a second
// factor (sign-in, verify-password, change-password, the two-factor routes, DELETE /api/me) spends
// from one budget, counted twice: per account (its e-mail, lower-case) and per client address.
// A device that signed in to the account before counts against itself instead of the account, so
// guesses from elsewhere cannot lock the owner out ([Note: known devices] in known-device.ts).
// Either counter over AUTH_RATE_LIMIT_MAX within AUTH_RATE_LIMIT_WINDOW refuses the attempt with
// 429 before the password is hashed, so guesses cannot be spread over several routes, several
// addresses (per account) or several accounts (per address). Better Auth's own limiter counts per
// route and address only, and knows nothing of DELETE /api/me. Counters live in the database
// (auth_attempts, migration 0080) like Better Auth's, so they hold across instances; each attempt
// is counted by one atomic upsert, so parallel requests cannot slip past the check.
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';

// Typed here rather than in db/schema.ts: nothing else reads these counters.
type AttemptsTables = {
  auth_attempts: { key: string; count: number; window_start: number | string };
};

export interface AttemptBudget {
  /** Seconds. */
  window: number;
  max: number;
}

export interface AttemptOutcome {
  allowed: boolean;
  /** Seconds until the fuller counter's window ends (0 when allowed). */
  retryAfter: number;
}

const tables = (db: Db): Kysely<AttemptsTables> => db.kysely.withTables<AttemptsTables>();

/**
 * The counter keys of one attempt: the account's e-mail, or instead the device when it signed in
 * to the account before ([Note: known devices] in known-device.ts), and the client address.
 */
export function attemptKeys(who: {
  email?: string | null;
  ip?: string | null;
  device?: string | null;
}): string[] {
  const keys: string[] = [];
  if (who.device) keys.push(`device:${who.device}`);
  else if (who.email) keys.push(`account:${who.email.trim().toLowerCase()}`);
  if (who.ip) keys.push(`ip:${who.ip}`);
  return keys;
}

const lastSweep = new WeakMap<Db, number>();

/** Counts one attempt against every key; refused when any counter is over the budget. */
export async function spendAttempt(
  db: Db,
  keys: readonly string[],
  budget: AttemptBudget,
  now: number,
): Promise<AttemptOutcome> {
  const windowMs = budget.window * 1000;
  const cutoff = now - windowMs;
  const k = tables(db);
  let retryAfter = 0;
  for (const key of keys) {
    const row = await k
      .insertInto('auth_attempts')
      .values({ key, count: 1, window_start: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          // Both databases evaluate SET expressions against the row as it was.
          count: eb
            .case()
            .when('auth_attempts.window_start', '<=', cutoff)
            .then(1)
            .else(eb('auth_attempts.count', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('auth_attempts.window_start', '<=', cutoff)
            .then(now)
            .else(eb.ref('auth_attempts.window_start'))
            .end(),
        })),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    if (row.count > budget.max) {
      const ends = Number(row.window_start) + windowMs;
      retryAfter = Math.max(retryAfter, Math.ceil((ends - now) / 1000), 1);
    }
  }
  // Expired counters are dropped now and then (at most once a window per process).
  if ((lastSweep.get(db) ?? 0) <= cutoff) {
    lastSweep.set(db, now);
    await k.deleteFrom('auth_attempts').where('window_start', '<=', cutoff).execute();
  }
  return { allowed: retryAfter === 0, retryAfter };
}
