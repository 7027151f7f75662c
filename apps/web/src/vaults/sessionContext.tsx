// React access to the vault sessions: one store for the app, created with the crypto client's
// lock so that ending a session (expiry, Lock Vault, delete) makes the Worker forget the keys.
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { createVaultSessions, type VaultSessions } from './vaultSessions.ts';

const defaultSessions = createVaultSessions((vaultId) => vaultKeys.lock(vaultId));

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

/** Ends every session, e.g. at sign-out. */
export const endAllVaultSessions = () => defaultSessions.endAll();
