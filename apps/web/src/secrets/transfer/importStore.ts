// Stores an import (issue 20): every item encrypted in the crypto Worker at revision 1, the vault
// manifest's next version made from the verified current one plus the new entries (ADR 0007), and
// both sent in ONE request (POST /api/vaults/:id/secrets/import) that the server applies all at
// once or not at all. A lost manifest race re-reads the manifest and tries again with the same
// ciphertexts; nothing is stored until the server accepts the whole request.
import { asItemId, itemEntryDigest, type SessionId } from '@sealvault/crypto';
import {
  ManifestConflictError,
  manifestSchema,
  secretsApi,
  type NewSecret,
} from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { msg } from '../../i18n/i18n.ts';
import { canonical, type ManifestRecord } from '../../vaults/manifest/manifestCore.ts';
import type { ManifestEntries } from '../../vaults/manifest/problems.ts';
import {
  integrityTexts,
  manifests,
  VaultIntegrityError,
} from '../../vaults/manifest/vaultManifest.ts';
import { withCurrentKey } from '../../vaults/manifest/keyRevision.ts';
import { storedFromTransfer } from '../itemFormat.ts';
import { importIntoProvider, inProvider } from '../store/sources.ts';
import type { TransferItem } from './model.ts';

/** Items encrypted per step: progress moves often, and the Worker pool stays busy. */
export const ENCRYPT_BATCH = 250;

/** The vault has no manifest (opened without unlockChecked): an import could not be pinned. */
export const NO_MANIFEST_MESSAGE = msg(
  'This vault has no manifest yet. Lock it and unlock it again, then import.',
);

/** Encrypts `items` as new secrets; `onProgress(done, total)` after each batch. */
export async function encryptForImport(
  session: SessionId,
  items: readonly TransferItem[],
  onProgress: (done: number, total: number) => void = () => undefined,
  newId: () => string = () => crypto.randomUUID(),
): Promise<NewSecret[]> {
  const client = cryptoClient();
  const out: NewSecret[] = [];
  for (let at = 0; at < items.length; at += ENCRYPT_BATCH) {
    const batch = items.slice(at, at + ENCRYPT_BATCH);
    out.push(
      ...(await Promise.all(
        batch.map(async (item) => {
          const id = newId();
          const data = await client.encryptItem(session, asItemId(id), 1, {
            ...storedFromTransfer(item),
          });
          return { id, revision: 1 as const, data };
        }),
      )),
    );
    onProgress(out.length, items.length);
  }
  return out;
}

/** The manifest's entries with `added` (new secrets at revision 1) and their digests. */
export async function entriesWithAdded(
  current: ManifestEntries,
  added: readonly NewSecret[],
): Promise<ManifestEntries> {
  const digests = await Promise.all(added.map((s) => itemEntryDigest(s)));
  const ids = new Set(added.map((s) => s.id));
  return canonical({
    ...current,
    secrets: [
      ...current.secrets.filter(([id]) => !ids.has(id)),
      ...added.map((s, i) => [s.id, 1, digests[i]!] as [string, number, string]),
    ],
  });
}

/**
 * Sends the encrypted secrets with the next manifest in one request. Throws what the server
 * refused (an ApiError with its message), VaultIntegrityError when the manifest does not verify
 * or keeps changing; in every case nothing was stored.
 */
export async function storeImport(
  vaultId: string,
  session: SessionId,
  secrets: NewSecret[],
): Promise<number> {
  // A vault kept in its provider (ADR 0008): one segment of the new items, pinned the same way.
  if (inProvider(vaultId)) return importIntoProvider(vaultId, secrets);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const current = await manifests.load(session, vaultId);
    if (!current) throw new VaultIntegrityError(NO_MANIFEST_MESSAGE);
    const { version, vault, slots, files, secrets: listed } = current.manifest;
    const next = await entriesWithAdded({ vault, slots, files, secrets: listed }, secrets);
    const signed: ManifestRecord = await cryptoClient().signManifest(session, {
      ...next,
      format: 'vf1-manifest',
      version: version + 1,
      prev: current.hash,
    });
    try {
      const manifest = manifestSchema.parse(signed);
      // [Note: key revision of a write] in keyRevision.ts.
      const res = await withCurrentKey(vaultId, (key_revision) =>
        secretsApi.importMany(vaultId, {
          secrets,
          manifest: { expected_version: version, manifest },
          key_revision,
        }),
      );
      await manifests.accept(session, vaultId, signed);
      return res.imported;
    } catch (err) {
      if (!(err instanceof ManifestConflictError)) throw err;
    }
  }
  throw new VaultIntegrityError(integrityTexts.conflict);
}
