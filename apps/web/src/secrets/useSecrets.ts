// The decrypted secrets of an unlocked vault, and the changes to them. Records come from the
// vault's source (store/sources.ts: our server, or the segment log in its provider, ADR 0008),
// checked against the manifest there, and are decrypted in the Worker in one batch; the first
// list after an unlock reuses what was decrypted while the unlock checked the vault
// ([Note: early secrets opening] in earlyOpen.ts).
//
// [Note: list after a change] A change the source accepted is put into the list at once (the
// form closes as soon as the write and its manifest are done), and the list is then read again in
// the background, so what other devices changed meanwhile shows too. A read decrypts only the
// records whose ciphertext it has not decrypted before (the previous list keeps id → ciphertext),
// so that reload costs the records that changed, not the vault. A stale update (another tab saved
// first) throws SecretConflictError after the list is refreshed, so the newer version is on screen
// and the user's edit is still in the form.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { secretsApi, type ProviderType, type SecretRecord, type Vault } from '@sealvault/protocol';
import { itemCrypto } from '../crypto/items.ts';
import { describeProblems, hiddenIds } from '../vaults/manifest/problems.ts';
import {
  checkAgainstManifest,
  secretDigest,
  type ManifestAnswer,
} from '../vaults/manifest/vaultManifest.ts';
import { providerFor, registerVaultStorage } from '../storage/providers.ts';
import { prefetchSegments } from './store/segmentLog.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import type { Secret, SecretData } from './model.ts';
import { inProvider, sourceFor, type Loaded } from './store/sources.ts';
import { followMove } from '../vaults/move/follow.ts';
import { noteEarlyRecords, takeOpenedSecrets, type OpenedItems } from './earlyOpen.ts';

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
  const fetched = qc
    .prefetchQuery({
      queryKey: recordsKey(vaultId),
      queryFn: async () => {
        const { secrets } = await secretsApi.list(vaultId);
        // Their manifest entry digests need no key either: computed now, not after the unlock.
        void digestSoon(secrets);
        return secrets;
      },
      staleTime: 30_000,
    })
    .catch(() => undefined);
  // Opened as soon as the key is ([Note: early secrets opening]).
  noteEarlyRecords(
    vaultId,
    fetched.then(() => qc.getQueryData<SecretRecord[]>(recordsKey(vaultId)) ?? []),
  );
  return fetched;
}

/** The entry digests of records (kept by secretDigest), a slice at a time between tasks. */
async function digestSoon(records: readonly SecretRecord[]) {
  for (let i = 0; i < records.length; i += 500) {
    await Promise.all(records.slice(i, i + 500).map(secretDigest));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the dialog stays responsive
  }
}

/**
 * A vault kept in its provider: its segments as the unlock's manifest (not verified yet) names
 * them, read while the key is derived (store/segmentLog.ts, prefetchSegments). A wrong list
 * costs only fetches: the read after the unlock takes only what its verified manifest pins.
 */
export function prefetchSegmentsFor(
  vault: { id: string; provider_type: ProviderType; storage_folder?: string | null },
  manifest: Promise<ManifestAnswer>,
): void {
  if (vault.provider_type === 'server') return;
  // Its folder in the provider, as SecretsManager registers it once the vault is open.
  registerVaultStorage(vault);
  const items = manifest
    .then((answer) => {
      if (answer.kind !== 'present' || !answer.manifest.segments) return [];
      const deps = {
        vaultId: vault.id,
        blobs: providerFor(vault.provider_type),
        digestOf: secretDigest,
      };
      return prefetchSegments(deps, answer.manifest.segments);
    })
    .catch(() => []); // the read after the unlock fetches what is missing
  // Opened as soon as the key is ([Note: early secrets opening]).
  noteEarlyRecords(vault.id, items);
}

export interface SecretsList {
  secrets: Secret[];
  /** Records that did not decrypt (tampered or from another vault): counted, never shown. */
  unreadable: number;
  /** What does not match the vault's manifest, in the user's words; those items are not shown. */
  integrity: string[];
  /** The ciphertext each shown secret was decrypted from, by id: [Note: list after a change]. */
  ciphers: ReadonlyMap<string, string>;
}

const byTitle = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

const sortByTitle = (secrets: Secret[]) =>
  // Sorted by title (the encrypted record's own), never by the server's order (ADR 0007).
  secrets.sort((a, b) => byTitle.compare(a.title, b.title) || (a.id < b.id ? -1 : 1));

/**
 * Decrypts the records, leaving out what the manifest check refused (ADR 0007). A record whose
 * id, revision and ciphertext are those of a secret in `previous`, or of an item opened early
 * (`early`, [Note: early secrets opening]), reuses its decrypted fields.
 */
