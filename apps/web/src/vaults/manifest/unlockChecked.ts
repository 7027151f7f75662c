// The unlock of a vault with its manifest check (ADR 0007): the key slots and the manifest are
// checked before anything of the vault is shown, and a vault made before manifests gets its first
// one. The manifest's answer can be fetched ahead (fetchManifestAnswer), beside the vault's own
// record and the key derivation (vaults/earlyUnlock.ts). The app imports this through
// vaultManifest.ts.
import { asVaultId, MAX_PASSKEY_SLOTS, type SessionId } from '@sealvault/crypto';
import { filesApi, secretsApi, vaultsApi, type Vault, type VaultKey } from '@sealvault/protocol';
import { ZodError } from 'zod';
import { cryptoClient } from '../../crypto/client.ts';
import { msg } from '../../i18n/i18n.ts';
import { digestFiles, digestSecrets } from './entryDigests.ts';
import { noteKeyRevision } from './keyRevision.ts';
import { integrityTexts, VaultIntegrityError, type ManifestRecord } from './manifestCore.ts';
import { deviceStore, manifests, slotPrints, vaultFields } from './manifests.ts';

const countOf = (key: VaultKey, kind: 'password' | 'recovery' | 'passkey') =>
  key.slots.filter((s) => s.kind === kind).length;

/** What opens the vault: its password, or a passkey's PRF output (vaults/passkeys/). */
export type UnlockSecret = string | { credentialId: string; prf: Uint8Array<ArrayBuffer> };

/** Said when a passkey is used on a vault that has no manifest yet (it cannot have passkeys). */
export const passkeyNeedsManifestText = msg(
  'This vault must be unlocked with its password first. Use the password.',
);

/** The server's answer for a vault's manifest: none, one, or one the schema refused. */
export type ManifestAnswer =
  { kind: 'none' } | { kind: 'present'; manifest: ManifestRecord } | { kind: 'refused' };

/**
 * Fetches the vault's manifest for an unlock (ciphertext and a MAC: it needs no key), so the
 * caller can start it beside the vault's own fetch and the key derivation.
 */
export function fetchManifestAnswer(vaultId: string): Promise<ManifestAnswer> {
  const answer = vaultsApi.manifest(vaultId).then(
    (r): ManifestAnswer =>
      r.manifest === null ? { kind: 'none' } : { kind: 'present', manifest: r.manifest },
    (err: unknown): ManifestAnswer => {
      // A manifest the schema refuses (unsorted, duplicated, malformed) is the server's doing.
      if (err instanceof ZodError) return { kind: 'refused' };
      throw err;
    },
  );
  answer.catch(() => undefined); // awaited by unlockChecked, or not at all
  return answer;
}

export interface UnlockOptions {
  /** The manifest's fetch, started earlier (fetchManifestAnswer); else fetched here. */
  manifest?: Promise<ManifestAnswer>;
  /**
   * Called with the new session as soon as the key is open, before the manifest is verified, to
   * start what needs the key (decrypting the records fetched meanwhile). Nothing may be shown
   * from it before unlockChecked resolves: the session is closed if a check fails.
   */
  onSession?: (session: SessionId) => void;
  /**
   * The password's key derivation, started with the page's copy of the key before the vault's
   * record was read again (vaults/earlyUnlock.ts, issue 31): used when that key is the one
   * `vault` holds and may open early (no slot from before commitments), else its session is
   * closed and the derivation starts again with `vault`'s key.
   */
  derived?: { key: VaultKey; session: Promise<SessionId> };
}

/**
 * Unlocks with the password (or a passkey: `secret` an object), then checks the vault against
 * its manifest, or makes the manifest (version 1) of a vault that has none: the first unlock of
 * a vault made before it. Slots of a vault made before commitments are re-sealed as committed
 * slots first. Anything wrong locks the vault again and throws VaultIntegrityError (or the crypto
 * error 'Invalid password'). The manifest is fetched once ([Note: manifest at unlock]).
 */
