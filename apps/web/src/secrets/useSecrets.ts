// The decrypted secrets of an unlocked vault, and the changes to them. Records come from the
// vault's source (store/sources.ts: our server, or the segment log in its provider, ADR 0008),
// checked against the manifest there, and are decrypted in the Worker in one batch; the list
// reloads after each create, update and delete (docs/product.md §4). A stale update (another tab
// saved first) throws SecretConflictError after the list is refreshed, so the newer version is on
// screen and the user's edit is still in the form.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { secretsApi, type SecretRecord } from '@sealvault/protocol';
import { itemCrypto } from '../crypto/items.ts';
import { describeProblems, hiddenIds } from '../vaults/manifest/problems.ts';
import { checkAgainstManifest } from '../vaults/manifest/vaultManifest.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import type { Secret, SecretFields } from './model.ts';
import { inProvider, sourceFor, type Loaded } from './store/sources.ts';

export const secretsKey = (vaultId: string) => ['secrets', vaultId] as const;
/** The encrypted records as the server sent them (safe to hold before unlock). */
const recordsKey = (vaultId: string) => ['secrets', vaultId, 'records'] as const;

/**
 * Fetches the encrypted records ahead of time, e.g. while the unlock dialog is open, so the list
 * appears as soon as the key is derived. The records are ciphertext: holding them reveals nothing.
 * A vault kept in its provider reads them there after unlock (it needs the verified manifest).
 */
export function prefetchSecretRecords(
  qc: QueryClient,
  vault: { id: string; provider_type: string },
) {
  const vaultId = vault.id;
  if (vault.provider_type !== 'server') return Promise.resolve();
  return qc.prefetchQuery({
    queryKey: recordsKey(vaultId),
    queryFn: async () => (await secretsApi.list(vaultId)).secrets,
    staleTime: 30_000,
  });
}

export interface SecretsList {
  secrets: Secret[];
  /** Records that did not decrypt (tampered or from another vault): counted, never shown. */
  unreadable: number;
  /** What does not match the vault's manifest, in the user's words; those items are not shown. */
  integrity: string[];
}

const byTitle = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Decrypts the records, leaving out what the manifest check refused (ADR 0007). */
async function decryptAll(vaultId: string, loaded: Loaded): Promise<SecretsList> {
  const { records, problems, holder } = loaded;
  const fields = await itemCrypto.decryptMany(vaultId, records);
  const hidden = hiddenIds(problems);
  const titles = new Map<string, string>();
  const secrets: Secret[] = [];
  let unreadable = 0;
  records.forEach((r, i) => {
    const f = fields[i];
    if (f) titles.set(r.id, f.title);
    if (hidden.has(r.id)) return;
    if (!f) {
      unreadable += 1;
      return;
    }
    secrets.push({
      ...f,
      id: r.id,
      revision: r.revision,
      created_at: r.created_at,
      updated_at: r.updated_at,
    });
  });
  // Sorted by title (the encrypted record's own), never by the server's order (ADR 0007).
  secrets.sort((a, b) => byTitle.compare(a.title, b.title) || (a.id < b.id ? -1 : 1));
  return {
    secrets,
    unreadable,
    integrity: describeProblems(problems, (id) => titles.get(id), holder),
  };
}

export function useSecrets(vaultId: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: secretsKey(vaultId),
    queryFn: async () => {
      // A prefetched copy is used once, then dropped, so every reload asks the server again.
      const prefetched = qc.getQueryData<SecretRecord[]>(recordsKey(vaultId));
      qc.removeQueries({ queryKey: recordsKey(vaultId), exact: true });
      const source = sourceFor(vaultId);
      const loaded: Loaded =
        prefetched && !inProvider(vaultId)
          ? await withProblems(vaultId, prefetched)
          : await source.load();
      return decryptAll(vaultId, loaded);
    },
  });
}

/** A prefetched server list, checked as the server source checks what it loads. */
async function withProblems(vaultId: string, records: SecretRecord[]): Promise<Loaded> {
  const problems = await checkAgainstManifest(vaultId, sessionOf(vaultId), { secrets: records });
  return { records, problems, holder: 'the server' };
}

export function useSecretMutations(vaultId: string) {
  const qc = useQueryClient();
  const reload = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: secretsKey(vaultId) }),
      qc.invalidateQueries({ queryKey: ['vaults'] }),
    ]);

  const save = useMutation({
    mutationFn: async ({ secret, fields }: { secret: Secret | null; fields: SecretFields }) => {
      // Each change is followed by the manifest's next version (ADR 0007), made from what was
      // sent (not the server's echo), before the list reloads.
      const source = sourceFor(vaultId);
      if (!secret) {
        const id = crypto.randomUUID();
        await source.create(id, await itemCrypto.encrypt(vaultId, id, 1, fields));
        return;
      }
      const data = await itemCrypto.encrypt(vaultId, secret.id, secret.revision + 1, fields);
      await source.update(secret, data);
    },
    onSettled: reload,
  });

  const remove = useMutation({
    mutationFn: async (secret: Pick<Secret, 'id' | 'revision'>) => {
      await sourceFor(vaultId).remove(secret);
    },
    onSettled: reload,
  });

  return { save, remove };
}
