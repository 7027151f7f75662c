// The health of the unlocked vault's secrets (tools/health.ts), computed on this device when the
// page has nothing better to do: after the list shows, in idle time, one password at a time with
// the page painted in between (vaultHealth yields), and thrown away when the list changes. The
// strength engine (zxcvbn-ts, about 1 MB) loads on this first use, never before.
import { useEffect, useState } from 'react';
import { vaultHealth, type HealthOptions, type VaultHealth } from '../tools/health.ts';
import type { Secret } from '../model.ts';

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

/** null until the first result; then the latest result (kept while a newer one is computed). */
export function useVaultHealth(
  secrets: readonly Secret[],
  options: Pick<HealthOptions, 'score' | 'sha256'> = {},
): HealthReport | null {
  const [report, setReport] = useState<HealthReport | null>(null);
  const { score, sha256 } = options;
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
      vaultHealth(items, Date.now(), {
        signal: abort.signal,
        ...(score ? { score } : {}),
        ...(sha256 ? { sha256 } : {}),
      }).then(
        (health) => setReport(healthReport(health, secrets)),
        () => undefined, // aborted by a newer list, or the strength engine failed to load
      );
    });
    return () => {
      cancel();
      abort.abort();
    };
  }, [current, score, sha256]);
  return report;
}
