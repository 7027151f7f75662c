// Signing out: the server ends the session (Better Auth's sign-out), every vault is locked, and
// the visitor lands on the landing page (or `to`) with a full page load, so nothing of the
// signed-in user stays in memory. A client-side navigation raced with the session guard, which
// could send the visitor to /auth first.
import { useCallback } from 'react';
import { authClient } from '../auth/authClient.ts';
import { endAllVaultSessions } from '../vaults/sessionContext.tsx';

export function useSignOut() {
  return useCallback(async (to = '/') => {
    try {
      await authClient.signOut();
    } finally {
      // The Worker forgets every vault key now, before the page goes.
      endAllVaultSessions();
      window.location.replace(to);
    }
  }, []);
}
