// Trials of a paid plan (issue 19; the landing page promises them, docs/product.md §9): once per account,
// TRIAL_DAYS long, without a card, started from Free (POST /api/subscription/trial).
//
// [Note: read-only after a trial]
// A trial that ends without a payment puts the account back on Free. Nothing is deleted: the
// vaults made during the trial stay, and every one of them can be opened, read and downloaded.
// Only the vaults within Free's allowance can still change (its one file vault and one secrets
// vault: the oldest of each type, so the choice is the same on every request and the user steers
// it by deleting vaults); the others are read-only until a plan is paid for. Changing a read-only
// vault (its secrets, files, name) is refused with 403 and trialMessages.readOnlyVault; deleting a
// whole vault, or changing its password, is allowed. Other ways back to Free (a switch at the end of a paid period, a paid plan not
// renewed) keep every vault writable (docs/payments.md).
import { canCreateVaultOfType, TRIAL_DAYS, type Limits } from './plans.ts';

export const TRIAL_MS = TRIAL_DAYS * 24 * 3_600_000;

/** What a vault needs to be placed within a plan's allowance. */
export interface AllowanceVault {
  id: string;
  vault_type: string;
  created_at: string;
}

/**
 * The vaults a plan's limits allow, oldest first (ties by id): each one is kept if a vault of its
 * type could be created beside those kept before it. On Free that is the oldest file vault and
 * the oldest secrets vault.
 */
export function vaultsWithinAllowance<V extends AllowanceVault>(
  limits: Pick<Limits, 'plan_id' | 'max_vaults'>,
  vaults: readonly V[],
): V[] {
  const kept: V[] = [];
  const oldestFirst = [...vaults].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
  );
  for (const vault of oldestFirst) {
    if (canCreateVaultOfType(limits, kept, vault.vault_type)) kept.push(vault);
  }
  return kept;
}

/** Texts of trials (ours: the spec only promises the trial, on the landing page). */
export const trialMessages = {
  start: `Start ${TRIAL_DAYS}-day trial`,
  noCard: 'No card needed',
  ends: (date: string) => `Trial ends ${date}`,
  alreadyUsed: `This account has already used its ${TRIAL_DAYS}-day trial.`,
  alreadyUsedByEmail: `This email address has already had a ${TRIAL_DAYS}-day trial.`,
  onlyFromFree: (planName: string) =>
    `A trial starts from the Free plan. You are on ${planName} already.`,
  planUnavailable: 'This plan is not available.',
  readOnlyVault:
    "This vault is read-only: your trial ended and it is over the Free plan's limit. Nothing was deleted, and you can still open it and download what it holds. Upgrade to change it again.",
  lapsed: (planName: string, date: string) =>
    `Your ${planName} trial ended on ${date}, so your account is back on the Free plan.`,
  readOnlyList: (count: number) =>
    `${count} ${count === 1 ? 'vault is' : 'vaults are'} over the Free plan's limit and now read-only. Nothing was deleted: you can open them and download what they hold. Upgrade to change them again, or delete vaults to choose which stay writable.`,
} as const;
