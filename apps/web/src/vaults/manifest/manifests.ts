// The manifest core (manifestCore.ts) wired to the server API, the crypto Worker and IndexedDB,
// and the vault's parts a manifest pins (its fields, its slots' fingerprints): shared by the
// unlock (unlockChecked.ts) and the checks and commits after it (vaultManifest.ts, the module the
// app imports all of this from).
import {
  checkChain,
  slotFingerprint,
  type Manifest,
  type ManifestVault,
  type SessionId,
} from '@sealvault/crypto';
import {
  ManifestConflictError,
  manifestSchema,
  vaultsApi,
  type Vault,
  type VaultKey,
} from '@sealvault/protocol';
import { ZodError } from 'zod';
import { cryptoClient } from '../../crypto/client.ts';
import { indexedDbStore, type ManifestDeviceStore } from './deviceStore.ts';
import { createManifestCore, integrityTexts, VaultIntegrityError } from './manifestCore.ts';

let store: ManifestDeviceStore | null = null;
export const deviceStore = () => (store ??= indexedDbStore());

// The unlock verifies the vault's manifest and the first listing right after fetches and
// verifies it again (0.3 s of the Worker for 10,000 files, bench/RESULTS.md): the last manifest
// each session verified is remembered with its answer, which depends on nothing else.
type Verified = ReturnType<ReturnType<typeof cryptoClient>['verifyManifest']>;
const lastVerified = new Map<SessionId, { text: string; result: Verified }>();

function verifyOnce(session: SessionId, _vaultId: string, manifest: Manifest) {
  const text = JSON.stringify(manifest);
  const known = lastVerified.get(session);
  if (known?.text === text) return known.result;
  const result = cryptoClient().verifyManifest(session, manifest);
  if (lastVerified.size > 64) lastVerified.clear();
  lastVerified.set(session, { text, result });
  result.catch(() => lastVerified.delete(session));
  return result;
}

export const manifests = createManifestCore<SessionId>({
  async fetch(vaultId) {
    try {
      return (await vaultsApi.manifest(vaultId)).manifest;
    } catch (err) {
      // A manifest the schema refuses (unsorted, duplicated, malformed) is the server's doing.
      if (err instanceof ZodError) throw new VaultIntegrityError(integrityTexts.invalid);
      throw err;
    }
  },
  async put(vaultId, expected, manifest) {
    try {
      // Checked against the protocol before it leaves: a malformed one is a bug here.
      const checked = manifestSchema.parse(manifest);
      await vaultsApi.putManifest(vaultId, { expected_version: expected, manifest: checked });
      return true;
    } catch (err) {
      if (err instanceof ManifestConflictError) return false;
      throw err;
    }
  },
  sign: (session, _vaultId, unsigned) => cryptoClient().signManifest(session, unsigned),
  verify: verifyOnce,
  chain: checkChain,
  store: {
    get: (id) => deviceStore().get(id),
    put: (id, seen) => deviceStore().put(id, seen),
    remove: (id) => deviceStore().remove(id),
  },
});

/** The vault's own fields as the manifest pins them. */
export const vaultFields = (v: Vault): ManifestVault => ({
  name: v.name,
  description: v.description ?? '',
  vault_type: v.vault_type,
  provider_type: v.provider_type,
  storage_folder: v.storage_folder ?? '',
});

export const slotPrints = (key: VaultKey): Promise<string[]> =>
  Promise.all(key.slots.map((s) => slotFingerprint(s)));
