// Plan rules and tables shared by web and server (docs/product.md §9 limits and display): what a
// plan allows, the spec's fallback tables and how sizes and usage are shown. A limit of -1 means
// unlimited. No zod here ([Note: schema-free modules] in index.ts): the landing page shows the
// plans with these before any schema is built; the schemas are in plans.ts.
import type { Limits, Plan, PlanId } from './plans.ts';

export const UNLIMITED = -1;

/** Spec §9: used when the limits cannot be read. */
export const FALLBACK_LIMITS: Limits = {
  plan_id: 'free',
  max_vaults: 2,
  max_file_size_mb: 2,
  plan_name: 'Free',
  max_storage_mb: 50,
  max_share_links: 3,
  max_share_mb: 50,
};

const fallbackPlan = (
  id: PlanId,
  name: string,
  description: string,
  price_monthly: number,
  max_vaults: number,
  max_file_size_mb: number,
  max_storage_mb: number,
  [max_share_links, max_share_mb]: readonly [number, number],
): Plan => ({
  id,
  name,
  description,
  price_monthly,
  max_vaults,
  max_file_size_mb,
  max_storage_mb,
  max_share_links,
  max_share_mb,
  features: [...PLAN_FEATURES[id]],
  is_active: true,
  created_at: '',
  updated_at: '',
});

/**
 * What each plan's card lists beside its limits (docs/product.md §2 Subscription page: 'Priority support' for
 * basic; 'Priority support', 'Advanced features' and 'Team collaboration' for pro). The server
 * seeds the plans table's `features` with these (migration 0121); the operator may change them.
 */
export const PLAN_FEATURES: Record<PlanId, readonly string[]> = {
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
};

/**
 * Each plan's share links (issue 29): how many may be active at once and the MiB of ciphertext
 * they may hold together, -1 unlimited. Free keeps 3 links (the number) and its storage
 * quota's 50 MB; the paid plans grow with their storage. The server seeds them (migration
 * 0190_share_links, apps/server/src/plans/plans.seed.ts).
 */
export const PLAN_SHARE_LIMITS: Record<PlanId, readonly [links: number, mb: number]> = {
  free: [3, 50],
  basic: [25, 2_048],
  pro: [100, 10_240],
  unlimited: [-1, -1],
};

/**
 * Spec §9: the plan table the screens show when the plans query fails (the same table the server
 * seeds: apps/server/src/plans/plans.seed.ts, checked against this by its test).
 */
export const FALLBACK_PLANS: readonly Plan[] = [
  fallbackPlan(
    'free',
    'Free',
    'One file vault and one secrets vault, to get started.',
    0,
    2,
    2,
    50,
    PLAN_SHARE_LIMITS.free,
  ),
  fallbackPlan(
    'basic',
    'Basic',
    'For individuals who keep their records and credentials in one place.',
    4.95,
    10,
    100,
    10_240,
    PLAN_SHARE_LIMITS.basic,
  ),
  fallbackPlan(
    'pro',
    'Pro',
    'For professionals with large files and many vaults, with hidden vaults.',
    9.95,
    20,
    500,
    51_200,
    PLAN_SHARE_LIMITS.pro,
  ),
  fallbackPlan(
    'unlimited',
    'Unlimited',
    'No caps on vaults or file size.',
    19.95,
    -1,
    -1,
    -1,
    PLAN_SHARE_LIMITS.unlimited,
  ),
];

/** Paid plans carry a 14-day trial on the landing page (docs/product.md §9). */
export const TRIAL_DAYS = 14;

export const isUnlimited = (limit: number): boolean => limit === UNLIMITED;

/** Spec §9 rule: creating a vault is allowed while the count is below max_vaults. */
export const canCreateVault = (vaultCount: number, maxVaults: number): boolean =>
  isUnlimited(maxVaults) || vaultCount < maxVaults;

/** Spec §9: the Free plan's two vaults are one file vault and one secrets vault. */
export const FREE_PLAN_ONE_OF_EACH =
  'The Free plan has one file vault and one secrets vault. Upgrade to create more.';

/**
 * Whether a vault of `type` may be created beside `vaults`: below max_vaults, and on the Free
 * plan only if the user has no vault of that type yet.
 */
export function canCreateVaultOfType(
  limits: Pick<Limits, 'plan_id' | 'max_vaults'>,
  vaults: readonly { vault_type: string }[],
  type: string,
): boolean {
  if (!canCreateVault(vaults.length, limits.max_vaults)) return false;
  return limits.plan_id !== 'free' || !vaults.some((v) => v.vault_type === type);
}

/** Spec §5: a file is allowed when its size in MB is within max_file_size_mb. */
export const isFileSizeAllowed = (bytes: number, maxFileSizeMb: number): boolean =>
  isUnlimited(maxFileSizeMb) || bytes / (1024 * 1024) <= maxFileSizeMb;

/** Spec §9 display: -1 shows 'Unlimited'; 1024 MB or more in GB; otherwise MB. */
export function formatPlanSize(mb: number): string {
  if (isUnlimited(mb)) return 'Unlimited';
  if (mb >= 1024) return `${trimZero(mb / 1024)} GB`;
  return `${mb} MB`;
}

/** Spec §9 display: B, KB, MB, GB in steps of 1024 with one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export type UsageLevel = 'ok' | 'warning' | 'critical';

export interface Usage {
  percent: number;
  level: UsageLevel;
}

/**
 * Spec §9: green below 70% of the limit, yellow from 70%, red from 90%; width capped at 100%.
 * `used` and `max` in the same unit; an unlimited `max` (-1) reads as 0%, 'ok'.
 */
export function usageOf(used: number, max: number): Usage {
  if (isUnlimited(max)) return { percent: 0, level: 'ok' };
  const raw = max <= 0 ? 100 : (used / max) * 100;
  const percent = Math.min(100, raw);
  const level: UsageLevel = raw >= 90 ? 'critical' : raw >= 70 ? 'warning' : 'ok';
  return { percent, level };
}

/** Vaults against the plan's max_vaults (the dashboard's usage bar). */
export const vaultUsage = (count: number, maxVaults: number): Usage => usageOf(count, maxVaults);

const MiB = 1024 * 1024;

/** Bytes of files on this server against the plan's max_storage_mb (MiB), by the same rules. */
export const storageUsage = (usedBytes: number, maxStorageMb: number): Usage =>
  usageOf(usedBytes, isUnlimited(maxStorageMb) ? maxStorageMb : maxStorageMb * MiB);

function trimZero(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
