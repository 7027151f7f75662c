// Key slots (vault-format.md, "Key slots"; ADR 0007): the VMK wrapped under a KEK derived from a
// password or a recovery key. slot = nonce12 | AES-256-GCM(KEK, VMK, AAD = "vf1/slot" | vaultId
// | slotId | kdf params | salt), so a server that lowers the parameters or swaps slots makes
// unlock fail, and commit = HMAC(K_commit, AAD | wrapped), checked before AES-GCM runs, so one
// slot cannot open under several passwords (AES-GCM is not key-committing: testkit.ts builds
// such a slot). Unlock has one failure: CryptoError('INVALID_PASSWORD', 'Invalid password').
import {
  concat,
  fields,
  fromBase32Groups,
  fromBase64,
  isUuid,
  randomUuid,
  toBase32Groups,
  toBase64,
  toHex,
  utf8,
  uuidBytes,
  type RandomBytes,
} from './bytes.ts';
import { CryptoError } from './errors.ts';
import { passkeyFingerprintData } from './passkey.ts';
import { asSlotId, type SlotId, type VaultId } from './ids.ts';
import {
  derivePasswordKey,
  kdfParamsAllowed,
  kdfParamsBytes,
  resolvePasswordKdf,
  type KdfParams,
  type KdfProfile,
} from './kdf.ts';
import { deriveKek, deriveSlotKeys, LABELS } from './keys.ts';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  hmacSign,
  hmacVerify,
  sha256,
  type Bytes,
} from './primitives.ts';

/** One slot as the server stores it (JSON; the shape of protocol's keySlotSchema). */
export interface KeySlot {
  /** 1..64 characters; a UUID for slots made here (and for every committed slot). */
  id: string;
  kind: 'password' | 'recovery' | 'passkey';
  kdf: KdfParams;
  /** 16 bytes, base64 (a passkey slot's: its 32-byte PRF salt). */
  salt: string;
  /** nonce12 | ciphertext32 | tag16 = 60 bytes, base64 (a passkey slot's: 125 bytes, passkey.ts). */
  wrapped: string;
  /**
   * HMAC-SHA256(K_commit, AAD | wrapped), 32 bytes, base64. Every slot sealed now has one; a
   * legacy slot (made before ADR 0007) has none, and its AAD holds the id as UTF-8 text.
   */
  commit?: string;
  // Passkey slots only (passkey.ts, vault-format.md "Passkey slots"); absent on the others.
  /** The WebAuthn credential id, base64url without padding (public). */
  credentialId?: string;
  /** The user's label for the passkey, 1 to 64 characters; stored in plain text. */
  name?: string;
  /** The slot's P-256 public key, 04 | x | y, 65 bytes, base64. */
  publicKey?: string;
  /** nonce12 | AES-256-GCM(KEK, d32 | A32) = 92 bytes, base64: what the passkey opens. */
  sealed?: string;
  /** HMAC-SHA256(A, AAD | wrapped), 32 bytes, base64. */
  auth?: string;
  /** nonce12 | AES-256-GCM(K_wrap, A) = 60 bytes, base64: A for a rotation, under the VMK. */
  escrow?: string;
}

/** At most this many passkey slots in a key (within the 8 slots the server takes). */
export const MAX_PASSKEY_SLOTS = 5;

/**
 * ADR 0007 and vault-format.md: at most one password slot, one recovery slot and five passkey
 * slots, else the key is refused whole, before any derivation.
 */
export function slotCountsAllowed(key: VaultKey): boolean {
  if (key?.format !== 'vf1' || !Array.isArray(key.slots)) return false;
  const of = (k: KeySlot['kind']) => key.slots.filter((s) => s?.kind === k).length;
  return of('password') <= 1 && of('recovery') <= 1 && of('passkey') <= MAX_PASSKEY_SLOTS;
}

/** Everything the server keeps to unlock a vault (protocol's vaultKeySchema). */
export interface VaultKey {
  format: 'vf1';
  slots: KeySlot[];
}

/** How an unlock (or anything that opens a slot) treats legacy, uncommitted slots. */
export interface UnlockOptions {
  /**
   * Open a legacy slot (no `commit`). Default true, for vaults that have no manifest yet; pass
   * false once the vault has one (ADR 0007): a legacy slot is then refused as INVALID_PASSWORD.
   */
  allowLegacy?: boolean;
}

/** True for a slot written before ADR 0007 (no commit). */
export const isLegacySlot = (slot: KeySlot): boolean => slot.commit === undefined;

/** True when any slot of `key` is a legacy slot (the first unlock re-seals the password slot). */
export const hasLegacySlots = (key: VaultKey): boolean => key.slots.some(isLegacySlot);

/**
 * AAD = fields("vf1/slot", vaultId16, slotId, kdfParams, salt16): a committed slot writes its id
 * as the 16 bytes of its UUID, a legacy one as UTF-8 text.
 */
