// The vault manifest (ADR 0007; vault-format.md, "The manifest"): one JSON record per vault that
// pins its fields, its slots (by fingerprint), and every file and secret (by an entry digest),
// MACed under K_man and hash-chained version to version, so that a server cannot roll back,
// delete, resurrect or relabel anything without the client noticing. Everything here is pure
// except the hashing; the MAC itself is made and checked in service.ts, where K_man lives.
import {
  concat,
  fields,
  fromBase64,
  fromHex,
  isUuid,
  toHex,
  u64be,
  utf8,
  uuidBytes,
} from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { VaultId } from './ids.ts';
import { LABELS, type VaultKeys } from './keys.ts';
import { hmacSign, hmacVerify, sha256, sha256Small, type Bytes } from './primitives.ts';

/** The vault's own fields, as the manifest pins them (a null text is written as ""). */
export interface ManifestVault {
  name: string;
  description: string;
  vault_type: string;
  provider_type: string;
  storage_folder: string;
}

/** A manifest before its MAC: what signManifest takes. */
export interface UnsignedManifest {
  format: 'vf1-manifest';
  /** 1, 2, 3, ...: one more on every change. */
  version: number;
  /** 64 hex: the hash of version - 1; "" for version 1. */
  prev: string;
  vault: ManifestVault;
  /** Slot fingerprints (slotFingerprint), 64 hex each, sorted ascending. */
  slots: string[];
  /** [file id (lowercase UUID), fileEntryDigest], sorted by id. */
  files: [string, string][];
  /** [item id (lowercase UUID), revision, itemEntryDigest], sorted by id. */
  secrets: [string, number, string][];
  /**
   * ADR 0008: the segments of a secrets vault whose items live in its storage provider, as
   * [segment id (lowercase UUID), SHA-256 of the segment's bytes (64 hex)], oldest first (the
   * order they are folded in; not sorted). Absent for a vault whose items are on the server.
   */
  segments?: [string, string][];
}

/** The manifest as the server stores it. */
export interface Manifest extends UnsignedManifest {
  /** 64 hex: HMAC-SHA256(K_man, manifestBody). */
  mac: string;
}

/** What the file entry digest covers: the file record's fields, as the server returns them. */
export interface FileEntry {
  id: string;
  /** encFK, base64. */
  wrapped_key: string;
  /** encMeta, base64. */
  enc_meta: string;
  name_lookup: string;
  checksum: string;
  ciphertext_size: number;
}

/** What the secret entry digest covers. */
export interface ItemEntry {
  id: string;
  revision: number;
  /** The encrypted record, base64. */
  data: string;
}

/** What a device holds of the last manifest it accepted. */
export interface ChainHead {
  version: number;
  hash: string;
}

/**
 * ok: the next link (or the same version again, or a first sight); older: a lower version
 * (roll-back); fork: the same version with another hash, or version + 1 whose `prev` is not the
 * hash held; newer-unlinked: more than one version ahead (acceptable once its MAC verifies).
 */
export type ChainVerdict = 'ok' | 'older' | 'fork' | 'newer-unlinked';

const HEX32 = /^[0-9a-f]{32}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const UUID_LOWER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const digest16 = async (data: Bytes) => toHex((await sha256Small(data)).subarray(0, 16));

function input<T>(fn: () => T): T {
  try {
    return fn();
  } catch {
    throw new CryptoError('INVALID_INPUT');
  }
}

/**
 * First 16 bytes of SHA-256(fields("vf1/file-entry", fileId16, wrapped_key bytes, enc_meta
 * bytes, UTF-8(name_lookup), UTF-8(checksum), u64be(ciphertext_size))), hex. INVALID_INPUT if
 * malformed.
 */
export async function fileEntryDigest(file: FileEntry): Promise<string> {
  const data = input(() =>
    fields(
      LABELS.fileEntry,
      uuidBytes(file.id),
      fromBase64(file.wrapped_key),
      fromBase64(file.enc_meta),
      utf8(file.name_lookup),
      utf8(file.checksum),
      u64be(file.ciphertext_size),
    ),
  );
  return digest16(data);
}

