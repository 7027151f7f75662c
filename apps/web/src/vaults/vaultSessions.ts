// Vault unlock sessions (spec §4 "Vault session"): in memory only, never persisted. A session
// lasts 30 minutes from unlock; then the vault counts as locked, its session is removed and the
// crypto Worker forgets its keys. The UI holds vault ids and expiry times only; key material
// stays inside the Worker (architecture.md, Web).

export const SESSION_MS = 30 * 60 * 1000;

export interface VaultSession {
  vaultId: string;
  expiresAt: number;
}

type Listener = () => void;

export interface VaultSessions {
  /** Records an unlock; `forget` is called when the session ends (expiry, lock or delete). */
  start: (vaultId: string) => VaultSession;
  get: (vaultId: string) => VaultSession | null;
  isUnlocked: (vaultId: string) => boolean;
  end: (vaultId: string) => void;
  endAll: () => void;
  subscribe: (listener: Listener) => () => void;
  /** A value that changes whenever any session starts or ends (for useSyncExternalStore). */
  version: () => number;
}

export function createVaultSessions(
  forget: (vaultId: string) => void,
  now: () => number = () => Date.now(),
): VaultSessions {
  const sessions = new Map<
    string,
    { session: VaultSession; timer: ReturnType<typeof setTimeout> }
  >();
  const listeners = new Set<Listener>();
  let ver = 0;

  const changed = () => {
    ver += 1;
    for (const l of listeners) l();
  };

  const end = (vaultId: string) => {
    const entry = sessions.get(vaultId);
    if (!entry) return;
    clearTimeout(entry.timer);
    sessions.delete(vaultId);
    forget(vaultId);
    changed();
  };

  const get = (vaultId: string): VaultSession | null => {
    const entry = sessions.get(vaultId);
    if (!entry) return null;
    // A timer can fire late (a sleeping laptop); the clock is the truth.
    if (now() >= entry.session.expiresAt) {
      end(vaultId);
      return null;
    }
    return entry.session;
  };

  return {
    start(vaultId) {
      const existing = sessions.get(vaultId);
      if (existing) clearTimeout(existing.timer);
      const session = { vaultId, expiresAt: now() + SESSION_MS };
      const timer = setTimeout(() => end(vaultId), SESSION_MS);
      sessions.set(vaultId, { session, timer });
      changed();
      return session;
    },
    get,
    isUnlocked: (vaultId) => get(vaultId) !== null,
    end,
    endAll() {
      for (const id of [...sessions.keys()]) end(id);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => ver,
  };
}
