// Changing a vault's password, with or without rotating its keys (ADR 0007, issue 18).
// - Without rotation only the password slot changes: the manifest first pins the new slot next to
//   the old one, then the server's key changes, then the manifest drops the old slot, so an
//   interruption anywhere leaves a vault that one of the two passwords opens.
// - With rotation the vault gets a new master key: every file key is re-wrapped and every name,
//   look-up and secret re-encrypted in the crypto Workers, and the server applies all of it, the
//   new key slots and the next manifest in one transaction. Until that commits the old keys stay
//   valid; file contents are not touched (their keys do not change, only their wrapping).
import { asVaultId, type SessionId } from '@sealvault/crypto';
import {
  filesApi,
  manifestSchema,
  secretsApi,
  vaultsApi,
  type RotatedSecret,
  type Vault,
  type VaultFile,
} from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { msg } from '../../i18n/i18n.ts';
import { VaultIntegrityError } from './manifestCore.ts';
import { registerVaultStorage } from '../../storage/providers.ts';
import { sealSegment } from '../../secrets/segments/segment.ts';
import { inProvider, logDeps } from '../../secrets/store/sources.ts';
import { putSegment, readLog } from '../../secrets/store/segmentLog.ts';
import {
  checkAgainstManifest,
  commitSlots,
  fileDigest,
  manifests,
  noteRotation,
  secretDigest,
  slotPrints,
  vaultFields,
} from './vaultManifest.ts';

/** Records re-encrypted per Worker call: progress moves, and no message grows large. */
const BATCH = 250;

export const rotationTexts = {
  mismatch: msg(
    'The keys were not rotated: this vault does not match its manifest. Open the vault to see what is wrong.',
  ),
} as const;

/** Opens the slot with `password` only to check it (a KDF run), then forgets the session. */
async function checkPassword(vault: Vault, password: string): Promise<void> {
  const client = cryptoClient();
  const probe = await client.unlockVault(asVaultId(vault.id), vault.key, password, {
    allowLegacy: false,
  });
  await client.closeSession(probe);
}

/** Password change without rotation; the vault must be unlocked (`session`). */
export async function changePasswordOnly(
  vault: Vault,
  session: SessionId,
  current: string,
  next: string,
): Promise<Vault> {
  const key = await cryptoClient().changePassword(
    asVaultId(vault.id),
    vault.key,
    current,
    next,
    undefined,
    { allowLegacy: false },
  );
  await commitSlots(vault.id, session, { also: key });
  const { vault: changed } = await vaultsApi.replaceKey(vault.id, {
    expected_revision: vault.key_revision,
    key,
  });
  await commitSlots(vault.id, session, { only: key });
  noteRotation(vault.id, changed.key_revision);
  return changed;
}

export interface RotationProgress {
  done: number;
  total: number;
}

/**
 * "Change password and rotate keys". Answers the vault as changed and the session of its new
 * keys (the caller makes it the vault's session); the old session is left open for the caller to
 * end. Throws 'Invalid password' (CryptoError) for a wrong current password.
 */