export function slotAad(
  vaultId: VaultId,
  slot: Pick<KeySlot, 'id' | 'kdf'>,
  salt: Uint8Array,
  committed: boolean,
): Bytes {
  const id = committed ? uuidBytes(slot.id) : utf8(slot.id);
  return fields(LABELS.slotAad, uuidBytes(vaultId), id, kdfParamsBytes(slot.kdf), salt);
}

/** The 32-byte secret a KEK comes from: Argon2id/PBKDF2 output, or the recovery key itself. */
async function slotSecret(slot: Pick<KeySlot, 'kind' | 'kdf'>, salt: Bytes, secret: string) {
  if (slot.kind === 'recovery') {
    const rk = fromBase32Groups(secret);
    if (slot.kdf.alg !== 'none' || rk?.length !== 32) throw new CryptoError('INVALID_PASSWORD');
    return rk;
  }
  if (slot.kind !== 'password') throw new CryptoError('INVALID_PASSWORD');
  return derivePasswordKey(secret, salt, slot.kdf);
}

/**
 * Seals `vmk` into a new committed slot. `secret` is a password or a formatted recovery key;
 * `meta.id` must be a UUID (INVALID_INPUT otherwise).
 */
export async function sealSlot(
  vaultId: VaultId,
  meta: Omit<KeySlot, 'wrapped' | 'salt' | 'commit'>,
  secret: string,
  vmk: Bytes,
  random: RandomBytes,
): Promise<KeySlot> {
  if (!isUuid(meta.id)) throw new CryptoError('INVALID_INPUT');
  const salt = random(16);
  const nonce = random(12);
  const s = await slotSecret(meta, salt, secret);
  try {
    const keys = await deriveSlotKeys(s, vaultId);
    const aad = slotAad(vaultId, meta, salt, true);
    const wrapped = concat(nonce, await aesGcmEncrypt(keys.kek, nonce, vmk, aad));
    const commit = await hmacSign(keys.commit, concat(aad, wrapped));
    return {
      id: meta.id,
      kind: meta.kind,
      kdf: meta.kdf,
      salt: toBase64(salt),
      wrapped: toBase64(wrapped),
      commit: toBase64(commit),
    };
  } finally {
    s.fill(0);
  }
}

/**
 * Opens one slot; returns the 32 VMK bytes (caller wipes them). A committed slot's commit is
 * verified (WebCrypto verify, constant time) before AES-GCM opens it. Any failure:
 * INVALID_PASSWORD.
 */
export async function openSlot(
  vaultId: VaultId,
  slot: KeySlot,
  secret: string,
  options: UnlockOptions = {},
): Promise<Bytes> {
  let s: Bytes | undefined;
  try {
    const committed = slot.commit !== undefined;
    if (!committed && options.allowLegacy === false) throw new CryptoError('INVALID_PASSWORD');
    if (!kdfParamsAllowed(slot.kdf)) throw new CryptoError('INVALID_PASSWORD');
    asSlotId(slot.id);
    const salt = fromBase64(slot.salt);
    const wrapped = fromBase64(slot.wrapped);
    const commit = committed ? fromBase64(slot.commit ?? '') : null;
    if (salt.length !== 16 || wrapped.length !== 60 || (commit && commit.length !== 32)) {
      throw new CryptoError('INVALID_PASSWORD');
    }
    const aad = slotAad(vaultId, slot, salt, committed);
    s = await slotSecret(slot, salt, secret);
    let kek: CryptoKey;
    if (commit) {
      const keys = await deriveSlotKeys(s, vaultId);
      if (!(await hmacVerify(keys.commit, commit, concat(aad, wrapped)))) {
        throw new CryptoError('INVALID_PASSWORD');
      }
      kek = keys.kek;
    } else {
      kek = await deriveKek(s, vaultId);
    }
    return await aesGcmDecrypt(kek, wrapped.slice(0, 12), wrapped.slice(12), aad);
  } catch {
    throw new CryptoError('INVALID_PASSWORD');
  } finally {
    s?.fill(0);
  }
}

/**
 * Opens the slot of `kind`. A key with more than one password slot or more than one recovery
 * slot is refused whole (ADR 0007: an honest vault has at most one of each), so an unlock runs
 * one password derivation at most [Note: KDF caps].
 */
export async function openVaultKey(
  vaultId: VaultId,
  key: VaultKey,
  secret: string,
  kind: KeySlot['kind'],
  options: UnlockOptions = {},
): Promise<{ vmk: Bytes; slot: KeySlot }> {
  if (!slotCountsAllowed(key) || kind === 'passkey') throw new CryptoError('INVALID_PASSWORD');
  const [slot] = key.slots.filter((s) => s?.kind === kind);
  if (!slot) throw new CryptoError('INVALID_PASSWORD');
  return { vmk: await openSlot(vaultId, slot, secret, options), slot };
}

/** A new password slot for `vmk` (rotation, createVault). */
export async function newPasswordSlot(
  vaultId: VaultId,
  password: string,
  profile: KdfProfile | undefined,
  vmk: Bytes,
  random: RandomBytes,
): Promise<KeySlot> {
  const kdf = resolvePasswordKdf(profile);
  const meta = { id: asSlotId(randomUuid(random)), kind: 'password', kdf } as const;
  return sealSlot(vaultId, meta, password, vmk, random);
}

