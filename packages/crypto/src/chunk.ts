// STREAM chunks of vf1 (vault-format.md §2; age's STREAM). Chunk i = AES-256-GCM(K_pay,
// nonce = uint88be(i) | final flag, AAD = the 72 header bytes) = ciphertext | tag16.
//
// [Note: chunk nonces] Nonces are derived from the chunk index and the final flag, never stored.
// This is safe only because K_pay is unique per blob (fresh FK and fileNonce per file version):
// a blob is never rewritten in place. The final flag makes truncation at a chunk boundary and
// extension after the final chunk fail authentication.
import { CryptoError } from './errors.ts';
import { HEADER_BYTES, type FileCipher } from './header.ts';
import { aesGcmDecrypt, aesGcmEncrypt, type Bytes } from './primitives.ts';

export const CHUNK_BYTES = 2 ** 18;
export const TAG_BYTES = 16;
export const SEALED_CHUNK_BYTES = CHUNK_BYTES + TAG_BYTES;

/** uint88 big-endian chunk index, then 0x01 for the final chunk or 0x00. See [Note: chunk nonces]. */
export function chunkNonce(index: number, final: boolean): Bytes {
  if (!Number.isSafeInteger(index) || index < 0) throw new CryptoError('INVALID_INPUT');
  const nonce = new Uint8Array(12);
  // Bytes 3..10 big-endian (a safe integer fits in 53 bits; bytes 0..3 stay zero). No BigInt:
  // this runs once per chunk, and BigInt plus a DataView cost more than the rest of the framing.
  let rest = index;
  for (let i = 10; i >= 3 && rest > 0; i--) {
    nonce[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  nonce[11] = final ? 1 : 0;
  return nonce;
}

/** Seals one chunk: a full chunk unless final; a final chunk is empty only for an empty file. */
export function sealChunk(fc: FileCipher, index: number, plain: Bytes, final: boolean) {
  const okSize = final
    ? plain.length <= CHUNK_BYTES && (plain.length > 0 || index === 0)
    : plain.length === CHUNK_BYTES;
  if (!okSize) throw new CryptoError('INVALID_INPUT');
  return aesGcmEncrypt(fc.payload, chunkNonce(index, final), plain, fc.header);
}

/** Opens one chunk; releases its plaintext only after the tag checks. Else DECRYPT_FAILED. */
export async function openChunk(fc: FileCipher, index: number, sealed: Bytes, final: boolean) {
  const okSize = final
    ? sealed.length <= SEALED_CHUNK_BYTES && sealed.length >= TAG_BYTES + (index === 0 ? 0 : 1)
    : sealed.length === SEALED_CHUNK_BYTES;
  if (!okSize) throw new CryptoError('DECRYPT_FAILED');
  try {
    return await aesGcmDecrypt(fc.payload, chunkNonce(index, final), sealed, fc.header);
  } catch {
    throw new CryptoError('DECRYPT_FAILED');
  }
}

/** Ciphertext size = 72 + P + 16 * max(1, ceil(P / 2^18)). */
export const ciphertextSize = (plain: number): number =>
  HEADER_BYTES + plain + TAG_BYTES * Math.max(1, Math.ceil(plain / CHUNK_BYTES));

/** The plaintext size a ciphertext of `cipher` bytes holds, or null if none does. */
export function plaintextSize(cipher: number): number | null {
  if (!Number.isSafeInteger(cipher) || cipher < HEADER_BYTES + TAG_BYTES) return null;
  const chunks = Math.ceil((cipher - HEADER_BYTES) / SEALED_CHUNK_BYTES);
  const plain = cipher - HEADER_BYTES - TAG_BYTES * chunks;
  return ciphertextSize(plain) === cipher ? plain : null;
}

/** What to fetch and decrypt for plaintext bytes [start, end) of a file. */
export interface RangePlan {
  /** Ciphertext bytes to fetch, end exclusive (HTTP `Range: bytes=fetchStart-(fetchEnd-1)`). */
  readonly fetchStart: number;
  readonly fetchEnd: number;
  /** Index of the first chunk in the fetched slice, and how many chunks it holds. */
  readonly firstChunk: number;
  readonly chunkCount: number;
  /** Index of the file's final chunk (it carries the final flag). */
  readonly finalChunk: number;
  /** Plaintext bytes to drop from the front of the first chunk, then bytes to keep. */
  readonly skip: number;
  readonly length: number;
}

/**
 * Plans a range read: byte X lives in chunk floor(X / 2^18), which sits at 72 + i * 262,160.
 * The header (bytes 0..71) is needed too; fetch it once per file. `end` is exclusive and is
 * clamped to the plaintext size.
 */
export function planRange(cipherSize: number, start: number, end: number): RangePlan {
  const size = plaintextSize(cipherSize);
  if (size === null || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    throw new CryptoError('INVALID_INPUT');
  }
  const stop = Math.min(end, size);
  if (start < 0 || start > stop) throw new CryptoError('INVALID_INPUT');
  const finalChunk = Math.max(0, Math.ceil(size / CHUNK_BYTES) - 1);
  if (start === stop) {
    return {
      fetchStart: 0,
      fetchEnd: 0,
      firstChunk: 0,
      chunkCount: 0,
      finalChunk,
      skip: 0,
      length: 0,
    };
  }
  const first = Math.floor(start / CHUNK_BYTES);
  const last = Math.floor((stop - 1) / CHUNK_BYTES);
  const fetchStart = HEADER_BYTES + first * SEALED_CHUNK_BYTES;
  const fetchEnd = Math.min(cipherSize, HEADER_BYTES + (last + 1) * SEALED_CHUNK_BYTES);
  return {
    fetchStart,
    fetchEnd,
    firstChunk: first,
    chunkCount: last - first + 1,
    finalChunk,
    skip: start - first * CHUNK_BYTES,
    length: stop - start,
  };
}
