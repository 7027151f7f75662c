// The health of the unlocked vault's secrets (tools/health.ts), computed on this device when the
// page has nothing better to do: after the list shows, in idle time, and again (the older scan
// stopped) when the list changes. The strength scores, the scan's whole cost, are computed in a
// Worker a batch at a time (healthScoring.ts), where zxcvbn-ts (about 1.6 MB) loads on the first
// scan, never before; the page only hashes the passwords. The scores are kept while the vault is
// unlocked ([Note: health score cache] in scoreCache.ts), so a rescan after an edit scores only
// the changed password. Without Workers (unit tests) the page scores, yielding after each.
import { useEffect, useState } from 'react';
import { useVaultSessions } from '../../vaults/sessionContext.tsx';
import { vaultHealth, type HealthOptions, type VaultHealth } from '../tools/health.ts';
import type { Secret } from '../model.ts';
import { healthScoreBatch } from './healthScoring.ts';
import { vaultScores } from './scoreCache.ts';

export interface HealthEntry {
  id: string;
  title: string;
}

export interface HealthReport {
  weak: HealthEntry[];
  /** Each group shares one password; a group's entries are in list order. */
  reused: HealthEntry[][];
  old: HealthEntry[];
  /** How many secrets have at least one finding (the button's badge). */
  count: number;
}

/** The findings in the user's terms: titles instead of ids, and how many secrets they touch. */
export function healthReport(health: VaultHealth, secrets: readonly Secret[]): HealthReport {
  const byId = new Map(secrets.map((s) => [s.id, s]));
  const entries = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const s = byId.get(id);
      return s ? [{ id, title: s.title }] : [];
    });
  const weak = entries(health.weak);
  const old = entries(health.old);
  const reused = health.reused.map((g) => entries(g.ids)).filter((g) => g.length > 1);
  const flagged = new Set([...weak, ...old, ...reused.flat()].map((e) => e.id));
  return { weak, reused, old, count: flagged.size };
}

/** Waits for the browser to be idle (or a moment where it cannot say), cancellable. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 200);
  return () => clearTimeout(id);
}

export interface VaultHealthOptions extends Pick<HealthOptions, 'score' | 'scoreBatch' | 'sha256'> {
  /**
   * The vault the secrets are from: its scores are kept while it is unlocked. Without it, every
   * scan scores every password.
   */
  vaultId?: string;
}

/**
 * [Note: health score cache]'s scan in the Worker takes one of the device's cores while it runs
 * (5-230 ms a password here; minutes for a first scan of thousands). [Note: health scan pace]:
 * after each batch it waits as long as the batch took, and for the page to be idle, so it takes
 * at most about half a core and what the user does next (an edit, a search) is not slowed by it.
 */
const paced = (batchMs: number) =>
  new Promise<void>((resolve) => setTimeout(() => whenIdle(resolve), Math.min(batchMs, 2000)));

/**
 * The latest scan of each vault's kept scores. A newer scan of the vault waits until it has
 * settled: a stopped scan still finishes the batch it sent and keeps those scores, which the newer
 * one then reuses instead of sending the same passwords to the Worker again.
 */
const lastScan = new WeakMap<Map<string, unknown>, Promise<void>>();
const settled = () => undefined;

/** null until the first result; then the latest result (kept while a newer one is computed). */
export function useVaultHealth(
  secrets: readonly Secret[],
  options: VaultHealthOptions = {},
): HealthReport | null {
  const [report, setReport] = useState<HealthReport | null>(null);
  const { score, scoreBatch, sha256, vaultId } = options;
  const sessions = useVaultSessions();
  // The list is a new array on many renders (an empty one while it loads): recompute only when
  // an item is added, removed or changed (its revision).
  const key = secrets.map((s) => `${s.id}:${s.revision}`).join(',');
  const [snapshot, setSnapshot] = useState({ key, secrets });
  if (snapshot.key !== key) setSnapshot({ key, secrets });
  const current = snapshot.secrets;
  useEffect(() => {
    const secrets = current;
    const abort = new AbortController();
    const cancel = whenIdle(() => {
      const items = secrets.map((s) => ({
        id: s.id,
        title: s.title,
        password: s.password,
        updated_at: s.updated_at,
      }));
      // Asked now, not when the effect ran: the vault may have locked in between.
      const scores = vaultId === undefined ? undefined : vaultScores(sessions, vaultId);
      // A test's own `score` means this thread; otherwise the Worker, where there is one.
      const batch = scoreBatch ?? (score ? undefined : healthScoreBatch());
      const run = async () => {
        abort.signal.throwIfAborted();
        return vaultHealth(items, Date.now(), {
          signal: abort.signal,
          ...(score ? { score } : {}),
          ...(batch ? { scoreBatch: batch, pause: paced } : {}),
          ...(sha256 ? { sha256 } : {}),
          ...(scores ? { scores } : {}),
        });
      };
      const previous = scores && lastScan.get(scores);
      const scan = previous ? previous.then(run) : run();
      if (scores) lastScan.set(scores, scan.then(settled, settled));
      scan.then(
        (health) => setReport(healthReport(health, secrets)),
        () => undefined, // aborted by a newer list, or the strength engine failed to load
      );
    });
    return () => {
      cancel();
      abort.abort();
    };
  }, [current, score, scoreBatch, sha256, vaultId, sessions]);
  return report;
}
