// The vf1 key hierarchy below the vault master key (vault-format.md §1): HKDF-SHA256 subkeys
// with salt = vaultId (16 bytes) and one `info` label each, and the per-file-version key FK,
// wrapped under K_wrap with AAD = "vf1/fk" | vaultId | fileId.
import { concat, fields, uuidBytes, utf8, type RandomBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { FileId, VaultId } from './ids.ts';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  deriveAesKey,
  deriveHmacKey,
  hkdfBytes,
  importAesKey,
  importHkdfKey,
  type Bytes,
} from './primitives.ts';

/** The HKDF `info` labels and AAD labels of vf1. Changing any of them is a new format. */
export const LABELS = {
  kek: 'vf1/kek',
  commit: 'vf1/commit',
  manifest: 'vf1/manifest',
  slotFingerprint: 'vf1/slot-fp',
  fileEntry: 'vf1/file-entry',
  itemEntry: 'vf1/item-entry',
  wrap: 'vf1/wrap',
  meta: 'vf1/meta',
  item: 'vf1/item',
  lookup: 'vf1/lookup',
  payload: 'vf1/payload',
  header: 'vf1/header',
  slotAad: 'vf1/slot',
  fkAad: 'vf1/fk',
  metaAad: 'vf1/meta',
  itemAad: 'vf1/item',
  deviceCache: 'vf1/device-cache',
} as const;

/** The subkeys of one unlocked vault. All are non-extractable. */
export interface VaultKeys {
  readonly vaultId: VaultId;
  /** K_wrap: AES-256-GCM, wraps per-file keys. */
  readonly wrap: CryptoKey;
  /** K_meta: AES-256-GCM, file names and metadata. */
  readonly meta: CryptoKey;
  /** K_item: AES-256-GCM, secret records. */
  readonly item: CryptoKey;
  /** K_look: HMAC-SHA256, name look-ups. */
  readonly lookup: CryptoKey;
  /** K_man: HMAC-SHA256, the vault manifest's MAC (ADR 0007). */
  readonly manifest: CryptoKey;
}

/** KEK = HKDF(pwKey or recovery key, salt = vaultId, "vf1/kek"), an AES-256-GCM key. */
export async function deriveKek(secret: Bytes, vaultId: VaultId): Promise<CryptoKey> {
  const base = await importHkdfKey(secret);
  return deriveAesKey(base, uuidBytes(vaultId), utf8(LABELS.kek));
}

/**
 * The two keys of a committed slot (ADR 0007): KEKraw = HKDF(secret, vaultId, "vf1/kek") as the
 * AES-256-GCM KEK (the same key deriveKek gives), and K_commit = HKDF(KEKraw, vaultId,
 * "vf1/commit") as an HMAC-SHA256 key. KEKraw exists as bytes only until both are imported,
 * then is wiped; both keys are non-extractable.
 */
export async function deriveSlotKeys(
  secret: Bytes,
  vaultId: VaultId,
): Promise<{ kek: CryptoKey; commit: CryptoKey }> {
  const salt = uuidBytes(vaultId);
  const raw = await hkdfBytes(secret, salt, utf8(LABELS.kek), 32);
  try {
    const [kek, base] = await Promise.all([importAesKey(raw), importHkdfKey(raw)]);
    return { kek, commit: await deriveHmacKey(base, salt, utf8(LABELS.commit)) };
  } finally {
    raw.fill(0);
  }
}

/** Derives K_wrap, K_meta, K_item, K_look and K_man from the 32 VMK bytes. */
export async function deriveVaultKeys(vmk: Bytes, vaultId: VaultId): Promise<VaultKeys> {
  if (vmk.length !== 32) throw new CryptoError('INTERNAL');
  const base = await importHkdfKey(vmk);
  const salt = uuidBytes(vaultId);
  const [wrap, meta, item, lookup, manifest] = await Promise.all([
    deriveAesKey(base, salt, utf8(LABELS.wrap)),
    deriveAesKey(base, salt, utf8(LABELS.meta)),
    deriveAesKey(base, salt, utf8(LABELS.item)),
    deriveHmacKey(base, salt, utf8(LABELS.lookup)),
    deriveHmacKey(base, salt, utf8(LABELS.manifest)),
  ]);
  return { vaultId, wrap, meta, item, lookup, manifest };
}

const fkAad = (vaultId: VaultId, fileId: FileId) =>
  fields(LABELS.fkAad, uuidBytes(vaultId), uuidBytes(fileId));

/**
 * A fresh FK for one file version: returns encFK = nonce12 | AES-256-GCM(K_wrap, FK, AAD) and FK
 * as a non-extractable HKDF key. The raw FK bytes are wiped once wrapped and imported.
 */
export async function newFileKey(keys: VaultKeys, fileId: FileId, random: RandomBytes) {
  const fk = random(32);
  const nonce = random(12);
  try {
    const sealed = await aesGcmEncrypt(keys.wrap, nonce, fk, fkAad(keys.vaultId, fileId));
    return { wrapped: concat(nonce, sealed), fk: await importHkdfKey(fk) };
  } finally {
    fk.fill(0);
  }
}

/**
 * Key rotation: opens encFK under `from`'s K_wrap and wraps the same FK under `to`'s (fresh
 * nonce). The raw FK exists only between the two calls and is wiped. Any failure: DECRYPT_FAILED.
 */
export async function rewrapFileKey(
  from: VaultKeys,
  to: VaultKeys,
  fileId: FileId,
  wrapped: Uint8Array,
  random: RandomBytes,
): Promise<Bytes> {
  if (wrapped.length !== 12 + 32 + 16) throw new CryptoError('DECRYPT_FAILED');
  let fk: Bytes | undefined;
  try {
    const nonce = wrapped.slice(0, 12);
    fk = await aesGcmDecrypt(from.wrap, nonce, wrapped.slice(12), fkAad(from.vaultId, fileId));
    const next = random(12);
    return concat(next, await aesGcmEncrypt(to.wrap, next, fk, fkAad(to.vaultId, fileId)));
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  } finally {
    fk?.fill(0);
  }
}

/** Opens encFK for `fileId`; any failure is DECRYPT_FAILED. */
export async function openFileKey(keys: VaultKeys, fileId: FileId, wrapped: Uint8Array) {
  if (wrapped.length !== 12 + 32 + 16) throw new CryptoError('DECRYPT_FAILED');
  let fk: Bytes | undefined;
  try {
    const nonce = wrapped.slice(0, 12);
    fk = await aesGcmDecrypt(keys.wrap, nonce, wrapped.slice(12), fkAad(keys.vaultId, fileId));
    return await importHkdfKey(fk);
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  } finally {
    fk?.fill(0);
  }
}