// The fixed start of every item entry's fields(): the label's length and bytes, then the id's
// and the revision's lengths, written once.
const ITEM_ENTRY_HEAD = (() => {
  const label = utf8(LABELS.itemEntry);
  const head = new Uint8Array(4 + label.length);
  new DataView(head.buffer).setUint32(0, label.length);
  head.set(label, 4);
  return head;
})();

/** First 16 bytes of SHA-256(fields("vf1/item-entry", itemId16, u64be(revision), data bytes)). */
export async function itemEntryDigest(item: ItemEntry): Promise<string> {
  // The same bytes as fields(...), fed to the hasher in pieces (a vault lists thousands of these).
  const parts = input(() => {
    const data = fromBase64(item.data);
    const middle = new Uint8Array(4 + 16 + 4 + 8 + 4);
    const view = new DataView(middle.buffer);
    view.setUint32(0, 16);
    middle.set(uuidBytes(item.id), 4);
    view.setUint32(20, 8);
    middle.set(u64be(item.revision), 24);
    view.setUint32(32, data.length);
    return [ITEM_ENTRY_HEAD, middle, data];
  });
  return toHex((await sha256Small(...parts)).subarray(0, 16));
}

const byId = <T extends readonly [string, ...unknown[]]>(a: T, b: T) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/** What canonicalManifest takes: an unsigned manifest whose vault texts may be null or absent. */
export type ManifestInput = Omit<UnsignedManifest, 'vault'> & {
  vault: Omit<ManifestVault, 'description' | 'storage_folder'> & {
    description?: string | null;
    storage_folder?: string | null;
  };
};

/**
 * The canonical form: ids and hex lowercased, slots sorted ascending, files and secrets sorted by
 * id, a null or missing description or storage folder written as "", any other key (a `mac`)
 * dropped. It does not validate: a duplicate stays a duplicate (and isUnsignedManifest refuses
 * it).
 */
