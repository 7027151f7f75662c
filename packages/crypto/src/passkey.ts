// Passkey slots (vault-format.md, "Passkey slots"; issue 30): a vault unlocked with a passkey's
// WebAuthn PRF output instead of a password. No password hashing runs for them.
//
// [Note: passkey slot keys] A rotation (ADR 0007) draws a new VMK while the vault is unlocked,
// usually with the password, and the PRF output of every passkey is out of reach then. So the
// passkey does not wrap the VMK itself: each slot has its own P-256 key pair. The passkey's KEK
// seals the private key d (with a 32-byte auth key A), and the VMK is wrapped to the public key Q
// by ECDH with a fresh ephemeral key: anyone may wrap a VMK to Q, but only the passkey opens it.
// A rotation wraps the new VMK to Q without the passkey. An old VMK does not give d, so a holder
// of the retired VMK cannot open the new wrap: rotation still cuts it off. What stops the server
// from wrapping a VMK of its own choosing to Q is `auth`, an HMAC under A over the wrap: A is
// sealed with d, and kept for rotations under the vault's K_wrap (`escrow`).
//
//   KEKraw  = HKDF(ikm = PRF output32, salt = vaultId16, info = "vf1/passkey-kek")
//   AAD     = fields("vf1/passkey-slot", vaultId16, slotId16, 03, salt32, credentialId, Q65, name)
//   sealed  = nonce12 | AES-256-GCM(KEKraw, d32 | A32, AAD)                       92 bytes
//   commit  = HMAC-SHA256(HKDF(KEKraw, vaultId16, "vf1/commit"), AAD | sealed)     32 bytes
//   wrapped = E65 | nonce12 | AES-256-GCM(K_e, VMK, AAD)                          125 bytes
//             K_e = HKDF(ikm = ECDH(e, Q), salt = vaultId16, info = "vf1/passkey-wrap")
//   auth    = HMAC-SHA256(A, AAD | wrapped)                                        32 bytes
//   escrow  = nonce12 | AES-256-GCM(K_wrap, A, fields("vf1/passkey-escrow", vaultId16, slotId16, Q65))
//
// Opening checks, in order: the shape, commit (before AES-GCM opens `sealed`), then `auth` (before
// the wrap is opened). Every failure is INVALID_PASSWORD ('Invalid password'), like a password.
import {
  concat,
  fields,
  fromBase64,
  isUuid,
  randomUuid,
  toBase64,
  utf8,
  uuidBytes,
  type RandomBytes,
} from './bytes.ts';
import { CryptoError } from './errors.ts';
import { asSlotId, type VaultId } from './ids.ts';
import { kdfParamsBytes } from './kdf.ts';
import { deriveVaultKeys, LABELS, type VaultKeys } from './keys.ts';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  deriveAesKey,
  deriveHmacKey,
  ecdhGenerate,
  ecdhShared,
  hkdfBytes,
  hmacSign,
  hmacVerify,
  importAesKey,
  importHkdfKey,
  importHmacKey,
  type Bytes,
  type EcKeyPair,
} from './primitives.ts';
import { MAX_PASSKEY_SLOTS, slotCountsAllowed, type KeySlot, type VaultKey } from './slot.ts';

export const PASSKEY_LABELS = {
  kek: 'vf1/passkey-kek',
  aad: 'vf1/passkey-slot',
  wrap: 'vf1/passkey-wrap',
  escrow: 'vf1/passkey-escrow',
} as const;

export const PASSKEY_KDF = { alg: 'prf-hkdf-sha256' } as const;
/** The PRF eval salt (WebAuthn `prf.eval.first`): 32 random bytes per slot. */
export const PASSKEY_SALT_BYTES = 32;
export const PASSKEY_NAME_MAX = 64;
/** WebAuthn credential ids are at most 1023 bytes. */
const CREDENTIAL_ID_MAX = 1023;
const SEALED_BYTES = 12 + 64 + 16;
const WRAPPED_BYTES = 65 + 12 + 32 + 16;
const ESCROW_BYTES = 12 + 32 + 16;

export { MAX_PASSKEY_SLOTS };

/** What a new passkey slot is made from: the credential and the PRF output for `salt`. */
export interface NewPasskey {
  /** base64url without padding, as WebAuthn's rawId. */
  credentialId: string;
  /** The user's label (1 to 64 characters, stored in plain text). */
  name: string;
  /** The PRF salt the credential was asked with (32 bytes). */
  salt: Bytes;
  /** The 32-byte PRF output for `salt`. The caller wipes it. */
  prf: Bytes;
}

