// A user's plan limits (spec §7 get_user_subscription_limits): max_vaults, max_file_size_mb and
// plan_name from the profile's current plan. When they cannot be read, the spec's fallback
// applies (§9: 2 vaults and 2 MB).
import { sql, type Kysely, type Transaction } from 'kysely';
import { FALLBACK_LIMITS, type Limits } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export async function getLimits(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  logger?: Logger,
): Promise<Limits> {
  try {
    const row = await sql<{ max_vaults: number; max_file_size_mb: number; name: string }>`
      select p.max_vaults, p.max_file_size_mb, p.name
      from profiles pr join subscription_plans p on p.id = pr.current_plan_id
      where pr.id = ${userId}`.execute(db);
    const plan = row.rows[0];
    if (!plan) return FALLBACK_LIMITS;
    return {
      max_vaults: Number(plan.max_vaults),
      max_file_size_mb: Number(plan.max_file_size_mb),
      plan_name: plan.name,
    };
  } catch (err) {
    logger?.warn(
      { err: err instanceof Error ? err.message : 'unknown' },
      'limits unreadable, using fallback',
    );
    return FALLBACK_LIMITS;
  }
}
