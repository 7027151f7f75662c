// Signing out: the server ends the session (Better Auth's sign-out), every vault is locked, and
// the visitor lands on the landing page (or `to`) with a full page load, so nothing of the
// signed-in user stays in memory.
//
// [Note: sign-out under way] From the click until the page goes, this document is still alive and
// its session store sees the session end. The session guard (RequireAuth.tsx) would then send the
// visitor to /auth in this document, whose passkey autofill (conditional mediation) starts at once;
// an authenticator that answers it (a virtual one in e2e did) signed the user straight back in.
// So a sign-out is marked as under way before it starts, the guard keeps the screen still while it
// is, and only the full page load leaves it. The mark is never cleared: the page it belongs to goes.
import { useCallback, useSyncExternalStore } from 'react';
import { authClient } from '../auth/authClient.ts';
import { forgetSignedIn } from '../auth/signedInHint.ts';
import { endAllVaultSessions } from '../vaults/sessionContext.tsx';

let signingOut = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True from the moment a sign-out starts in this document ([Note: sign-out under way]). */
export function useSigningOut(): boolean {
  return useSyncExternalStore(subscribe, () => signingOut);
}

/**
 * Marks this document as leaving the signed-in session: the guard keeps the screen still until
 * the page load that follows (a sign-out, or an account deleted: settings/DeleteAccountPanel.tsx).
 */
export function markSigningOut(): void {
  signingOut = true;
  forgetSignedIn();
  for (const listener of listeners) listener();
}

export function useSignOut() {
  return useCallback(async (to = '/') => {
    markSigningOut();
    try {
      await authClient.signOut();
    } finally {
      // The Worker forgets every vault key now, before the page goes.
      endAllVaultSessions();
      window.location.replace(to);
    }
  }, []);
}
