// Vault unlock sessions (docs/product.md §4 "Vault session"), the web app's one record of which vaults are
// open: in memory only, never persisted. A session lasts 30 minutes from unlock; then the vault
// counts as locked, its session is removed and the crypto Worker forgets its keys. What is kept
// here per vault is its expiry and the Worker's opaque handle of its keys (a `SessionId`); key
// material stays inside the Worker (architecture.md, Web). Why each vault was last locked is kept
// too, so the unlock dialog can say so (the session ran out, or the idle lock in vaults/idle/).
import type { SessionId } from '@sealvault/crypto';
import { messages, type VaultKey } from '@sealvault/protocol';

export const SESSION_MS = 30 * 60 * 1000;

export interface VaultSession {
  vaultId: string;
  expiresAt: number;
  /** The crypto Worker's handle of the vault's keys. */
  handle: SessionId;
}

/** What opens and forgets a vault's keys: the crypto Worker (crypto/vaultKeys.ts) in the app. */
export interface SessionKeys {
  /** Opens the password slot in the Worker; rejects when the password is wrong. */
  unlock(vaultId: string, key: VaultKey, password: string): Promise<SessionId>;
  lock(vaultId: string): void;
}

type Listener = () => void;

/**
 * Why a session ended: its 30 minutes ran out, the idle lock, by hand (Lock Vault, delete), or a
 * write found the vault's keys rotated on another device (manifest/keyRevision.ts).
 */
export type LockReason = 'expired' | 'idle' | 'manual' | 'rekeyed';

export interface VaultSessions {
  /** Opens the vault's keys and starts its session; rejects as `SessionKeys.unlock` does. */
  unlock: (vaultId: string, key: VaultKey, password: string) => Promise<VaultSession>;
  /** Records a session for keys the Worker already holds under `handle`. */
  start: (vaultId: string, handle: SessionId) => VaultSession;
  get: (vaultId: string) => VaultSession | null;
  isUnlocked: (vaultId: string) => boolean;
  /** The Worker handle of an unlocked vault; throws 'Vault is not unlocked' otherwise. */
  handleOf: (vaultId: string) => SessionId;
  /** Ends the session (Lock Vault, delete: 'manual') and makes the Worker forget the keys. */
  end: (vaultId: string, reason?: LockReason) => void;
  endAll: (reason?: LockReason) => void;
  /** The sessions open now. */
  list: () => VaultSession[];
  /** Why the vault's last session ended; null when none ended since this page loaded. */
  lockedBecause: (vaultId: string) => LockReason | null;
  subscribe: (listener: Listener) => () => void;
  /** A value that changes whenever any session starts or ends (for useSyncExternalStore). */
  version: () => number;
}

export function createVaultSessions(
  keys: SessionKeys,
  now: () => number = () => Date.now(),
): VaultSessions {
  const sessions = new Map<
    string,
    { session: VaultSession; timer: ReturnType<typeof setTimeout> }
  >();
  const listeners = new Set<Listener>();
  const reasons = new Map<string, LockReason>();
  let ver = 0;

  const changed = () => {
    ver += 1;
    for (const l of listeners) l();
  };

  const end = (vaultId: string, reason: LockReason = 'manual') => {
    const entry = sessions.get(vaultId);
    if (!entry) return;
    clearTimeout(entry.timer);
    sessions.delete(vaultId);
    reasons.set(vaultId, reason);
    keys.lock(vaultId);
    changed();
  };

  const get = (vaultId: string): VaultSession | null => {
    const entry = sessions.get(vaultId);
    if (!entry) return null;
    // A timer can fire late (a sleeping laptop); the clock is the truth.
    if (now() >= entry.session.expiresAt) {
      end(vaultId, 'expired');
      return null;
    }
    return entry.session;
  };

  const start = (vaultId: string, handle: SessionId): VaultSession => {
    const existing = sessions.get(vaultId);
    if (existing) clearTimeout(existing.timer);
    const session = { vaultId, expiresAt: now() + SESSION_MS, handle };
    const timer = setTimeout(() => end(vaultId, 'expired'), SESSION_MS);
    sessions.set(vaultId, { session, timer });
    changed();
    return session;
  };

  return {
    async unlock(vaultId, key, password) {
      return start(vaultId, await keys.unlock(vaultId, key, password));
    },
    start,
    get,
    isUnlocked: (vaultId) => get(vaultId) !== null,
    handleOf(vaultId) {
      const s = get(vaultId);
      if (!s) throw new Error(messages.vaults.notUnlocked);
      return s.handle;
    },
    end,
    endAll(reason) {
      for (const id of [...sessions.keys()]) end(id, reason);
    },
    list: () => [...sessions.keys()].map(get).filter((s): s is VaultSession => s !== null),
    lockedBecause: (vaultId) => reasons.get(vaultId) ?? null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => ver,
  };
}
