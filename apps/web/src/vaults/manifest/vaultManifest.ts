// The vault manifest in the app (ADR 0007): unlock checks the key slots and the manifest before
// anything of the vault is shown, every list is checked against the manifest, and every change
// the app makes is followed by the manifest's next version. The rules live in manifestCore.ts,
// wired to the server API, the crypto Worker and IndexedDB in manifests.ts; the unlock and its
// check are unlockChecked.ts. This file holds the list check and the commits, and is the module
// the app imports all of it from.
import type { FileEntry, SessionId } from '@sealvault/crypto';
import {
  vaultsApi,
  type SecretRecord,
  type Vault,
  type VaultFile,
  type VaultKey,
} from '@sealvault/protocol';
import { digestFiles, digestSecrets, fileDigest, secretDigest } from './entryDigests.ts';
import { heldKeyRevision, noteKeyRevision } from './keyRevision.ts';
import { integrityTexts, VaultIntegrityError, type ManifestRecord } from './manifestCore.ts';
import { manifests, slotPrints, vaultFields } from './manifests.ts';
import { compareWithManifest, type Problem } from './problems.ts';

export { VaultIntegrityError, integrityTexts } from './manifestCore.ts';
export { manifests, slotPrints, vaultFields } from './manifests.ts';
export {
  fetchManifestAnswer,
  passkeyNeedsManifestText,
  unlockChecked,
  type ManifestAnswer,
  type UnlockOptions,
  type UnlockSecret,
} from './unlockChecked.ts';

export { fileDigest, knownFileDigests, recordSig, secretDigest } from './entryDigests.ts';

/** After this device changed the vault's key: its new key revision is the one it holds. */
export const noteRotation = noteKeyRevision;

/**
 * Checks what the server listed against the verified manifest: the vault's fields, its slots,
 * and the files or secrets given. Throws VaultIntegrityError when the manifest itself is refused.
 * `verifiedManifest`: one the caller has just loaded (manifests.load), not fetched again.
 * `vaultRecord`: the vault's record as the caller just read it (follow.ts), not read again.
 */
export async function checkAgainstManifest(
  vaultId: string,
  session: SessionId,
  listed: { files?: VaultFile[]; secrets?: SecretRecord[] },
  verifiedManifest?: ManifestRecord,
  vaultRecord?: Vault,
): Promise<Problem[]> {
  const [vault, files, secrets] = await Promise.all([
    vaultRecord ?? vaultsApi.get(vaultId).then((r) => r.vault),
    listed.files ? digestFiles(listed.files) : undefined,
    listed.secrets ? digestSecrets(listed.secrets) : undefined,
  ]);
  let verified;
  try {
    verified = verifiedManifest
      ? { manifest: verifiedManifest }
      : await manifests.load(session, vaultId);
  } catch (err) {
    const at = heldKeyRevision(vaultId);
    if (err instanceof VaultIntegrityError && at !== undefined && at !== vault.key_revision)
      throw new VaultIntegrityError(integrityTexts.rotatedElsewhere);
    throw err;
  }
  if (!verified) return [];
  const slots = await slotPrints(vault.key);
  const problems = compareWithManifest(verified.manifest, {
    vault: vaultFields(vault),
    ...(files ? { files } : {}),
    ...(secrets ? { secrets } : {}),
  });
  // Slots: the server may hold fewer than pinned (mid-change), never one the manifest lacks.
  const pinned = new Set(verified.manifest.slots);
  if (!slots.every((s) => pinned.has(s))) problems.unshift({ kind: 'slots' });
  return problems;
}

/** After a secret was created, edited (`record`) or deleted (`null`): the next manifest. */
export async function commitSecret(
  vaultId: string,
  session: SessionId,
  id: string,
  record: Pick<SecretRecord, 'id' | 'revision' | 'data'> | null,
): Promise<void> {
  const entry = record && { revision: record.revision, digest: await secretDigest(record) };
  await manifests.commit(session, vaultId, (m) => {
    const secrets = m.secrets.filter(([s]) => s !== id);
    if (entry) secrets.push([id, entry.revision, entry.digest]);
    return { ...m, secrets };
  });
}

/** After a file was added or renamed (`record`: what the client sent) or deleted (`null`). */
export async function commitFile(
  vaultId: string,
  session: SessionId,
  id: string,
  record: FileEntry | null,
): Promise<void> {
  const digest = record && (await fileDigest(record));
  await manifests.commit(session, vaultId, (m) => {
    const files = m.files.filter(([f]) => f !== id);
    if (digest) files.push([id, digest]);
    return { ...m, files };
  });
}

/** Slots: `also` is added to the pinned set (before the server's key changes), or `only` replaces it. */
export async function commitSlots(
  vaultId: string,
  session: SessionId,
  change: { also: VaultKey } | { only: VaultKey },
): Promise<void> {
  const prints = await slotPrints('also' in change ? change.also : change.only);
  await manifests.commit(session, vaultId, (m) => ({
    ...m,
    slots: 'also' in change ? [...new Set([...m.slots, ...prints])] : prints,
  }));
}

/** The manifest record type, for callers that hand one to the rotation request. */
export type { ManifestRecord };
