// The decrypted secrets of an unlocked vault, and the changes to them. Records are decrypted in
// the Worker in one batch; the list reloads after each create, update and delete (docs/product.md §4). A
// stale update (another tab saved first) throws SecretConflictError after the list is refreshed,
// so the newer version is on screen and the user's edit is still in the form.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { secretsApi, type SecretRecord } from '@sealvault/protocol';
import { itemCrypto } from '../crypto/items.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import { describeProblems, hiddenIds } from '../vaults/manifest/problems.ts';
import { withCurrentKey } from '../vaults/manifest/keyRevision.ts';
import { checkAgainstManifest, commitSecret } from '../vaults/manifest/vaultManifest.ts';
import type { Secret, SecretFields } from './model.ts';

export const secretsKey = (vaultId: string) => ['secrets', vaultId] as const;
/** The encrypted records as the server sent them (safe to hold before unlock). */
const recordsKey = (vaultId: string) => ['secrets', vaultId, 'records'] as const;

/**
 * Fetches the encrypted records ahead of time, e.g. while the unlock dialog is open, so the list
 * appears as soon as the key is derived. The records are ciphertext: holding them reveals nothing.
 */
export function prefetchSecretRecords(qc: QueryClient, vaultId: string) {
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

/** Decrypts the records and checks them against the vault's manifest (ADR 0007). */
async function decryptAll(vaultId: string, records: SecretRecord[]): Promise<SecretsList> {
  const [fields, problems] = await Promise.all([
    itemCrypto.decryptMany(vaultId, records),
    checkAgainstManifest(vaultId, sessionOf(vaultId), { secrets: records }),
  ]);
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
  return { secrets, unreadable, integrity: describeProblems(problems, (id) => titles.get(id)) };
}

export function useSecrets(vaultId: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: secretsKey(vaultId),
    queryFn: async () => {
      // A prefetched copy is used once, then dropped, so every reload asks the server again.
      const prefetched = qc.getQueryData<SecretRecord[]>(recordsKey(vaultId));
      qc.removeQueries({ queryKey: recordsKey(vaultId), exact: true });
      return decryptAll(vaultId, prefetched ?? (await secretsApi.list(vaultId)).secrets);
    },
  });
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
      const session = sessionOf(vaultId);
      if (!secret) {
        const id = crypto.randomUUID();
        const data = await itemCrypto.encrypt(vaultId, id, 1, fields);
        // [Note: key revision of a write] in vaults/manifest/keyRevision.ts.
        const created = await withCurrentKey(vaultId, (key_revision) =>
          secretsApi.create(vaultId, { id, revision: 1, data, key_revision }),
        );
        await commitSecret(vaultId, session, id, { id, revision: 1, data });
        return created;
      }
      const data = await itemCrypto.encrypt(vaultId, secret.id, secret.revision + 1, fields);
      const updated = await withCurrentKey(vaultId, (key_revision) =>
        secretsApi.update(vaultId, secret.id, {
          expected_revision: secret.revision,
          data,
          key_revision,
        }),
      );
      const revision = secret.revision + 1;
      await commitSecret(vaultId, session, secret.id, { id: secret.id, revision, data });
      return updated;
    },
    onSettled: reload,
  });

  const remove = useMutation({
    mutationFn: async (id: string) => {
      const session = sessionOf(vaultId);
      await secretsApi.remove(vaultId, id);
      await commitSecret(vaultId, session, id, null);
    },
    onSettled: reload,
  });

  return { save, remove };
}
