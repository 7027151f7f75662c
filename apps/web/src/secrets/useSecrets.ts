// The decrypted secrets of an unlocked vault, and the changes to them. Records are decrypted in
// the Worker in one batch; the list reloads after each create, update and delete (spec §4). A
// stale update (another tab saved first) throws SecretConflictError after the list is refreshed,
// so the newer version is on screen and the user's edit is still in the form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { secretsApi, type SecretRecord } from '@sealvault/protocol';
import { itemCrypto } from '../crypto/items.ts';
import type { Secret, SecretFields } from './model.ts';

export const secretsKey = (vaultId: string) => ['secrets', vaultId] as const;

export interface SecretsList {
  secrets: Secret[];
  /** Records that did not decrypt (tampered or from another vault): counted, never shown. */
  unreadable: number;
}

async function decryptAll(vaultId: string, records: SecretRecord[]): Promise<SecretsList> {
  const fields = await itemCrypto.decryptMany(vaultId, records);
  const secrets: Secret[] = [];
  records.forEach((r, i) => {
    const f = fields[i];
    if (f)
      secrets.push({
        ...f,
        id: r.id,
        revision: r.revision,
        created_at: r.created_at,
        updated_at: r.updated_at,
      });
  });
  return { secrets, unreadable: records.length - secrets.length };
}

export function useSecrets(vaultId: string) {
  return useQuery({
    queryKey: secretsKey(vaultId),
    queryFn: async () => decryptAll(vaultId, (await secretsApi.list(vaultId)).secrets),
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
      if (!secret) {
        const id = crypto.randomUUID();
        const data = await itemCrypto.encrypt(vaultId, id, 1, fields);
        return secretsApi.create(vaultId, { id, revision: 1, data });
      }
      const data = await itemCrypto.encrypt(vaultId, secret.id, secret.revision + 1, fields);
      return secretsApi.update(vaultId, secret.id, { expected_revision: secret.revision, data });
    },
    onSettled: reload,
  });

  const remove = useMutation({
    mutationFn: (id: string) => secretsApi.remove(vaultId, id),
    onSettled: reload,
  });

  return { save, remove };
}