/** Key-pair sources, fixed by the vectors; WebCrypto's generator otherwise. */
export interface PasskeyKeyGen {
  slotKey?: () => Promise<EcKeyPair>;
  ephemeral?: () => Promise<EcKeyPair>;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/** A credential id's bytes (base64url without padding); TypeError when malformed. */
export function credentialIdBytes(id: string): Bytes {
  if (typeof id !== 'string' || !B64URL.test(id) || id.length % 4 === 1) {
    throw new TypeError('credentialId');
  }
  const b64 = id.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  if (bytes.length < 1 || bytes.length > CREDENTIAL_ID_MAX) throw new TypeError('credentialId');
  return bytes;
}

const nameOk = (name: unknown): name is string =>
  typeof name === 'string' &&
  name.length >= 1 &&
  name.length <= PASSKEY_NAME_MAX &&
  name.trim() === name &&
  // eslint-disable-next-line no-control-regex
  !/[\u0000-\u001f\u007f]/.test(name);

/** The parsed bytes of a passkey slot; TypeError when any field is malformed. */
function parse(slot: KeySlot) {
  if (slot?.kind !== 'passkey' || slot.kdf?.alg !== PASSKEY_KDF.alg) throw new TypeError('kind');
  if (Object.keys(slot.kdf).length !== 1 || !nameOk(slot.name)) throw new TypeError('fields');
  asSlotId(slot.id);
  if (!isUuid(slot.id)) throw new TypeError('id');
  const b = {
    salt: fromBase64(slot.salt),
    credentialId: credentialIdBytes(slot.credentialId ?? ''),
    publicKey: fromBase64(slot.publicKey ?? ''),
    sealed: fromBase64(slot.sealed ?? ''),
    commit: fromBase64(slot.commit ?? ''),
    wrapped: fromBase64(slot.wrapped),
    auth: fromBase64(slot.auth ?? ''),
    escrow: fromBase64(slot.escrow ?? ''),
  };
  if (
    b.salt.length !== PASSKEY_SALT_BYTES ||
    b.publicKey.length !== 65 ||
    b.publicKey[0] !== 4 ||
    b.sealed.length !== SEALED_BYTES ||
    b.commit.length !== 32 ||
    b.wrapped.length !== WRAPPED_BYTES ||
    b.auth.length !== 32 ||
    b.escrow.length !== ESCROW_BYTES
  ) {
    throw new TypeError('length');
  }
  return b;
}

/** AAD = fields("vf1/passkey-slot", vaultId16, slotId16, 03, salt32, credentialId, Q65, name). */
export function passkeyAad(
  vaultId: VaultId,
  slotId: string,
  salt: Bytes,
  credentialId: Bytes,
  publicKey: Bytes,
  name: string,
): Bytes {
  return fields(
    PASSKEY_LABELS.aad,
    uuidBytes(vaultId),
    uuidBytes(slotId),
    kdfParamsBytes(PASSKEY_KDF),
    salt,
    credentialId,
    publicKey,
    utf8(name),
  );
}

const escrowAad = (vaultId: VaultId, slotId: string, publicKey: Bytes) =>
  fields(PASSKEY_LABELS.escrow, uuidBytes(vaultId), uuidBytes(slotId), publicKey);

/** The passkey's KEK and commit key: KEKraw = HKDF(prf, vaultId, "vf1/passkey-kek"). */
async function passkeyKeys(prf: Bytes, vaultId: VaultId) {
  if (prf.length !== 32) throw new TypeError('prf');
  const salt = uuidBytes(vaultId);
  const raw = await hkdfBytes(prf, salt, utf8(PASSKEY_LABELS.kek), 32);
  try {
    const [kek, base] = await Promise.all([importAesKey(raw), importHkdfKey(raw)]);
    return { kek, commit: await deriveHmacKey(base, salt, utf8(LABELS.commit)) };
  } finally {
    raw.fill(0);
  }
}

/** wrapped = E65 | nonce12 | AES-256-GCM(K_e, VMK, AAD), K_e from ECDH(e, Q). */
async function wrapToPublicKey(
  vaultId: VaultId,
  publicKey: Bytes,
  vmk: Bytes,
  aad: Bytes,
  random: RandomBytes,
  gen: PasskeyKeyGen,
): Promise<Bytes> {
  const e = await (gen.ephemeral ?? ecdhGenerate)();
  const shared = await ecdhShared(e, publicKey);
  try {
    e.d.fill(0);
    const base = await importHkdfKey(shared);
    const key = await deriveAesKey(base, uuidBytes(vaultId), utf8(PASSKEY_LABELS.wrap));
    const nonce = random(12);
    return concat(e.q, nonce, await aesGcmEncrypt(key, nonce, vmk, aad));
  } finally {
    shared.fill(0);
  }
}

/** auth, escrow and wrapped for `vmk`: what a new slot and a rotation write. */
async function wrapParts(
  vaultId: VaultId,
  slotId: string,
  publicKey: Bytes,
  authKey: Bytes,
  vmk: Bytes,
  keys: VaultKeys,
  aad: Bytes,
  random: RandomBytes,
  gen: PasskeyKeyGen,
) {
  const wrapped = await wrapToPublicKey(vaultId, publicKey, vmk, aad, random, gen);
  const auth = await hmacSign(await importHmacKey(authKey), concat(aad, wrapped));
  const nonce = random(12);
  const escrowed = await aesGcmEncrypt(
    keys.wrap,
    nonce,
    authKey,
    escrowAad(vaultId, slotId, publicKey),
  );
  return {
    wrapped: toBase64(wrapped),
    auth: toBase64(auth),
    escrow: toBase64(concat(nonce, escrowed)),
  };
}

/**
 * A new passkey slot for `vmk` (whose subkeys are `keys`). INVALID_INPUT for a malformed
 * credential id, name, salt or PRF output.
 */
export async function sealPasskeySlot(
  vaultId: VaultId,
  passkey: NewPasskey,
  vmk: Bytes,
  keys: VaultKeys,
  random: RandomBytes,
  gen: PasskeyKeyGen = {},
): Promise<KeySlot> {
  let credentialId: Bytes;
  try {
    credentialId = credentialIdBytes(passkey.credentialId);
    if (!nameOk(passkey.name)) throw new TypeError('name');
    if (passkey.salt?.length !== PASSKEY_SALT_BYTES || passkey.prf?.length !== 32) {
      throw new TypeError('length');
    }
  } catch {
    throw new CryptoError('INVALID_INPUT');
  }
  const id = randomUuid(random);
  const pair = await (gen.slotKey ?? ecdhGenerate)();
  const authKey = random(32);
  const secret = concat(pair.d, authKey);
  try {
    const aad = passkeyAad(vaultId, id, passkey.salt, credentialId, pair.q, passkey.name);
    const { kek, commit: commitKey } = await passkeyKeys(passkey.prf, vaultId);
    const nonce = random(12);
    const sealed = concat(nonce, await aesGcmEncrypt(kek, nonce, secret, aad));
    const commit = await hmacSign(commitKey, concat(aad, sealed));
    const parts = await wrapParts(vaultId, id, pair.q, authKey, vmk, keys, aad, random, gen);
    return {
      id,
      kind: 'passkey',
      kdf: { ...PASSKEY_KDF },
      salt: toBase64(passkey.salt),
      credentialId: passkey.credentialId,
      name: passkey.name,
      publicKey: toBase64(pair.q),
      sealed: toBase64(sealed),
      commit: toBase64(commit),
      ...parts,
    };
  } finally {
    pair.d.fill(0);
    authKey.fill(0);
    secret.fill(0);
  }
}

/**
 * Opens one passkey slot with the PRF output; returns the 32 VMK bytes (the caller wipes them).
 * The commit is verified before `sealed` is opened and `auth` before the wrap is: any failure is
 * INVALID_PASSWORD.
 */
export async function openPasskeySlot(vaultId: VaultId, slot: KeySlot, prf: Bytes): Promise<Bytes> {
  let secret: Bytes | undefined;
  let shared: Bytes | undefined;
  try {
    const b = parse(slot);
    const aad = passkeyAad(vaultId, slot.id, b.salt, b.credentialId, b.publicKey, slot.name!);
    const keys = await passkeyKeys(prf, vaultId);
    if (!(await hmacVerify(keys.commit, b.commit, concat(aad, b.sealed)))) {
      throw new CryptoError('INVALID_PASSWORD');
    }
    secret = await aesGcmDecrypt(keys.kek, b.sealed.slice(0, 12), b.sealed.slice(12), aad);
    const a = secret.slice(32);
    const authKey = await importHmacKey(a).finally(() => a.fill(0));
    if (!(await hmacVerify(authKey, b.auth, concat(aad, b.wrapped)))) {
      throw new CryptoError('INVALID_PASSWORD');
    }
    const d = secret.slice(0, 32);
    shared = await ecdhShared({ d, q: b.publicKey }, b.wrapped.slice(0, 65)).finally(() =>
      d.fill(0),
    );
    const base = await importHkdfKey(shared);
    const key = await deriveAesKey(base, uuidBytes(vaultId), utf8(PASSKEY_LABELS.wrap));
    return await aesGcmDecrypt(key, b.wrapped.slice(65, 77), b.wrapped.slice(77), aad);
  } catch {
    throw new CryptoError('INVALID_PASSWORD');
  } finally {
    secret?.fill(0);
    shared?.fill(0);
  }
}

/**
 * The unlock with a passkey: the one passkey slot whose credential id is `credentialId`. A key
 * with more than one password or recovery slot, more than five passkey slots, or two passkey
 * slots of one credential is refused whole, before any work: a hostile record costs one slot's
 * opening at most, and never a password derivation.
 */
export async function openVaultKeyWithPasskey(
  vaultId: VaultId,
  key: VaultKey,
  credentialId: string,
  prf: Bytes,
): Promise<{ vmk: Bytes; slot: KeySlot }> {
  if (!slotCountsAllowed(key)) throw new CryptoError('INVALID_PASSWORD');
  const passkeys = key.slots.filter((s) => s?.kind === 'passkey');
  const ids = passkeys.map((s) => s.credentialId);
  if (new Set(ids).size !== ids.length) throw new CryptoError('INVALID_PASSWORD');
  const slot = passkeys.find((s) => s.credentialId === credentialId);
  if (!slot) throw new CryptoError('INVALID_PASSWORD');
  return { vmk: await openPasskeySlot(vaultId, slot, prf), slot };
}

/**
 * A rotation's copy of a passkey slot: the same id, credential, key pair, `sealed` and `commit`,
 * with `newVmk` wrapped to its public key, `auth` under its A (from `escrow`, opened with the
 * old keys `from`) and A escrowed under the new keys `to`. The passkey is not needed.
 * DECRYPT_FAILED when the slot is malformed or its escrow does not open.
 */
export async function rewrapPasskeySlot(
  vaultId: VaultId,
  slot: KeySlot,
  from: VaultKeys,
  to: VaultKeys,
  newVmk: Bytes,
  random: RandomBytes,
  gen: PasskeyKeyGen = {},
): Promise<KeySlot> {
  let authKey: Bytes | undefined;
  try {
    const b = parse(slot);
    authKey = await aesGcmDecrypt(
      from.wrap,
      b.escrow.slice(0, 12),
      b.escrow.slice(12),
      escrowAad(vaultId, slot.id, b.publicKey),
    );
    const aad = passkeyAad(vaultId, slot.id, b.salt, b.credentialId, b.publicKey, slot.name!);
    const parts = await wrapParts(
      vaultId,
      slot.id,
      b.publicKey,
      authKey,
      newVmk,
      to,
      aad,
      random,
      gen,
    );
    return {
      id: slot.id,
      kind: 'passkey',
      kdf: { ...PASSKEY_KDF },
      salt: slot.salt,
      credentialId: slot.credentialId!,
      name: slot.name!,
      publicKey: slot.publicKey!,
      sealed: slot.sealed!,
      commit: slot.commit!,
      ...parts,
    };
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  } finally {
    authKey?.fill(0);
  }
}

/**
 * The fingerprint's data for a passkey slot: fields("vf1/slot-fp", UTF-8(id), "passkey", 03,
 * salt32, wrapped125, commit32, credentialId, Q65, UTF-8(name), sealed92, auth32, escrow60).
 * TypeError when malformed (slotFingerprint answers INVALID_INPUT).
 */
export function passkeyFingerprintData(slot: KeySlot): Bytes {
  const b = parse(slot);
  return fields(
    LABELS.slotFingerprint,
    utf8(slot.id),
    utf8('passkey'),
    kdfParamsBytes(PASSKEY_KDF),
    b.salt,
    b.wrapped,
    b.commit,
    b.credentialId,
    b.publicKey,
    utf8(slot.name!),
    b.sealed,
    b.auth,
    b.escrow,
  );
}

/** Adds a passkey slot: the VMK from the password slot (one KDF run), then sealPasskeySlot. */
export async function addPasskeySlotTo(
  vaultId: VaultId,
  key: VaultKey,
  vmk: Bytes,
  passkey: NewPasskey,
  random: RandomBytes,
): Promise<VaultKey> {
  if (key.slots.filter((s) => s.kind === 'passkey').length >= MAX_PASSKEY_SLOTS) {
    throw new CryptoError('INVALID_INPUT', 'A vault has at most five passkeys');
  }
  if (key.slots.some((s) => s.kind === 'passkey' && s.credentialId === passkey.credentialId)) {
    throw new CryptoError('INVALID_INPUT', 'This passkey already unlocks the vault');
  }
  const keys = await deriveVaultKeys(vmk, vaultId);
  const slot = await sealPasskeySlot(vaultId, passkey, vmk, keys, random);
  return { format: 'vf1', slots: [...key.slots, slot] };
}
