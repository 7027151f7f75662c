// What this device remembers of each vault's manifest (ADR 0007): the highest version it has
// accepted and that version's hash. Nothing here is secret (the server
// holds all of it too); it is what lets a device notice the server going back in time. Kept in
// IndexedDB so that it outlives the tab; an in-memory store serves tests.
import { createStore, del, get, set } from 'idb-keyval';

export interface SeenManifest {
  version: number;
  /** The manifest's hash (manifestHash), lowercase hex. */
  hash: string;
}

export interface ManifestDeviceStore {
  get(vaultId: string): Promise<SeenManifest | null>;
  put(vaultId: string, seen: SeenManifest): Promise<void>;
  /** Forgets a vault (it was deleted). */
  remove(vaultId: string): Promise<void>;
}

const isSeen = (v: unknown): v is SeenManifest => {
  const s = v as Partial<SeenManifest> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    Number.isSafeInteger(s.version) &&
    typeof s.hash === 'string'
  );
};

/**
 * IndexedDB, or memory for this page's life where the browser refuses IndexedDB (some private
 * modes): the checks still hold within the page, and nothing stops a vault from opening.
 */
export function indexedDbStore(): ManifestDeviceStore {
  const memory = memoryStore();
  let store: ReturnType<typeof createStore> | null = null;
  const db = () => (store ??= createStore('sealvault-manifests', 'seen'));
  const fallback = async <T>(idb: () => Promise<T>, mem: () => Promise<T>): Promise<T> => {
    try {
      return await idb();
    } catch {
      return mem();
    }
  };
  return {
    get: (vaultId) =>
      fallback(
        async () => {
          const value: unknown = await get(vaultId, db());
          return isSeen(value) ? value : memory.get(vaultId);
        },
        () => memory.get(vaultId),
      ),
    async put(vaultId, seen) {
      await memory.put(vaultId, seen);
      await fallback(
        () => set(vaultId, seen, db()),
        () => Promise.resolve(),
      );
    },
    async remove(vaultId) {
      await memory.remove(vaultId);
      await fallback(
        () => del(vaultId, db()),
        () => Promise.resolve(),
      );
    },
  };
}

export function memoryStore(): ManifestDeviceStore {
  const map = new Map<string, SeenManifest>();
  return {
    get: (vaultId) => Promise.resolve(map.get(vaultId) ?? null),
    put: (vaultId, seen) => Promise.resolve(void map.set(vaultId, seen)),
    remove: (vaultId) => Promise.resolve(void map.delete(vaultId)),
  };
}

/** A deleted vault: this device forgets its manifest (a vault id is never reused). */
export const forgetSeenManifest = (vaultId: string): Promise<void> =>
  indexedDbStore()
    .remove(vaultId)
    .catch(() => undefined);
