// Vault health (issue 20): the weak, reused and old passwords of an unlocked vault, found on this
// device from the decrypted items; nothing of it is sent anywhere. Reuse is found by SHA-256, so
// the result names groups by a digest, never by the password itself.
import { scorePassword, type Score } from './strength.ts';

export interface HealthItem {
  id: string;
  title: string;
  password?: string | null;
  /** When the item was last changed: an ISO 8601 string (as the secrets API gives) or ms. */
  updated_at: string | number;
}

export interface ReusedPassword {
  /** Hex SHA-256 of the password (UTF-8): a stable key for the group. Keep it on this device. */
  passwordHash: string;
  /** The items sharing it, in the order given; always two or more. */
  ids: string[];
}

export interface VaultHealth {
  /** Items whose password scores {@link WEAK_SCORE} or less. */
  weak: string[];
  reused: ReusedPassword[];
  /** Items with a password not changed for {@link OLD_AFTER_DAYS} days. */
  old: string[];
}

export const WEAK_SCORE: Score = 2;
export const OLD_AFTER_DAYS = 365;
const DAY_MS = 86_400_000;

export interface HealthOptions {
  /** Held against every password too, as for a vault password (accountInputs(email, name)). */
  userInputs?: string[];
  /** Stops the scan: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The strength score of a password (strength.ts), replaceable in tests. */
  score?: (password: string, userInputs: string[]) => Promise<Score>;
  /** Hex SHA-256 of a password, replaceable in tests. */
  sha256?: (password: string) => Promise<string>;
}

const defaultScore = async (password: string, userInputs: string[]) =>
  (await scorePassword(password, userInputs)).score;

const webSha256 = async (password: string): Promise<string> => {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
};

/** Lets the page paint between two scores: zxcvbn takes tens of ms a password on a slow device. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The health of `items` at `nowMs`. Each distinct password is scored once, however many items
 * share it. Items without a password are left out of all three lists. "Old" reads the item's
 * `updated_at`: any edit counts as a change until items record when their password changed.
 */
export async function vaultHealth(
  items: readonly HealthItem[],
  nowMs: number,
  options: HealthOptions = {},
): Promise<VaultHealth> {
  const { userInputs = [], signal, score = defaultScore, sha256 = webSha256 } = options;
  const groups = new Map<string, { password: string; ids: string[] }>();
  const old: string[] = [];
  for (const item of items) {
    signal?.throwIfAborted();
    const password = item.password ?? '';
    if (password === '') continue;
    const hash = await sha256(password);
    const group = groups.get(hash);
    if (group) group.ids.push(item.id);
    else groups.set(hash, { password, ids: [item.id] });
    const updated =
      typeof item.updated_at === 'number' ? item.updated_at : Date.parse(item.updated_at);
    if (Number.isFinite(updated) && nowMs - updated >= OLD_AFTER_DAYS * DAY_MS) old.push(item.id);
  }
  const weakIds = new Set<string>();
  for (const group of groups.values()) {
    signal?.throwIfAborted();
    if ((await score(group.password, userInputs)) <= WEAK_SCORE) {
      for (const id of group.ids) weakIds.add(id);
    }
    await yieldToPage();
  }
  signal?.throwIfAborted();
  return {
    // In the order the items came, not the order their passwords were scored.
    weak: items.filter((i) => weakIds.has(i.id)).map((i) => i.id),
    reused: [...groups]
      .filter(([, g]) => g.ids.length > 1)
      .map(([passwordHash, g]) => ({ passwordHash, ids: g.ids })),
    old,
  };
}
