// Key slots (vault-format.md §1): the VMK wrapped under a KEK derived from a password or a
// recovery key. slot = nonce12 | AES-256-GCM(KEK, VMK, AAD = "vf1/slot" | vaultId | slotId |
// kdf params | salt), so a server that lowers the parameters or swaps slots makes unlock fail.
// Unlock has one failure: CryptoError('INVALID_PASSWORD', 'Invalid password').
import {
  concat,
  fields,
  fromBase32Groups,
  fromBase64,
  randomUuid,
  toBase32Groups,
  toBase64,
  utf8,
  uuidBytes,
  type RandomBytes,
} from './bytes.ts';
import { CryptoError } from './errors.ts';
import { asSlotId, type VaultId } from './ids.ts';
import {
  derivePasswordKey,
  kdfParamsAllowed,
  kdfParamsBytes,
  resolvePasswordKdf,
  type KdfParams,
  type KdfProfile,
} from './kdf.ts';
import { deriveKek, LABELS } from './keys.ts';
import { aesGcmDecrypt, aesGcmEncrypt, type Bytes } from './primitives.ts';

/** One slot as the server stores it (JSON; the shape of protocol's keySlotSchema). */
export interface KeySlot {
  /** 1..64 characters; a UUID for slots made here. A plain string, for the server's JSON. */
  id: string;
  kind: 'password' | 'recovery';
  kdf: KdfParams;
  /** 16 bytes, base64. */
  salt: string;
  /** nonce12 | ciphertext32 | tag16 = 60 bytes, base64. */
  wrapped: string;
}

/** Everything the server keeps to unlock a vault (protocol's vaultKeySchema). */
export interface VaultKey {
  format: 'vf1';
  slots: KeySlot[];
}

export const slotAad = (vaultId: VaultId, slot: Omit<KeySlot, 'wrapped'>, salt: Uint8Array) =>
  fields(LABELS.slotAad, uuidBytes(vaultId), utf8(slot.id), kdfParamsBytes(slot.kdf), salt);

/** The 32-byte secret a KEK comes from: Argon2id/PBKDF2 output, or the recovery key itself. */
async function slotSecret(slot: Omit<KeySlot, 'wrapped'>, salt: Bytes, secret: string) {
  if (slot.kind === 'recovery') {
    const rk = fromBase32Groups(secret);
    if (slot.kdf.alg !== 'none' || rk?.length !== 32) throw new CryptoError('INVALID_PASSWORD');
    return rk;
  }
  return derivePasswordKey(secret, salt, slot.kdf);
}

/** Seals `vmk` into a new slot. `secret` is a password or a formatted recovery key. */
export async function sealSlot(
  vaultId: VaultId,
  meta: Omit<KeySlot, 'wrapped' | 'salt'>,
  secret: string,
  vmk: Bytes,
  random: RandomBytes,
): Promise<KeySlot> {
  const salt = random(16);
  const nonce = random(12);
  const s = await slotSecret({ ...meta, salt: '' }, salt, secret);
  try {
    const kek = await deriveKek(s, vaultId);
    const full = { ...meta, salt: toBase64(salt) };
    const sealed = await aesGcmEncrypt(kek, nonce, vmk, slotAad(vaultId, full, salt));
    return { ...full, wrapped: toBase64(concat(nonce, sealed)) };
  } finally {
    s.fill(0);
  }
}

/** Opens one slot; returns the 32 VMK bytes (caller wipes them). Any failure: INVALID_PASSWORD. */
export async function openSlot(vaultId: VaultId, slot: KeySlot, secret: string): Promise<Bytes> {
  let s: Bytes | undefined;
  try {
    if (!kdfParamsAllowed(slot.kdf)) throw new CryptoError('INVALID_PASSWORD');
    const id = asSlotId(slot.id);
    const salt = fromBase64(slot.salt);
    const wrapped = fromBase64(slot.wrapped);
    if (salt.length !== 16 || wrapped.length !== 60) throw new CryptoError('INVALID_PASSWORD');
    s = await slotSecret({ ...slot, id }, salt, secret);
    const kek = await deriveKek(s, vaultId);
    const aad = slotAad(vaultId, slot, salt);
    return await aesGcmDecrypt(kek, wrapped.slice(0, 12), wrapped.slice(12), aad);
  } catch {
    throw new CryptoError('INVALID_PASSWORD');
  } finally {
    s?.fill(0);
  }
}