export async function unlockChecked(
  vault: Vault,
  secret: UnlockSecret,
  options: UnlockOptions = {},
): Promise<SessionId> {
  const client = cryptoClient();
  const closeSoon = (s: Promise<SessionId> | null | undefined) =>
    void s?.then((x) => client.closeSession(x)).catch(() => undefined);
  // Whether a manifest exists decides whether a legacy slot may open. A key without one opens
  // the same either way: its derivation starts now (or started before: options.derived), beside
  // the manifest's fetch, and its session is closed if a check below refuses the vault.
  const legacy = vault.key.slots.some((s) => s.kind === 'password' && !s.commit);
  const opensEarly = typeof secret === 'string' && !legacy;
  const sameKey = JSON.stringify(options.derived?.key) === JSON.stringify(vault.key);
  const derived = opensEarly && sameKey ? options.derived?.session : undefined;
  if (!derived) closeSoon(options.derived?.session);
  if (
    countOf(vault.key, 'password') > 1 ||
    countOf(vault.key, 'recovery') > 1 ||
    countOf(vault.key, 'passkey') > MAX_PASSKEY_SLOTS
  ) {
    closeSoon(derived);
    throw new VaultIntegrityError(integrityTexts.slotAdded);
  }
  const id = asVaultId(vault.id);
  const answer = options.manifest ?? fetchManifestAnswer(vault.id);
  const early = opensEarly
    ? (derived ?? client.unlockVault(id, vault.key, secret, { allowLegacy: false }))
    : null;
  early?.catch(() => undefined); // its error is the one thrown below, when it is awaited
  const closeEarly = () => closeSoon(early);
  const [seen, present] = await Promise.all([deviceStore().get(vault.id), answer]).catch(
    (err: unknown) => {
      closeEarly();
      throw err;
    },
  );
  // A manifest present but refused by the schema: verification says so below, after the key.
  const existing = present.kind !== 'none';
  if (!existing && seen) {
    closeEarly();
    throw new VaultIntegrityError(integrityTexts.missing(seen.version));
  }
  // Once a vault has a manifest every slot the app makes is committed; an uncommitted one is a
  // server's (it could be built to open under several passwords: ADR 0007). No early session then.
  if (existing && legacy) throw new VaultIntegrityError(integrityTexts.uncommitted);
  // A passkey slot is only ever added to a vault with a manifest.
  if (typeof secret !== 'string' && !existing) throw new Error(passkeyNeedsManifestText);
  const session =
    early !== null
      ? await early
      : typeof secret === 'string'
        ? await client.unlockVault(id, vault.key, secret, { allowLegacy: !existing && !seen })
        : await client.unlockWithPasskey(id, vault.key, secret.credentialId, secret.prf);
  options.onSession?.(session);
  const password = typeof secret === 'string' ? secret : '';
  try {
    const usedPrint = await slotPrints(vault.key);
    if (present.kind === 'refused') throw new VaultIntegrityError(integrityTexts.invalid);
    if (present.kind === 'present') {
      const verified = await manifests.accept(session, vault.id, present.manifest);
      manifests.prime(session, vault.id, verified);
      const pinned = new Set(verified.manifest.slots);
      if (!usedPrint.every((p) => pinned.has(p)))
        throw new VaultIntegrityError(integrityTexts.slotsChanged);
      // A slot change that stopped between its two manifest writes: finish it.
      if (pinned.size !== usedPrint.length)
        await manifests.commit(session, vault.id, (m) => ({ ...m, slots: usedPrint }));
      noteKeyRevision(vault.id, vault.key_revision);
      return session;
    }
    // No manifest yet: re-seal a legacy password slot, then write version 1.
    let current = vault;
    if (current.key.slots.some((s) => s.kind === 'password' && !s.commit)) {
      const key = await client.changePassword(id, current.key, password, password, undefined, {
        allowLegacy: true,
      });
      current = (
        await vaultsApi.replaceKey(vault.id, { expected_revision: vault.key_revision, key })
      ).vault;
    }
    const [files, secrets] = await Promise.all([
      current.vault_type === 'files' ? filesApi.list(vault.id).then((r) => r.files) : [],
      current.vault_type === 'secrets' ? secretsApi.list(vault.id).then((r) => r.secrets) : [],
    ]);
    const [slots, fileEntries, secretEntries] = await Promise.all([
      slotPrints(current.key),
      digestFiles(files),
      digestSecrets(secrets),
    ]);
    // A new secrets vault on another provider than ours keeps its items there from the start
    // (ADR 0008): an empty segment list. One with items on our server moves them (secrets/store).
    const inProvider =
      current.vault_type === 'secrets' &&
      current.provider_type !== 'server' &&
      secrets.length === 0;
    await manifests.create(session, vault.id, {
      vault: vaultFields(current),
      slots,
      files: fileEntries.map((f) => [f.id, f.digest] as [string, string]),
      secrets: secretEntries.map((s) => [s.id, s.revision, s.digest] as [string, number, string]),
      ...(inProvider ? { segments: [] } : {}),
    });
    noteKeyRevision(vault.id, current.key_revision);
    return session;
  } catch (err) {
    await client.closeSession(session).catch(() => undefined);
    throw err;
  }
}
