// [Note: health score cache]
// The health scan's strength scores, kept per vault for the life of its unlock so that a rescan
// after an edit scores only the new or changed password (zxcvbn is the scan's whole cost). Keyed
// by the password's hex SHA-256, which the scan computes anyway for reuse (tools/health.ts),
// never by the password. Even so the keys are only as strong as the passwords, and a weak
// password's digest is guessed back from a list in no time: the scores of a vault go when its
// session ends (Lock Vault, expiry, the idle lock, delete, sign-out), as its decrypted secrets
// leave the query cache (vaults/useForgetOnLock.ts), whether or not its page is still shown.
import type { Score } from '../tools/strength.ts';
import type { VaultSessions } from '../../vaults/vaultSessions.ts';

/** Per sessions store (the app has one), the scores of each unlocked vault. */
const stores = new WeakMap<VaultSessions, Map<string, Map<string, Score>>>();

function storeOf(sessions: VaultSessions): Map<string, Map<string, Score>> {
  const known = stores.get(sessions);
  if (known) return known;
  const byVault = new Map<string, Map<string, Score>>();
  // Lives as long as the store it watches: the app's lasts the page's life.
  sessions.subscribe(() => {
    const open = new Set(sessions.list().map((s) => s.vaultId));
    for (const vaultId of byVault.keys()) if (!open.has(vaultId)) byVault.delete(vaultId);
  });
  stores.set(sessions, byVault);
  return byVault;
}

/**
 * The scores kept for `vaultId` while it is unlocked in `sessions`, to hand to vaultHealth as
 * `scores`; undefined when it is locked (nothing is kept then).
 */
export function vaultScores(
  sessions: VaultSessions,
  vaultId: string,
): Map<string, Score> | undefined {
  if (!sessions.isUnlocked(vaultId)) return undefined;
  const byVault = storeOf(sessions);
  let scores = byVault.get(vaultId);
  if (!scores) {
    scores = new Map();
    byVault.set(vaultId, scores);
  }
  return scores;
}