export async function decryptAll(
  vaultId: string,
  loaded: Loaded,
  previous?: SecretsList,
  early?: OpenedItems,
): Promise<SecretsList> {
  const { records, problems, holder } = loaded;
  const known = new Map(previous?.secrets.map((s) => [s.id, s]));
  const reused = (r: SecretRecord): SecretData | null => {
    const s = known.get(r.id);
    if (s && s.revision === r.revision && previous?.ciphers.get(r.id) === r.data) return s;
    const e = early?.get(r.id);
    return e && e.revision === r.revision && e.data === r.data ? e.fields : null;
  };
  const fresh = records.filter((r) => !reused(r));
  const decrypted = await itemCrypto.decryptMany(vaultId, fresh);
  const opened = new Map(fresh.map((r, i) => [r, decrypted[i] ?? null]));
  const hidden = hiddenIds(problems);
  const titles = new Map<string, string>();
  const ciphers = new Map<string, string>();
  const secrets: Secret[] = [];
  let unreadable = 0;
  for (const r of records) {
    const f: SecretData | null = reused(r) ?? opened.get(r) ?? null;
    if (f) titles.set(r.id, f.title);
    if (hidden.has(r.id)) continue;
    if (!f) {
      unreadable += 1;
      continue;
    }
    ciphers.set(r.id, r.data);
    secrets.push({
      ...f,
      id: r.id,
      revision: r.revision,
      created_at: r.created_at,
      updated_at: r.updated_at,
    });
  }
  return {
    secrets: sortByTitle(secrets),
    unreadable,
    integrity: describeProblems(problems, (id) => titles.get(id), holder),
    ciphers,
  };
}

/** The list with `secret` (encrypted as `data`) in place of its old version, or without `id`. */
export function patched(
  list: SecretsList,
  id: string,
  change: { secret: Secret; data: string } | null,
): SecretsList {
  const secrets = list.secrets.filter((s) => s.id !== id);
  const ciphers = new Map(list.ciphers);
  ciphers.delete(id);
  if (change) {
    // Into its place in the sorted list (a binary search, not a sort of thousands).
    const order = (a: Secret, b: Secret) =>
      byTitle.compare(a.title, b.title) || (a.id < b.id ? -1 : 1);
    let lo = 0;
    let hi = secrets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(secrets[mid]!, change.secret) < 0) lo = mid + 1;
      else hi = mid;
    }
    secrets.splice(lo, 0, change.secret);
    ciphers.set(id, change.data);
  }
  return { ...list, secrets, ciphers };
}

export function useSecrets(vaultId: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: secretsKey(vaultId),
    queryFn: async () => {
      // A prefetched copy is used once, then dropped, so every reload asks the server again.
      const prefetched = qc.getQueryData<SecretRecord[]>(recordsKey(vaultId));
      qc.removeQueries({ queryKey: recordsKey(vaultId), exact: true });
      // The first list after an unlock: what it decrypted meanwhile, and the vault it read.
      const opening = takeOpenedSecrets(vaultId, sessionOf(vaultId));
      const vault = await followMove(qc, vaultId, opening?.vault);
      const source = sourceFor(vaultId);
      const loaded: Loaded =
        prefetched && !inProvider(vaultId)
          ? await withProblems(vaultId, prefetched, vault)
          : await source.load(vault);
      const early = await opening?.items.catch(() => undefined);
      return decryptAll(vaultId, loaded, qc.getQueryData<SecretsList>(secretsKey(vaultId)), early);
    },
  });
}

/** A prefetched server list, checked as the server source checks what it loads. */
async function withProblems(
  vaultId: string,
  records: SecretRecord[],
  vault: Vault | undefined,
): Promise<Loaded> {
  const problems = await checkAgainstManifest(
    vaultId,
    sessionOf(vaultId),
    { secrets: records },
    undefined,
    vault,
  );
  return { records, problems, holder: 'the server' };
}

/** How long after a change the list is read again (other devices' changes show then). */
const RELOAD_AFTER_CHANGE_MS = 1000;

export function useSecretMutations(vaultId: string) {
  const qc = useQueryClient();
  const reload = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: secretsKey(vaultId) }),
      qc.invalidateQueries({ queryKey: ['vaults'] }),
    ]);
  // [Note: list after a change]: shown at once, read again a moment later, so the reload neither
  // holds the form open nor competes with closing it.
  const shown = (id: string, change: { secret: Secret; data: string } | null) => {
    qc.setQueryData<SecretsList>(secretsKey(vaultId), (list) => list && patched(list, id, change));
    setTimeout(() => void reload(), RELOAD_AFTER_CHANGE_MS);
  };

  const save = useMutation({
    mutationFn: async ({ secret, fields }: { secret: Secret | null; fields: SecretData }) => {
      // Each change is followed by the manifest's next version (ADR 0007), made from what was
      // sent (not the server's echo), before the list shows it.
      const source = sourceFor(vaultId);
      const now = new Date().toISOString();
      if (!secret) {
        const id = crypto.randomUUID();
        const data = await itemCrypto.encrypt(vaultId, id, 1, fields);
        await source.create(id, data);
        const added = { ...fields, id, revision: 1, created_at: now, updated_at: now };
        return { secret: added, data };
      }
      const data = await itemCrypto.encrypt(vaultId, secret.id, secret.revision + 1, fields);
      await source.update(secret, data);
      const revision = secret.revision + 1;
      return {
        secret: {
          ...fields,
          id: secret.id,
          revision,
          created_at: secret.created_at,
          updated_at: now,
        },
        data,
      };
    },
    onSuccess: (change) => shown(change.secret.id, change),
    onError: reload,
  });

  const remove = useMutation({
    mutationFn: async (secret: Pick<Secret, 'id' | 'revision'>) => {
      await sourceFor(vaultId).remove(secret);
      return secret.id;
    },
    onSuccess: (id) => shown(id, null),
    onError: reload,
  });

  return { save, remove };
}
