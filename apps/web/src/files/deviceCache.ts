// What opening a file vault does not need to do twice (bench/RESULTS.md "Files at scale"):
//
// - Its records are fetched while the password is typed (`prefetchFileRecords`, from the unlock
//   dialog), digested for the manifest check then too when this device has no cache of the
//   vault, and taken once when the key opens (earlyOpen.ts) or by the first listing
//   (`takeFileRecords`).
// - This device keeps what it decrypted and digested from each record, sealed under the vault's
//   key (vault-format.md "Device cache"; `sealCache` in the crypto Worker), in IndexedDB: the next
//   unlock decrypts and digests only the records that changed. An entry is used only for a record
//   whose every byte the digest covers is the same (`recordSig`), so it says exactly what the
//   record would. Without IndexedDB, or with a cache that does not open (another key since a
//   rotation, a damaged copy), everything is decrypted as before.
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { filesApi, type VaultFile } from '@sealvault/protocol';
import type { FileMeta, SessionId } from '@sealvault/crypto';
import { cryptoClient } from '../crypto/client.ts';
import { fileDigest } from '../vaults/manifest/vaultManifest.ts';

const prefetched = new Map<string, { at: number; records: Promise<VaultFile[]> }>();
/** The sealed caches read while the password is typed (they need no key). */
const early = new Map<string, Promise<unknown>>();
/** How long records fetched before the unlock stay good enough for the first listing. */
const PREFETCH_FRESH_MS = 60_000;

/** Starts fetching a file vault's (encrypted) records; nothing is decrypted. */
export function prefetchFileRecords(vaultId: string): void {
  const records = filesApi.list(vaultId).then((r) => r.files);
  records.catch(() => undefined); // taken later, or not at all
  prefetched.set(vaultId, { at: Date.now(), records });
  const sealed = get<unknown>(vaultId, cacheStore()).catch(() => undefined);
  early.set(vaultId, sealed);
  // A device without this vault's cache digests every record for the manifest check: that needs
  // no key, so it is done now, while the key is derived, not after (issue 31).
  void Promise.all([records, sealed])
    .then(([list, cache]) => (cache instanceof Uint8Array ? undefined : digestSoon(list)))
    .catch(() => undefined);
}

/** Computes the records' entry digests (kept by fileDigest) a slice at a time, between tasks. */
async function digestSoon(records: readonly VaultFile[]) {
  const SLICE = 500;
  for (let i = 0; i < records.length; i += SLICE) {
    await Promise.all(records.slice(i, i + SLICE).map(fileDigest));
    // The dialog stays responsive to typing between slices.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The records prefetched for this vault, once, if they are recent; else undefined. */
export function takeFileRecords(vaultId: string): Promise<VaultFile[]> | undefined {
  const p = prefetched.get(vaultId);
  prefetched.delete(vaultId);
  return p && Date.now() - p.at < PREFETCH_FRESH_MS ? p.records : undefined;
}

/** What this device learnt from one record: its metadata and its manifest entry digest. */
export interface Learnt {
  /** recordSig of the record (vaults/manifest/vaultManifest.ts): every byte that matters. */
  sig: string;
  meta: FileMeta;
  digest: string;
}

let store: UseStore | undefined;
const cacheStore = () => (store ??= createStore('sealvault-file-cache', 'vaults'));

interface Sealed {
  v: 1;
  /** id → [sig, meta, digest] */
  records: Record<string, [string, FileMeta, string]>;
}

const readSealed = (vaultId: string) => {
  const read = early.get(vaultId) ?? get<unknown>(vaultId, cacheStore());
  early.delete(vaultId);
  return read;
};

/** The device's cache of a vault, opened with its session; empty when there is none or it does not open. */
export async function loadLearnt(
  vaultId: string,
  session: SessionId,
): Promise<Map<string, Learnt>> {
  try {
    const sealed = await readSealed(vaultId);
    if (!(sealed instanceof Uint8Array)) return new Map();
    const bytes = new Uint8Array(sealed); // a copy on its own ArrayBuffer, as the Worker takes it
    const value = JSON.parse(await cryptoClient().openCache(session, bytes)) as Partial<Sealed>;
    if (value.v !== 1 || typeof value.records !== 'object' || value.records === null) {
      return new Map();
    }
    const learnt = new Map<string, Learnt>();
    for (const id in value.records) {
      const [sig, meta, digest] = value.records[id]!;
      learnt.set(id, { sig, meta, digest });
    }
    return learnt;
  } catch {
    return new Map();
  }
}

/** Seals and stores what was learnt; a failure only means the next unlock decrypts again. */
export async function saveLearnt(
  vaultId: string,
  session: SessionId,
  learnt: ReadonlyMap<string, Learnt>,
): Promise<void> {
  try {
    const records: Sealed['records'] = {};
    for (const [id, l] of learnt) records[id] = [l.sig, l.meta, l.digest];
    const text = JSON.stringify({ v: 1, records } satisfies Sealed);
    await set(vaultId, await cryptoClient().sealCache(session, text), cacheStore());
  } catch {
    // Without IndexedDB (a private window may refuse it) there is no cache: nothing is lost.
  }
}

/** Forgets a vault's cache on this device (the vault was deleted). */
export const forgetLearnt = (vaultId: string) => del(vaultId, cacheStore()).catch(() => undefined);
