// Small encrypted records (vault-format.md §3): file metadata under K_meta, secret items under
// K_item (revision in the AAD), and the name look-up HMAC under K_look. Records are
// nonce12 | AES-256-GCM(JSON padded with spaces), base64: metadata to a multiple of 64 bytes,
// secret items to a bucket of 512, 1024, 2048, ... bytes (ADR 0007). Decryption takes either
// padding (items written before ADR 0007 are padded to 64).
import {
  concat,
  fields,
  fromBase64,
  fromUtf8,
  toBase64,
  toHex,
  u64be,
  utf8,
  uuidBytes,
  type RandomBytes,
} from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { FileId, FolderId, ItemId } from './ids.ts';
import { LABELS, type VaultKeys } from './keys.ts';
import { aesGcmDecrypt, aesGcmEncrypt, hmacSign, type Bytes } from './primitives.ts';

/** What encMeta holds: the server never sees a name, MIME type or plaintext size. */
export interface FileMeta {
  name: string;
  mime: string;
  /** Plaintext bytes. */
  size: number;
  /** Last modified, milliseconds since the epoch. */
  modified: number;
  /** SHA-256 of the plaintext, lowercase hex, when known. */
  sha256?: string;
  /**
   * The folder the file or folder is in (a folder's id, lowercase UUID); absent at the vault's
   * root. Inside the encryption, so the server never learns the tree (docs/vault-format.md).
   */
  folder?: string;
  /**
   * On a thumbnail's record: the id of the file it shows (lowercase UUID). A thumbnail is a small
   * image stored as a file of its own, under its own key (docs/vault-format.md "Thumbnails").
   */
  thumbnailOf?: string;
  /**
   * In the trash since this time (milliseconds since the epoch). Only the record the user moved to
   * the trash carries it; what is below a trashed folder follows it (docs/vault-format.md "Trash").
   */
  trashed?: number;
  /** On a trashed record: the names of the folders it was in, from the root, to re-create them. */
  trashedFrom?: string[];
  /** On an older version of a file: the id of the file's current record (lowercase UUID). */
  versionOf?: string;
}

/** The MIME type of a folder's record (a folder is a file of no content: vault-format.md). */
export const FOLDER_MIME = 'inode/directory';

/** A secret record; any extra JSON fields are kept. */
export interface SecretItem {
  title: string;
  username?: string;
  password?: string;
  url?: string;
  notes?: string;
  [field: string]: unknown;
}

/** Metadata is padded to a multiple of this many bytes. */
export const PAD = 64;

/** JSON, then spaces up to a multiple of 64 bytes (trailing spaces are still valid JSON). */
export function padJson(value: unknown): Bytes {
  const json = utf8(JSON.stringify(value));
  const padded = new Uint8Array(Math.max(PAD, Math.ceil(json.length / PAD) * PAD)).fill(0x20);
  padded.set(json);
  return padded;
}

/** The smallest bucket of padBucket. */
export const ITEM_BUCKET_MIN = 512;

/**
 * JSON, then spaces up to the smallest of 512, 1024, 2048, ... bytes that holds it, so a secret
 * record's size tells the server little more than its order of magnitude.
 */
export function padBucket(value: unknown): Bytes {
  const json = utf8(JSON.stringify(value));
  let size = ITEM_BUCKET_MIN;
  while (size < json.length) size *= 2;
  const padded = new Uint8Array(size).fill(0x20);
  padded.set(json);
  return padded;
}

async function seal(key: CryptoKey, plain: Bytes, aad: Bytes, random: RandomBytes) {
  const nonce = random(12);
  try {
    return toBase64(concat(nonce, await aesGcmEncrypt(key, nonce, plain, aad)));
  } finally {
    plain.fill(0);
  }
}

async function open(key: CryptoKey, data: string, aad: Bytes): Promise<unknown> {
  try {
    const bytes = fromBase64(data);
    if (bytes.length < 12 + PAD + 16) throw new CryptoError('DECRYPT_FAILED');
    const plain = await aesGcmDecrypt(key, bytes.slice(0, 12), bytes.slice(12), aad);
    return JSON.parse(fromUtf8(plain)) as unknown;
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  }
}

const parentBytes = (parentId: FolderId | null) =>
  parentId === null ? new Uint8Array(0) : uuidBytes(parentId);

/** AAD = "vf1/meta" | vaultId | fileId | parentId (empty for the vault root). */
export const metaAad = (keys: VaultKeys, fileId: FileId, parentId: FolderId | null) =>
  fields(LABELS.metaAad, uuidBytes(keys.vaultId), uuidBytes(fileId), parentBytes(parentId));

/** AAD = "vf1/item" | vaultId | itemId | uint64be(revision). */
export const itemAad = (keys: VaultKeys, itemId: ItemId, revision: number) =>
  fields(LABELS.itemAad, uuidBytes(keys.vaultId), uuidBytes(itemId), u64be(revision));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The metadata's shape, checked after decryption; DECRYPT_FAILED when it is not metadata. */
