// The plan table of docs/product.md §9 (the fallback table, which wins over the landing page's numbers).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const SEED_PLANS = [
  {
    id: 'free',
    name: 'Free',
    description: 'One file vault and one secrets vault, to get started.',
    price_cents: 0,
    max_vaults: 2,
    max_file_size_mb: 2,
  },
  {
    id: 'basic',
    name: 'Basic',
    description: 'For individuals who keep their records and credentials in one place.',
    price_cents: 495,
    max_vaults: 10,
    max_file_size_mb: 100,
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'For professionals with large files and many vaults, with hidden vaults.',
    price_cents: 995,
    max_vaults: 20,
    max_file_size_mb: 500,
  },
  {
    id: 'unlimited',
    name: 'Unlimited',
    description: 'No caps on vaults or file size.',
    price_cents: 1995,
    max_vaults: -1,
    max_file_size_mb: -1,
  },
] as const;

/**
 * Each plan's storage quota (max_storage_mb, MiB of ciphertext; -1 unlimited), added by migration
 * 0091_plan_storage_quota after the plans were first seeded (issue 15: a Free user could fill the
 * disk). Free holds 25 files at its 2 MB file limit; the paid plans hold their largest file 100 times.
 */
export const SEED_STORAGE_MB = { free: 50, basic: 10_240, pro: 51_200, unlimited: -1 } as const;

/**
 * Each plan's share links (issue 29): [active links, MiB they hold together], -1 unlimited, added
 * by migration 0190_share_links. The protocol's PLAN_SHARE_LIMITS (the fallback) equals them
 * (plans.test.ts).
 */
export const SEED_SHARE_LIMITS = {
  free: [3, 50],
  basic: [25, 2_048],
  pro: [100, 10_240],
  unlimited: [-1, -1],
} as const;

/**
 * Each plan's feature lines (docs/product.md §2 Subscription page), added by migration 0121_plan_features
 * after the plans were first seeded. The protocol's PLAN_FEATURES (the fallback) equals them
 * (plans.test.ts).
 */
export const SEED_FEATURES = {
  free: ['End-to-end AES-256 encryption'],
  basic: ['End-to-end AES-256 encryption', 'Priority support'],
  pro: [
    'End-to-end AES-256 encryption',
    'Priority support',
    'Advanced features',
    'Team collaboration',
    'Hide vaults from your dashboard',
  ],
  unlimited: ['End-to-end AES-256 encryption', 'Priority support'],
} as const;

export async function seedPlans(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  await (db as Kysely<Database>)
    .insertInto('subscription_plans')
    .values(
      SEED_PLANS.map((p, i) => ({
        ...p,
        is_active: 1,
        sort_order: i,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}
