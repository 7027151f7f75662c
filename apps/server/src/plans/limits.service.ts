// A user's plan limits (docs/product.md §7 get_user_subscription_limits): max_vaults, max_file_size_mb,
// max_storage_mb, max_share_links, max_share_mb and plan_name from the profile's current plan, and
// what the user's files and share links take. When they cannot be read, the spec's fallback
// applies (§9: 2 vaults and 2 MB).
import { sql, type Kysely, type Transaction } from 'kysely';
import { FALLBACK_LIMITS, planIdSchema, type Limits } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export async function getLimits(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  logger?: Logger,
): Promise<Limits> {
  try {
    const row = await sql<{
      max_vaults: number;
      max_file_size_mb: number;
      max_storage_mb: number;
      max_share_links: number;
      max_share_mb: number;
      name: string;
      id: string;
    }>`
      select p.id, p.max_vaults, p.max_file_size_mb, p.max_storage_mb, p.max_share_links,
        p.max_share_mb, p.name
      from profiles pr join subscription_plans p on p.id = pr.current_plan_id
      where pr.id = ${userId}`.execute(db);
    const plan = row.rows[0];
    if (!plan) return FALLBACK_LIMITS;
    const planId = planIdSchema.safeParse(plan.id);
    return {
      ...(planId.success ? { plan_id: planId.data } : {}),
      max_vaults: Number(plan.max_vaults),
      max_file_size_mb: Number(plan.max_file_size_mb),
      plan_name: plan.name,
      max_storage_mb: Number(plan.max_storage_mb),
      max_share_links: Number(plan.max_share_links),
      max_share_mb: Number(plan.max_share_mb),
    };
  } catch (err) {
    logger?.warn(
      { err: err instanceof Error ? err.message : 'unknown' },
      'limits unreadable, using fallback',
    );
    return FALLBACK_LIMITS;
  }
}

/**
 * Ciphertext bytes of the user's files on this server (what the storage quota counts, with
 * uploads). Files a vault's provider holds are not on our disk and do not count ([Note:
 * provider-held files] in files/files.repository.ts), nor files the trash purge deleted; files in
 * the trash do, until then ([Note: trash] in the protocol's files.ts). A file link's copy counts
 * from its creation (its declared length, as an upload's) until the share sweep deletes it
 * ([Note: share link data] in shares/shares.repository.ts): it is on this server's disk.
 */
export async function storageUsed(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<number> {
  const row = await db
    .selectFrom('vault_files')
    .select((eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes'))
    .where('user_id', '=', userId)
    .where('storage_ref', 'is', null)
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  const shared = await db
    .selectFrom('share_links')
    .select((eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'file')
    .where('data_deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0) + Number(shared?.bytes ?? 0);
}
