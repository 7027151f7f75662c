// Server state of vaults and limits (TanStack Query). Mutations refresh the list. What only a
// deletion needs (the storage adapters, the device's caches) is imported when one happens: the
// dashboard's first screen loads this module, and should not wait for those (issue 31).
//
// [Note: schemas beside the first read]
// The answers are checked with the protocol's schemas, and those (zod and the schemas, about
// 25 KiB compressed) were a static import here: the dashboard's first screen, which draws its
// frame, heading and top bar without any answer, waited for them to load. They come from
// vaultRequests.ts now, imported when a query first runs; the vault list's and the limits'
// requests go out at once through earlyFetch, beside that import, and are checked when both have
// arrived, so an answer is never used unchecked and the first read does not wait for the schemas
// to start.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FALLBACK_LIMITS, type Vault } from '@sealvault/protocol';
import { earlyFetch } from '../auth/sessionPrefetch.ts';
import { forgetAccess } from './lastAccessed.ts';

const requests = () => import('./vaultRequests.ts');

export const vaultKeysQuery = {
  all: ['vaults'] as const,
  one: (id: string) => ['vaults', id] as const,
  limits: ['limits'] as const,
};

// vaultsApi's list, limits and vault, except that the page's first list and limits may take the
// answer to the request sent with the entry at /dashboard ([Note: early session check]); checked
// here all the same. Sent as requestJson sends a GET, then checked by it ([Note: schemas beside
// the first read]).
const send = (path: string): Promise<Response> => {
  const answer = earlyFetch(path, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  answer.catch(() => undefined); // the check sees a failure, once the schemas have loaded
  return answer;
};
const listVaults = async () => {
  const answer = send('/api/vaults');
  return (await requests()).checkVaultList(answer);
};
const readLimits = async () => {
  const answer = send('/api/limits');
  return (await requests()).checkLimits(answer);
};

export function useVaultList() {
  return useQuery({ queryKey: vaultKeysQuery.all, queryFn: listVaults });
}

export function useVault(id: string) {
  return useQuery({
    queryKey: vaultKeysQuery.one(id),
    queryFn: async () => {
      const path = `/api/vaults/${encodeURIComponent(id)}`;
      const answer = send(path);
      return (await requests()).checkVault(path, answer);
    },
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
  });
}

/** The plan limits; the spec's fallback (2 vaults, 2 MB) while they cannot be read. */
export function useLimits() {
  const q = useQuery({ queryKey: vaultKeysQuery.limits, queryFn: readLimits });
  return { ...q, limits: q.data ?? FALLBACK_LIMITS };
}

export function useInvalidateVaults() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
}

export function useDeleteVault() {
  const qc = useQueryClient();
  return useMutation({
    // The server removes the vault and what it stores; another provider's copies go from here.
    mutationFn: async (vault: Pick<Vault, 'id' | 'provider_type' | 'storage_folder'>) => {
      await (await requests()).removeVault(vault.id);
      // Best effort: the vault is gone either way; what is left is unreadable without its keys.
      await Promise.resolve()
        .then(async () => {
          const { providerFor, registerVaultStorage } = await import('../storage/providers.ts');
          registerVaultStorage(vault); // a cloud vault's folder, if the page has not opened it
          const storage = providerFor(vault.provider_type);
          if (storage.type !== 'server') await storage.removeContainer(vault.id);
        })
        .catch(() => undefined);
    },
    onSuccess: (_r, { id }) => {
      forgetAccess(id);
      void import('./manifest/deviceStore.ts').then((m) => m.forgetSeenManifest(id));
      void import('../files/deviceCache.ts').then((m) => m.forgetLearnt(id));
      qc.setQueryData<Vault[]>(vaultKeysQuery.all, (old) => old?.filter((v) => v.id !== id));
      qc.removeQueries({ queryKey: vaultKeysQuery.one(id) });
      void qc.invalidateQueries({ queryKey: vaultKeysQuery.limits }); // its files' storage is freed
      return qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
    },
  });
}