/** A new recovery slot for `vmk`; the recovery key is returned once, as base32 in groups. */
export async function newRecoverySlot(
  vaultId: VaultId,
  vmk: Bytes,
  random: RandomBytes,
): Promise<{ slot: KeySlot; recoveryKey: string }> {
  const rk = random(32);
  try {
    const recoveryKey = toBase32Groups(rk);
    const meta = {
      id: asSlotId(randomUuid(random)),
      kind: 'recovery',
      kdf: { alg: 'none' },
    } as const;
    return { slot: await sealSlot(vaultId, meta, recoveryKey, vmk, random), recoveryKey };
  } finally {
    rk.fill(0);
  }
}

/** createVault: a random VMK and one password slot. The caller wipes `vmk`. */
export async function createVaultKey(
  vaultId: VaultId,
  password: string,
  profile: KdfProfile | undefined,
  random: RandomBytes,
): Promise<{ key: VaultKey; vmk: Bytes }> {
  resolvePasswordKdf(profile); // KDF_PARAMS before any randomness is drawn
  const vmk = random(32);
  try {
    const slot = await newPasswordSlot(vaultId, password, profile, vmk, random);
    return { key: { format: 'vf1', slots: [slot] }, vmk };
  } catch (err) {
    vmk.fill(0);
    throw err;
  }
}

/**
 * Re-seals the VMK under `newPassword` as the vault's password slot, opened with `old` (the
 * password, or the recovery key for a reset). The slot keeps its id when that is a UUID (a legacy
 * slot with another id gets a new one); the result is always a committed slot. Calling it with
 * the same password for old and new is how a legacy password slot is upgraded (ADR 0007).
 */
export async function replaceSlotSecret(
  vaultId: VaultId,
  key: VaultKey,
  old: { secret: string; kind: KeySlot['kind'] },
  newPassword: string,
  profile: KdfProfile | undefined,
  random: RandomBytes,
  options: UnlockOptions = {},
): Promise<VaultKey> {
  const kdf = resolvePasswordKdf(profile);
  const { vmk } = await openVaultKey(vaultId, key, old.secret, old.kind, options);
  try {
    const current = key.slots.find((s) => s.kind === 'password');
    const id: SlotId =
      current && isUuid(current.id) ? asSlotId(current.id) : asSlotId(randomUuid(random));
    const next = await sealSlot(vaultId, { id, kind: 'password', kdf }, newPassword, vmk, random);
    const others = key.slots.filter((s) => s.kind !== 'password');
    return { format: 'vf1', slots: [...others, next] };
  } finally {
    vmk.fill(0);
  }
}

/**
 * Adds a recovery slot (replacing any earlier one): KEK = HKDF(32 random bytes, vaultId,
 * "vf1/kek"). The recovery key is returned once, as base32 in groups, for the user to keep.
 */
export async function addRecoverySlot(
  vaultId: VaultId,
  key: VaultKey,
  password: string,
  random: RandomBytes,
  options: UnlockOptions = {},
): Promise<{ key: VaultKey; recoveryKey: string }> {
  const { vmk } = await openVaultKey(vaultId, key, password, 'password', options);
  try {
    const { slot, recoveryKey } = await newRecoverySlot(vaultId, vmk, random);
    const others = key.slots.filter((s) => s.kind !== 'recovery');
    return { key: { format: 'vf1', slots: [...others, slot] }, recoveryKey };
  } finally {
    vmk.fill(0);
  }
}

/**
 * fp = SHA-256(fields("vf1/slot-fp", UTF-8(id), UTF-8(kind), kdfParams, salt16, wrapped60,
 * commit32 or empty)), lowercase hex: what the manifest and each device pin (ADR 0007).
 * Pure; a malformed slot is INVALID_INPUT.
 */
export async function slotFingerprint(slot: KeySlot): Promise<string> {
  let data: Bytes;
  try {
    if (slot.kind === 'passkey') return toHex(await sha256(passkeyFingerprintData(slot)));
    if (slot.kind !== 'password' && slot.kind !== 'recovery') throw new TypeError('kind');
    if (!kdfParamsAllowed(slot.kdf)) throw new TypeError('kdf');
    const salt = fromBase64(slot.salt);
    const wrapped = fromBase64(slot.wrapped);
    const commit = slot.commit === undefined ? new Uint8Array(0) : fromBase64(slot.commit);
    const commitOk = slot.commit === undefined || commit.length === 32;
    if (salt.length !== 16 || wrapped.length !== 60 || !commitOk) throw new TypeError('length');
    data = fields(
      LABELS.slotFingerprint,
      utf8(asSlotId(slot.id)),
      utf8(slot.kind),
      kdfParamsBytes(slot.kdf),
      salt,
      wrapped,
      commit,
    );
  } catch {
    throw new CryptoError('INVALID_INPUT');
  }
  return toHex(await sha256(data));
}