export async function rotateKeys(
  vault: Vault,
  session: SessionId,
  current: string,
  next: string,
  onProgress: (p: RotationProgress) => void,
): Promise<{ vault: Vault; session: SessionId; recoveryKey?: string }> {
  await checkPassword(vault, current);
  const client = cryptoClient();
  // A secrets vault kept in its provider (ADR 0008) reads its items from its segment log.
  registerVaultStorage(vault);
  const log = vault.vault_type === 'secrets' && inProvider(vault.id) ? logDeps(vault.id) : null;
  const read = log && (await readLog(log));
  const [files, secrets] = await Promise.all([
    vault.vault_type === 'files' ? filesApi.list(vault.id).then((r) => r.files) : [],
    vault.vault_type !== 'secrets'
      ? []
      : read
        ? read.items
        : secretsApi.list(vault.id).then((r) => r.secrets),
  ]);
  // Only what the manifest vouches for is carried into the new keys.
  const problems = await checkAgainstManifest(
    vault.id,
    session,
    read ? { files } : { files, secrets },
  );
  const verified = await manifests.load(session, vault.id);
  if (problems.length > 0 || !verified || (log && !read?.clean))
    throw new VaultIntegrityError(rotationTexts.mismatch);

  const total = files.length + secrets.length;
  onProgress({ done: 0, total });
  const rotated = await client.rotateVault(session, next, {
    recovery: vault.key.slots.some((s) => s.kind === 'recovery'),
    // Passkeys stay: each slot wraps the new key to its own public key, without the passkey.
    passkeys: vault.key.slots.filter((s) => s.kind === 'passkey'),
  });
  try {
    const newFiles: VaultFile[] = [];
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      const out = await client.rekeyFiles(
        session,
        rotated.session,
        batch.map((f) => ({
          id: f.id,
          parentId: null,
          wrapped_key: f.wrapped_key,
          enc_meta: f.enc_meta,
        })),
      );
      batch.forEach((f, j) => newFiles.push({ ...f, ...out[j]! }));
      onProgress({ done: newFiles.length, total });
    }
    const newSecrets: RotatedSecret[] = [];
    for (let i = 0; i < secrets.length; i += BATCH) {
      const batch = secrets.slice(i, i + BATCH);
      const out = await client.rekeyItems(
        session,
        rotated.session,
        batch.map((s) => ({ id: s.id, revision: s.revision, data: s.data })),
      );
      batch.forEach((s, j) => newSecrets.push({ id: s.id, revision: s.revision, data: out[j]! }));
      onProgress({ done: newFiles.length + newSecrets.length, total });
    }
    const [slots, fileEntries, secretEntries] = await Promise.all([
      slotPrints(rotated.key),
      Promise.all(newFiles.map(async (f) => [f.id, await fileDigest(f)] as [string, string])),
      Promise.all(
        newSecrets.map(
          async (s) => [s.id, s.revision, await secretDigest(s)] as [string, number, string],
        ),
      ),
    ]);
    // ADR 0008 "Rotation": the re-encrypted items as one snapshot segment in the provider,
    // written before the rotation commits; the segments it replaces are deleted after.
    const times = new Map(secrets.map((s) => [s.id, s]));
    const snap =
      log &&
      (await sealSegment(
        newSecrets.map((s) => ({
          ...s,
          created_at: new Date(times.get(s.id)!.created_at).toISOString(),
          updated_at: new Date(times.get(s.id)!.updated_at).toISOString(),
        })),
      ));
    if (log && snap) await putSegment(log, snap);
    const manifest = await client.signManifest(rotated.session, {
      format: 'vf1-manifest',
      version: verified.manifest.version + 1,
      prev: verified.hash,
      vault: vaultFields(vault),
      slots,
      files: fileEntries,
      secrets: secretEntries,
      ...(snap ? { segments: [[...snap.pin]] } : {}),
    });
    const answer = await vaultsApi
      .rotate(vault.id, {
        expected_key_revision: vault.key_revision,
        expected_manifest_version: verified.manifest.version,
        key: rotated.key,
        manifest: manifestSchema.parse(manifest),
        files: newFiles.map((f) => ({
          id: f.id,
          wrapped_key: f.wrapped_key,
          enc_meta: f.enc_meta,
          name_lookup: f.name_lookup,
        })),
        // A vault kept in its provider has no item on our server.
        secrets: snap ? [] : newSecrets,
      })
      .catch(async (err: unknown) => {
        // Refused: the old keys and segments stay; the new snapshot is an orphan, removed now.
        if (log && snap) await log.blobs.delete(vault.id, snap.name).catch(() => undefined);
        throw err;
      });
    if (log && read && snap)
      await Promise.all(
        read.pins.map(([id]) => log.blobs.delete(vault.id, `seg-${id}`).catch(() => undefined)),
      );
    await manifests.accept(rotated.session, vault.id, answer.manifest);
    noteRotation(vault.id, answer.vault.key_revision);
    return {
      vault: answer.vault,
      session: rotated.session,
      ...(rotated.recoveryKey ? { recoveryKey: rotated.recoveryKey } : {}),
    };
  } catch (err) {
    await client.closeSession(rotated.session).catch(() => undefined);
    throw err;
  }
}
