// When a vault locks (expiry, idle, Lock Vault), the page forgets what it decrypted from it: the
// decrypted secrets, file names and thumbnails leave the query cache, and decrypt again after the next
// unlock. A page kept in place ([Note: kept work] in VaultFrame.tsx) keeps its forms, not the data.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useVaultSessions } from './sessionContext.tsx';

export function useForgetOnLock(): void {
  const qc = useQueryClient();
  const sessions = useVaultSessions();
  useEffect(() => {
    let open = new Set(sessions.list().map((s) => s.vaultId));
    return sessions.subscribe(() => {
      const now = new Set(sessions.list().map((s) => s.vaultId));
      for (const id of open) {
        if (now.has(id)) continue;
        qc.removeQueries({ queryKey: ['secrets', id] });
        qc.removeQueries({ queryKey: ['files', id] });
        qc.removeQueries({ queryKey: ['thumbnail', id] });
      }
      open = now;
    });
  }, [qc, sessions]);
}
