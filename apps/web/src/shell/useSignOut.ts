// Signing out: the server ends the session (Better Auth's sign-out), the cached server state of
// this user is dropped, every vault is locked, and the visitor lands on the landing page.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { authClient } from '../auth/authClient.ts';
import { endAllVaultSessions } from '../vaults/sessionContext.tsx';

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (to = '/') => {
      try {
        await authClient.signOut();
      } finally {
        // The Worker forgets every vault key: a signed-out tab holds nothing that decrypts.
        endAllVaultSessions();
        queryClient.clear();
        await navigate(to, { replace: true });
      }
    },
    [navigate, queryClient],
  );
}
