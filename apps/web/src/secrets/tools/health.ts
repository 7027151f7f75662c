// Vault health (issue 20): the weak, reused and old passwords of an unlocked vault, found on this
// device from the decrypted items; nothing of it is sent anywhere. Reuse is found by SHA-256, so
// the result names groups by a digest, never by the password itself. The same digest keys the
// scores a caller may keep between scans, so that a rescan scores only new or changed passwords
// ([Note: health score cache] in health/scoreCache.ts). Scoring is replaceable: one password at
// a time on this thread by default (unit tests, browsers without Workers), or in batches
// elsewhere (health/healthScoring.ts: a Worker). No browser API but WebCrypto is needed here.
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

/** The scores of `passwords`, in their order, each held against `userInputs` too. */
export type ScoreBatch = (passwords: string[], userInputs: string[]) => Promise<Score[]>;

/**
 * Passwords per {@link ScoreBatch} call. A scan stops only between batches, and a newer scan of
 * the same vault starts once the stopped one's batch is done (health/useVaultHealth.ts), so a
 * batch should be short; but each batch is a message each way. zxcvbn takes from a few ms to a
 * few hundred a password (long random ones the slowest: about 230 ms each in Chromium on a busy
 * 2-core machine), so 50 keeps that wait to seconds on a slow device, while 5,000 passwords are
 * still only 100 messages.
 */
export const SCORE_BATCH = 50;
/** Digests asked for at once: WebCrypto answers them in parallel, off this thread. */
const HASH_CHUNK = 250;

export interface HealthOptions {
  /** Held against every password too, as for a vault password (accountInputs(email, name)). */
  userInputs?: string[];
  /** Stops the scan between two batches: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The strength score of a password (strength.ts) on this thread, replaceable in tests. Used
   * when `scoreBatch` is not given, one password at a time with the page painted in between.
   */
  score?: (password: string, userInputs: string[]) => Promise<Score>;
  /** Scores up to `batchSize` passwords a call (health/healthScoring.ts: in a Worker). */
  scoreBatch?: ScoreBatch;
  /** Passwords per `scoreBatch` call; {@link SCORE_BATCH} unless told. */
  batchSize?: number;
  /**
   * Scores already known, by the password's hex SHA-256; the scan adds the ones it computes,
   * even when it is stopped. Share it only between scans with the same `userInputs`, and drop it
   * when the vault locks ([Note: health score cache]).
   */
  scores?: Map<string, Score>;
  /** Hex SHA-256 of a password, replaceable in tests. */
  sha256?: (password: string) => Promise<string>;
  /**
   * Awaited after each batch with how long it took, in ms: a scan in the background lets the
   * rest of the page's work have the CPU ([Note: health scan pace]).
   */
  pause?: (batchMs: number) => Promise<void>;
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
 * A {@link ScoreBatch} on this thread: one password at a time, yielding to the page after each.
 * What a scan falls back to where there is no Worker, or the Worker fails.
 */
export function scoreOnThisThread(score = defaultScore): ScoreBatch {
  return async (passwords, userInputs) => {
    const out: Score[] = [];
    for (const password of passwords) {
      out.push(await score(password, userInputs));
      await yieldToPage();
    }
    return out;
  };
}

/**
 * The health of `items` at `nowMs`. Each distinct password is scored once, however many items
 * share it, and not at all when `scores` already holds it. Items without a password are left out
 * of all three lists. "Old" reads the item's `updated_at`: any edit counts as a change until
 * items record when their password changed.
 */
export async function vaultHealth(
  items: readonly HealthItem[],
  nowMs: number,
  options: HealthOptions = {},
): Promise<VaultHealth> {
  const {
    userInputs = [],
    signal,
    score = defaultScore,
    scoreBatch,
    batchSize = SCORE_BATCH,
    scores = new Map<string, Score>(),
    sha256 = webSha256,
    pause,
  } = options;
  const withPassword = items.filter((i) => (i.password ?? '') !== '');
  const hashes: string[] = [];
  for (let i = 0; i < withPassword.length; i += HASH_CHUNK) {
    signal?.throwIfAborted();
    const chunk = withPassword.slice(i, i + HASH_CHUNK);
    hashes.push(...(await Promise.all(chunk.map((item) => sha256(item.password ?? '')))));
  }

  const groups = new Map<string, { password: string; ids: string[] }>();
  const old: string[] = [];
  withPassword.forEach((item, n) => {
    const hash = hashes[n]!;
    const group = groups.get(hash);
    if (group) group.ids.push(item.id);
    else groups.set(hash, { password: item.password ?? '', ids: [item.id] });
    const updated =
      typeof item.updated_at === 'number' ? item.updated_at : Date.parse(item.updated_at);
    if (Number.isFinite(updated) && nowMs - updated >= OLD_AFTER_DAYS * DAY_MS) old.push(item.id);
  });

  // On this thread one password is a batch, so that a stop is never more than one score away.
  const [run, size] = scoreBatch
    ? [scoreBatch, Math.max(1, Math.floor(batchSize))]
    : [scoreOnThisThread(score), 1];
  const unscored = [...groups].filter(([hash]) => !scores.has(hash));
  for (let i = 0; i < unscored.length; i += size) {
    signal?.throwIfAborted();
    const batch = unscored.slice(i, i + size);
    const started = performance.now();
    const result = await run(
      batch.map(([, g]) => g.password),
      userInputs,
    );
    if (result.length !== batch.length) {
      throw new Error(`${result.length} scores for a batch of ${batch.length} passwords`);
    }
    // Kept before checking the signal: a newer scan of the same vault need not score them again.
    batch.forEach(([hash], j) => scores.set(hash, result[j]!));
    if (pause && i + size < unscored.length) await pause(performance.now() - started);
  }
  signal?.throwIfAborted();

  const weakIds = new Set<string>();
  for (const [hash, group] of groups) {
    if (scores.get(hash)! <= WEAK_SCORE) for (const id of group.ids) weakIds.add(id);
  }
  return {
    // In the order the items came, not the order their passwords were scored.
    weak: items.filter((i) => weakIds.has(i.id)).map((i) => i.id),
    reused: [...groups]
      .filter(([, g]) => g.ids.length > 1)
      .map(([passwordHash, g]) => ({ passwordHash, ids: g.ids })),
    old,
  };
}