export function canonicalManifest(m: ManifestInput): UnsignedManifest {
  const lower = (s: string) => (typeof s === 'string' ? s.toLowerCase() : s);
  return {
    format: m.format,
    version: m.version,
    prev: lower(m.prev),
    vault: {
      name: m.vault.name,
      description: m.vault.description ?? '',
      vault_type: m.vault.vault_type,
      provider_type: m.vault.provider_type,
      storage_folder: m.vault.storage_folder ?? '',
    },
    slots: m.slots.map(lower).sort(),
    files: m.files.map(([id, d]): [string, string] => [lower(id), lower(d)]).sort(byId),
    secrets: m.secrets
      .map(([id, r, d]): [string, number, string] => [lower(id), r, lower(d)])
      .sort(byId),
    ...(m.segments
      ? { segments: m.segments.map(([id, d]): [string, string] => [lower(id), lower(d)]) }
      : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const exactKeys = (v: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
/** Strictly ascending: sorted and without duplicates. */
const ascending = (ids: readonly string[]) => ids.every((id, i) => i === 0 || ids[i - 1]! < id);

const MANIFEST_KEYS = ['format', 'version', 'prev', 'vault', 'slots', 'files', 'secrets'] as const;
const VAULT_KEYS = ['name', 'description', 'vault_type', 'provider_type', 'storage_folder'];

/** The optional segment list (ADR 0008): [lowercase UUID, 64 hex], each id once, in any order. */
function validSegments(segments: unknown): boolean {
  if (segments === undefined) return true;
  if (!Array.isArray(segments)) return false;
  const ok = (g: unknown) =>
    Array.isArray(g) &&
    g.length === 2 &&
    typeof g[0] === 'string' &&
    UUID_LOWER.test(g[0]) &&
    typeof g[1] === 'string' &&
    HEX64.test(g[1]);
  return (
    segments.every(ok) && new Set(segments.map((g: [string]) => g[0])).size === segments.length
  );
}

function validShape(v: unknown, required: readonly string[]): boolean {
  const keys = isObject(v) && Object.hasOwn(v, 'segments') ? [...required, 'segments'] : required;
  if (!isObject(v) || !exactKeys(v, keys) || !validSegments(v.segments)) return false;
  const { format, version, prev, vault, slots, files, secrets } = v;
  if (format !== 'vf1-manifest' || !isCount(version) || version < 1) return false;
  if (typeof prev !== 'string' || (version === 1 ? prev !== '' : !HEX64.test(prev))) return false;
  if (!isObject(vault) || !exactKeys(vault, VAULT_KEYS)) return false;
  if (!VAULT_KEYS.every((k) => typeof vault[k] === 'string')) return false;
  if (!Array.isArray(slots) || !Array.isArray(files) || !Array.isArray(secrets)) return false;
  if (!slots.every((s) => typeof s === 'string' && HEX64.test(s))) return false;
  if (!ascending(slots as string[])) return false;
  const fileOk = (f: unknown) =>
    Array.isArray(f) &&
    f.length === 2 &&
    typeof f[0] === 'string' &&
    UUID_LOWER.test(f[0]) &&
    typeof f[1] === 'string' &&
    HEX32.test(f[1]);
  if (!files.every(fileOk) || !ascending(files.map((f: [string]) => f[0]))) return false;
  const itemOk = (s: unknown) =>
    Array.isArray(s) &&
    s.length === 3 &&
    typeof s[0] === 'string' &&
    UUID_LOWER.test(s[0]) &&
    isCount(s[1]) &&
    typeof s[2] === 'string' &&
    HEX32.test(s[2]);
  return secrets.every(itemOk) && ascending(secrets.map((s: [string]) => s[0]));
}

/**
 * Structural validation of an unsigned manifest: exact keys, format, version >= 1, prev empty
 * iff version 1 (else 64 lowercase hex), string vault fields, lowercase hex and UUIDs, lists
 * sorted without duplicates.
 */
export const isUnsignedManifest = (v: unknown): v is UnsignedManifest =>
  validShape(v, MANIFEST_KEYS);

/** isUnsignedManifest plus a `mac` of 64 lowercase hex. */
export const isManifest = (v: unknown): v is Manifest =>
  validShape(v, [...MANIFEST_KEYS, 'mac']) &&
  typeof (v as Manifest).mac === 'string' &&
  HEX64.test((v as Manifest).mac);

/**
 * body = fields("vf1/manifest", vaultId16, u64be(version), prev32 or empty, UTF-8 of name,
 * description, vault_type, provider_type, storage_folder, concat(fp32...), concat(fileId16 |
 * digest16 ...), concat(itemId16 | u64be(revision) | digest16 ...)): what the MAC covers. A
 * `mac` field of `m` is ignored. INVALID_INPUT unless `m` is valid (isUnsignedManifest).
 */
export function manifestBody(vaultId: VaultId | string, m: UnsignedManifest): Bytes {
  const unsigned: Record<string, unknown> = { ...m };
  delete unsigned.mac;
  if (!isUnsignedManifest(unsigned) || !isUuid(vaultId)) throw new CryptoError('INVALID_INPUT');
  const v = unsigned.vault;
  return fields(
    LABELS.manifest,
    uuidBytes(vaultId),
    u64be(unsigned.version),
    fromHex(unsigned.prev),
    utf8(v.name),
    utf8(v.description),
    utf8(v.vault_type),
    utf8(v.provider_type),
    utf8(v.storage_folder),
    packed(unsigned.slots, 32, (out, at, fp) => putHex(out, at, fp)),
    packed(unsigned.files, 32, (out, at, [id, d]) => {
      putUuid(out, at, id);
      putHex(out, at + 16, d);
    }),
    packed(unsigned.secrets, 40, (out, at, [id, r, d]) => {
      putUuid(out, at, id);
      putU64(out, at + 16, r);
      putHex(out, at + 24, d);
    }),
    // ADR 0008: a manifest with a segment list has one more field (an empty list is still a
    // field), so a manifest without one keeps the body it always had.
    ...(unsigned.segments
      ? [
          packed(unsigned.segments, 48, (out, at, [id, d]) => {
            putUuid(out, at, id);
            putHex(out, at + 16, d);
          }),
        ]
      : []),
  );
}

// [Note: packed manifest lists] The body's lists are written straight into one buffer per list:
// a manifest of 5,000 items is encoded for every sign and verify, and building 15,000 small arrays
// and spreading them into concat took 55-85 ms of that (now a few ms). The values were checked by
// validShape first (lowercase hex, lowercase UUIDs, safe integers), so the writers do not check.
const HEX_VALUE = (() => {
  const t = new Uint8Array(128);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[97 + i] = 10 + i;
  return t;
})();

function putHex(out: Uint8Array, at: number, hex: string): void {
  for (let i = 0; i < hex.length; i += 2)
    out[at + i / 2] = (HEX_VALUE[hex.charCodeAt(i)]! << 4) | HEX_VALUE[hex.charCodeAt(i + 1)]!;
}

/** A lowercase UUID's 16 bytes (the hyphens at 8, 13, 18 and 23 skipped). */
function putUuid(out: Uint8Array, at: number, id: string): void {
  let j = at;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) i += 1;
    out[j++] = (HEX_VALUE[id.charCodeAt(i)]! << 4) | HEX_VALUE[id.charCodeAt(i + 1)]!;
  }
}

function putU64(out: Uint8Array, at: number, n: number): void {
  const view = new DataView(out.buffer, out.byteOffset + at, 8);
  view.setUint32(0, Math.floor(n / 2 ** 32));
  view.setUint32(4, n >>> 0);
}

function packed<T>(
  list: readonly T[],
  width: number,
  write: (out: Uint8Array<ArrayBuffer>, at: number, entry: T) => void,
): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(list.length * width);
  list.forEach((entry, i) => write(out, i * width, entry));
  return out;
}

/** hash = SHA-256(body | mac bytes), hex: what the next version carries as `prev`. */
export async function manifestHash(vaultId: VaultId | string, manifest: Manifest): Promise<string> {
  if (!isManifest(manifest)) throw new CryptoError('INVALID_INPUT');
  return toHex(await sha256(concat(manifestBody(vaultId, manifest), fromHex(manifest.mac))));
}

/** Where `next` (already MAC-verified, with hash `nextHash`) stands against the head held. */
export function checkChain(prev: ChainHead | null, next: Manifest, nextHash: string): ChainVerdict {
  if (prev === null) return 'ok';
  if (next.version < prev.version) return 'older';
  if (next.version === prev.version) return nextHash === prev.hash ? 'ok' : 'fork';
  if (next.version === prev.version + 1) return next.prev === prev.hash ? 'ok' : 'fork';
  return 'newer-unlinked';
}

/** mac = hex(HMAC-SHA256(K_man, body)) over the canonical form of `draft`; INVALID_INPUT if malformed. */
export async function signManifest(keys: VaultKeys, draft: ManifestInput): Promise<Manifest> {
  const unsigned = input(() => canonicalManifest(draft));
  const body = manifestBody(keys.vaultId, unsigned);
  return { ...unsigned, mac: toHex(await hmacSign(keys.manifest, body)) };
}

/**
 * Checks the shape and the MAC (WebCrypto verify, constant time) and gives the manifest's hash.
 * Never throws for a bad manifest: `{ ok: false, hash: '' }`.
 */
export async function verifyManifest(
  keys: VaultKeys,
  manifest: unknown,
): Promise<{ ok: boolean; hash: string }> {
  try {
    if (!isManifest(manifest)) return { ok: false, hash: '' };
    const body = manifestBody(keys.vaultId, manifest);
    const mac = fromHex(manifest.mac);
    if (!(await hmacVerify(keys.manifest, mac, body))) return { ok: false, hash: '' };
    return { ok: true, hash: toHex(await sha256(concat(body, mac))) };
  } catch {
    return { ok: false, hash: '' };
  }
}