/**
 * Password derivations one unlock may run: an honest vault has one password slot (a password
 * change re-seals it in place), so a second is margin, and a server that lists eight slots cannot
 * make an unlock cost eight derivations [Note: KDF caps].
 */
export const MAX_PASSWORD_DERIVATIONS = 2;

/** The slots an unlock tries: one per KDF parameter set, and at most MAX_PASSWORD_DERIVATIONS. */
export function slotsToTry(slots: readonly KeySlot[]): KeySlot[] {
  const seen = new Set<string>();
  const out: KeySlot[] = [];
  for (const slot of slots) {
    const params = JSON.stringify(slot.kdf, ['alg', 'm', 't', 'p', 'iterations']);
    // Recovery slots derive nothing (alg 'none'): each costs one HKDF, so all are tried.
    if (slot.kdf?.alg !== 'none') {
      if (seen.has(params) || seen.size >= MAX_PASSWORD_DERIVATIONS) continue;
      seen.add(params);
    }
    out.push(slot);
  }
  return out;
}

/** Tries the slots of `kind` (slotsToTry); the first that opens gives the VMK. */
export async function openVaultKey(
  vaultId: VaultId,
  key: VaultKey,
  secret: string,
  kind: KeySlot['kind'],
): Promise<{ vmk: Bytes; slot: KeySlot }> {
  const slots = Array.isArray(key?.slots) ? key.slots.filter((s) => s?.kind === kind) : [];
  if (key?.format !== 'vf1') throw new CryptoError('INVALID_PASSWORD');
  for (const slot of slotsToTry(slots)) {
    try {
      return { vmk: await openSlot(vaultId, slot, secret), slot };
    } catch {
      // Try the next slot; the error is the same whichever fails.
    }
  }
  throw new CryptoError('INVALID_PASSWORD');
}

/** createVault: a random VMK and one password slot. The caller wipes `vmk`. */
export async function createVaultKey(
  vaultId: VaultId,
  password: string,
  profile: KdfProfile | undefined,
  random: RandomBytes,
): Promise<{ key: VaultKey; vmk: Bytes }> {
  const kdf = resolvePasswordKdf(profile);
  const vmk = random(32);
  const meta = { id: asSlotId(randomUuid(random)), kind: 'password', kdf } as const;
  const slot = await sealSlot(vaultId, meta, password, vmk, random);
  return { key: { format: 'vf1', slots: [slot] }, vmk };
}

/** Re-seals the VMK under `newSecret` into the slot that `oldSecret` opens (same slot id). */
export async function replaceSlotSecret(
  vaultId: VaultId,
  key: VaultKey,
  old: { secret: string; kind: KeySlot['kind'] },
  newPassword: string,
  profile: KdfProfile | undefined,
  random: RandomBytes,
): Promise<VaultKey> {
  const kdf = resolvePasswordKdf(profile);
  const { vmk, slot } = await openVaultKey(vaultId, key, old.secret, old.kind);
  try {
    const target = old.kind === 'password' ? slot : key.slots.find((s) => s.kind === 'password');
    const id = target?.id ?? asSlotId(randomUuid(random));
    const next = await sealSlot(vaultId, { id, kind: 'password', kdf }, newPassword, vmk, random);
    const others = key.slots.filter((s) => s.id !== id);
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
): Promise<{ key: VaultKey; recoveryKey: string }> {
  const { vmk } = await openVaultKey(vaultId, key, password, 'password');
  const rk = random(32);
  try {
    const recoveryKey = toBase32Groups(rk);
    const meta = {
      id: asSlotId(randomUuid(random)),
      kind: 'recovery',
      kdf: { alg: 'none' },
    } as const;
    const slot = await sealSlot(vaultId, meta, recoveryKey, vmk, random);
    const others = key.slots.filter((s) => s.kind !== 'recovery');
    return { key: { format: 'vf1', slots: [...others, slot] }, recoveryKey };
  } finally {
    vmk.fill(0);
    rk.fill(0);
  }
}
