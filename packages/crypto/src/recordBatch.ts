// Many small records opened in one call (vault-format.md §3, records.ts): the files' metadata
// and the secret items a vault's listing decrypts at every unlock, answering exactly what
// records.ts's decryptMeta and decryptItem answer one at a time, null where a record does not
// open.
//
// [Note: batch record opening] Opening a vault opens every record (10,500 in bench/RESULTS.md's
// files bench): the cost per record was the JavaScript around the one WebCrypto call (the AAD
// built field by field, two UUIDs parsed by regular expression, base64 checked by one and
// decoded a character at a time, copies of the nonce and ciphertext), about three times the
// decryption itself. A batch builds each AAD into one scratch buffer from a prefix made once
// (WebCrypto copies its inputs when called, vault-format.md "Associated data" gives the bytes),
// decodes base64 natively where the engine can, and hands WebCrypto views, not copies; every
// call is issued before the first is awaited, so they run on WebCrypto's own thread while this
// one prepares the next. The bytes are those of metaAad and itemAad (records.test.ts checks).
import { fields, fromBase64, fromUtf8, uuidBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { LABELS, type VaultKeys } from './keys.ts';
import { aesGcmDecrypt, type Bytes } from './primitives.ts';
import { checkItem, checkMeta, PAD, type FileMeta, type SecretItem } from './records.ts';

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Writes a UUID's 16 bytes at `at`; false when it is not one (as uuidBytes would refuse). */
function putUuid(out: Uint8Array, at: number, id: string): boolean {
  if (typeof id !== 'string' || id.length !== 36) return false;
  let n = 0;
  // The hex pairs never straddle a dash: the groups are 8, 4, 4, 4 and 12 digits long.
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (id.charCodeAt(i) !== 0x2d) return false;
      i -= 1;
      continue;
    }
    const hi = HEX[id.charCodeAt(i)] ?? -1;
    const lo = HEX[id.charCodeAt(i + 1)] ?? -1;
    if (hi < 0 || lo < 0) return false;
    out[at + n++] = (hi << 4) | lo;
  }
  return n === 16;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
type NativeBase64 = (
  text: string,
  options: { lastChunkHandling: 'strict' },
) => Uint8Array<ArrayBuffer>;
const nativeBase64 = (Uint8Array as unknown as { fromBase64?: NativeBase64 }).fromBase64;

/** fromBase64, with the engine's own decoder where it has one (same answers, same refusals). */
function decode64(text: string): Uint8Array<ArrayBuffer> {
  if (!nativeBase64) return fromBase64(text);
  if (typeof text !== 'string' || text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new TypeError('invalid base64');
  }
  return nativeBase64(text, { lastChunkHandling: 'strict' });
}

/** The AAD's fixed start, label and vault id, and room for the record's fields after it. */
function aadScratch(label: string, vaultId: string, extra: number): { buf: Bytes; at: number } {
  const prefix = fields(label, uuidBytes(vaultId));
  const buf = new Uint8Array(prefix.length + extra);
  buf.set(prefix);
  return { buf, at: prefix.length };
}

async function openBatch<T>(
  key: CryptoKey,
  count: number,
  data: (i: number) => string,
  aad: (i: number) => Bytes | null,
  check: (value: unknown) => T,
): Promise<(T | null)[]> {
  const pending = new Array<Promise<Bytes | null>>(count);
  for (let i = 0; i < count; i += 1) {
    try {
      const bytes = decode64(data(i));
      const ad = aad(i);
      if (!ad || bytes.length < 12 + PAD + 16) throw new CryptoError('DECRYPT_FAILED');
      // Called now (it copies `ad` before this loop writes the next record's into it).
      pending[i] = aesGcmDecrypt(key, bytes.subarray(0, 12), bytes.subarray(12), ad).catch(
        () => null,
      );
    } catch {
      pending[i] = Promise.resolve(null);
    }
  }
  const opened = await Promise.all(pending);
  return opened.map((plain) => {
    if (!plain) return null;
    try {
      return check(JSON.parse(fromUtf8(plain)));
    } catch {
      return null;
    }
  });
}

/**
 * Many files' metadata (decryptMeta each, [Note: batch record opening]): each result is the
 * metadata, or null when that record does not open.
 */
export function decryptMetas(
  keys: VaultKeys,
  list: readonly { id: string; parentId: string | null; encMeta: string }[],
): Promise<(FileMeta | null)[]> {
  // label | vaultId | fileId | parentId: the last two are 4 + 16 and 4 + (0 or 16) bytes.
  const { buf, at } = aadScratch(LABELS.metaAad, keys.vaultId, 40);
  const view = new DataView(buf.buffer);
  view.setUint32(at, 16);
  return openBatch(
    keys.meta,
    list.length,
    (i) => list[i]!.encMeta,
    (i) => {
      const f = list[i]!;
      if (!putUuid(buf, at + 4, f.id)) return null;
      if (f.parentId === null) {
        view.setUint32(at + 20, 0);
        return buf.subarray(0, at + 24);
      }
      view.setUint32(at + 20, 16);
      return putUuid(buf, at + 24, f.parentId) ? buf : null;
    },
    checkMeta,
  );
}

/**
 * Many secret items (decryptItem each, [Note: batch record opening]): each result is the item,
 * or null when that record does not open (tampered, moved, wrong revision).
 */
export function decryptItems(
  keys: VaultKeys,
  list: readonly { id: string; revision: number; data: string }[],
): Promise<(SecretItem | null)[]> {
  // label | vaultId | itemId | uint64be(revision): 4 + 16 and 4 + 8 bytes.
  const { buf, at } = aadScratch(LABELS.itemAad, keys.vaultId, 32);
  const view = new DataView(buf.buffer);
  view.setUint32(at, 16);
  view.setUint32(at + 20, 8);
  return openBatch(
    keys.item,
    list.length,
    (i) => list[i]!.data,
    (i) => {
      const r = list[i]!;
      if (!Number.isSafeInteger(r.revision) || r.revision < 0) return null;
      if (!putUuid(buf, at + 4, r.id)) return null;
      view.setBigUint64(at + 24, BigInt(r.revision));
      return buf;
    },
    checkItem,
  );
}
