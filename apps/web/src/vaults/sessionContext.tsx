// The app's vault sessions: one store, whose keys are the crypto Worker's (ending a session, by
// expiry, Lock Vault, delete or sign-out, makes the Worker forget them), and React access to it.
// The crypto client loads with the first unlock ([Note: crypto client on first unlock] in
// deferredSessionKeys.ts), not with every signed-in screen.
// The app's lock watch (idle/lockWatch.ts) runs beside it from the start: the idle lock chosen in
// Settings and the warning before any lock.
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionId } from '@sealvault/crypto';
import { deferredSessionKeys } from './deferredSessionKeys.ts';
import { createLockWatch, type LockWarning, type LockWatch } from './idle/lockWatch.ts';
import { readIdleMinutes, subscribeIdleMinutes } from './idle/idleSettings.ts';
import { createVaultSessions, type VaultSessions } from './vaultSessions.ts';

const defaultSessions = createVaultSessions(deferredSessionKeys());

/** The app's idle lock and lock warnings, over the app's sessions, hearing input on the window. */
export const appLockWatch: LockWatch = createLockWatch(defaultSessions, {
  idleMinutes: readIdleMinutes(),
  ...(typeof window === 'undefined' ? {} : { target: window }),
});
subscribeIdleMinutes(() => appLockWatch.setIdleMinutes(readIdleMinutes()));

const SessionsContext = createContext<VaultSessions>(defaultSessions);

export function VaultSessionsProvider({
  sessions = defaultSessions,
  children,
}: {
  sessions?: VaultSessions;
  children: ReactNode;
}) {
  return <SessionsContext.Provider value={sessions}>{children}</SessionsContext.Provider>;
}

export function useVaultSessions(): VaultSessions {
  return useContext(SessionsContext);
}

/** Re-renders when any session starts or ends; answers whether this vault is unlocked now. */
export function useIsUnlocked(vaultId: string | undefined): boolean {
  const sessions = useVaultSessions();
  useSyncExternalStore(sessions.subscribe, sessions.version);
  return vaultId ? sessions.isUnlocked(vaultId) : false;
}

/** The warning before the next lock (idle/lockWatch.ts), re-rendering as it changes. */
export function useLockWarning(watch: LockWatch = appLockWatch): LockWarning | null {
  return useSyncExternalStore(watch.subscribe, watch.warning);
}

/** Why this vault was last locked, or null (re-renders with the sessions). */
export function useLockedBecause(vaultId: string | undefined) {
  const sessions = useVaultSessions();
  useSyncExternalStore(sessions.subscribe, sessions.version);
  return vaultId ? sessions.lockedBecause(vaultId) : null;
}

/** The crypto Worker's handle of an unlocked vault's keys; throws 'Vault is not unlocked'. */
export const sessionOf = (vaultId: string): SessionId => defaultSessions.handleOf(vaultId);

/** Ends every session, e.g. at sign-out. */
export const endAllVaultSessions = () => defaultSessions.endAll();

/** The app's store itself, for code outside React (and tests) that opens a vault. */
export const appVaultSessions = defaultSessions;