export function checkMeta(value: unknown): FileMeta {
  const m = value as Partial<FileMeta> | null;
  const ok =
    typeof m === 'object' &&
    m !== null &&
    typeof m.name === 'string' &&
    typeof m.mime === 'string' &&
    Number.isSafeInteger(m.size) &&
    typeof m.modified === 'number' &&
    (m.sha256 === undefined || typeof m.sha256 === 'string') &&
    (m.folder === undefined || (typeof m.folder === 'string' && UUID.test(m.folder))) &&
    (m.thumbnailOf === undefined ||
      (typeof m.thumbnailOf === 'string' && UUID.test(m.thumbnailOf))) &&
    (m.trashed === undefined || (Number.isSafeInteger(m.trashed) && m.trashed >= 0)) &&
    (m.trashedFrom === undefined ||
      (Array.isArray(m.trashedFrom) &&
        m.trashedFrom.length <= 64 &&
        m.trashedFrom.every((n) => typeof n === 'string' && n !== ''))) &&
    (m.versionOf === undefined || (typeof m.versionOf === 'string' && UUID.test(m.versionOf)));
  if (!ok) throw new CryptoError('DECRYPT_FAILED');
  return m as FileMeta;
}

export function encryptMeta(
  keys: VaultKeys,
  fileId: FileId,
  parentId: FolderId | null,
  meta: FileMeta,
  random: RandomBytes,
): Promise<string> {
  const clean = checkInput(() => checkMeta(meta));
  const value: FileMeta = {
    name: clean.name.normalize('NFC'),
    mime: clean.mime,
    size: clean.size,
    modified: clean.modified,
    ...(clean.sha256 === undefined ? {} : { sha256: clean.sha256 }),
    ...(clean.folder === undefined ? {} : { folder: clean.folder }),
    ...(clean.thumbnailOf === undefined ? {} : { thumbnailOf: clean.thumbnailOf }),
    ...(clean.trashed === undefined ? {} : { trashed: clean.trashed }),
    ...(clean.trashedFrom === undefined ? {} : { trashedFrom: [...clean.trashedFrom] }),
    ...(clean.versionOf === undefined ? {} : { versionOf: clean.versionOf }),
  };
  return seal(keys.meta, padJson(value), metaAad(keys, fileId, parentId), random);
}

export async function decryptMeta(
  keys: VaultKeys,
  fileId: FileId,
  parentId: FolderId | null,
  encMeta: string,
): Promise<FileMeta> {
  return checkMeta(await open(keys.meta, encMeta, metaAad(keys, fileId, parentId)));
}

/** An item's shape, checked after decryption; DECRYPT_FAILED when it is not an item. */
export function checkItem(value: unknown): SecretItem {
  const v = value as Partial<SecretItem> | null;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof v.title !== 'string') {
    throw new CryptoError('DECRYPT_FAILED');
  }
  return v as SecretItem;
}

function checkInput<T>(fn: () => T): T {
  try {
    return fn();
  } catch {
    throw new CryptoError('INVALID_INPUT');
  }
}

export function encryptItem(
  keys: VaultKeys,
  itemId: ItemId,
  revision: number,
  item: SecretItem,
  random: RandomBytes,
): Promise<string> {
  const aad = checkInput(() => itemAad(keys, itemId, revision));
  return seal(keys.item, padBucket(checkInput(() => checkItem(item))), aad, random);
}

export async function decryptItem(
  keys: VaultKeys,
  itemId: ItemId,
  revision: number,
  data: string,
): Promise<SecretItem> {
  const aad = checkInput(() => itemAad(keys, itemId, revision));
  return checkItem(await open(keys.item, data, aad));
}

/** lookup = HMAC-SHA256(K_look, parentId | 0x00 | NFC(name)), lowercase hex; the parent is
 * its lowercase UUID text ('' for the vault root), which never contains 0x00. */
export async function lookupName(keys: VaultKeys, parentId: FolderId | null, name: string) {
  const data = concat(utf8(parentId ?? ''), Uint8Array.of(0), utf8(name.normalize('NFC')));
  return toHex(await hmacSign(keys.lookup, data));
}

/**
 * A device's cache of what it decrypted from a vault (vault-format.md "Device cache"): any text
 * (the app's is JSON), sealed as nonce12 | AES-256-GCM under K_meta with the AAD
 * "vf1/device-cache" | vaultId, so it opens only with the vault unlocked and never as a file's
 * metadata (whose AAD differs). Bytes, not base64: it is megabytes, kept in IndexedDB as they are.
 */
const cacheAad = (keys: VaultKeys) => fields(LABELS.deviceCache, uuidBytes(keys.vaultId));

export async function sealCache(
  keys: VaultKeys,
  text: string,
  random: RandomBytes,
): Promise<Bytes> {
  const nonce = random(12);
  const plain = utf8(text);
  try {
    return concat(nonce, await aesGcmEncrypt(keys.meta, nonce, plain, cacheAad(keys)));
  } finally {
    plain.fill(0);
  }
}

/** The text sealCache sealed for this vault; DECRYPT_FAILED for anything else. */
export async function openCache(keys: VaultKeys, sealed: Bytes): Promise<string> {
  try {
    if (!(sealed instanceof Uint8Array) || sealed.length < 12 + 16) throw new Error('short');
    const plain = await aesGcmDecrypt(
      keys.meta,
      sealed.slice(0, 12),
      sealed.slice(12),
      cacheAad(keys),
    );
    return fromUtf8(plain);
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  }
}
