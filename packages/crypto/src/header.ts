// The 72-byte vf1 file header (vault-format.md §2) and the two keys derived from FK with the
// header's fileNonce as HKDF salt: K_pay (AES-256-GCM, chunks) and K_hdr (HMAC-SHA256, header).
//
//   0  4  magic 89 56 46 31      8 16 fileId
//   4  1  version = 1           24 16 fileNonce (random)
//   5  1  aead = 1 (STREAM)     40 32 headerMAC = HMAC-SHA256(K_hdr, bytes 0..39)
//   6  1  log2 chunk size = 18
//   7  1  flags = 0
import { concat, equalBytes, utf8, uuidBytes, type RandomBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { FileId } from './ids.ts';
import { LABELS } from './keys.ts';
import { deriveAesKey, deriveHmacKey, hmacSign, hmacVerify, type Bytes } from './primitives.ts';

export const HEADER_BYTES = 72;
export const CHUNK_LOG2 = 18;
const PREFIX = Uint8Array.of(0x89, 0x56, 0x46, 0x31, 1, 1, CHUNK_LOG2, 0);

/** What seals or opens the chunks of one file version. */
export interface FileCipher {
  /** All 72 header bytes: the AAD of every chunk. */
  readonly header: Bytes;
  /** K_pay. */
  readonly payload: CryptoKey;
}

async function fileSubkeys(fk: CryptoKey, fileNonce: Bytes) {
  const [payload, mac] = await Promise.all([
    deriveAesKey(fk, fileNonce, utf8(LABELS.payload)),
    deriveHmacKey(fk, fileNonce, utf8(LABELS.header)),
  ]);
  return { payload, mac };
}

/** A new header for a fresh FK (blobs are immutable: never reuse an FK or a fileNonce). */
export async function newHeader(
  fk: CryptoKey,
  fileId: FileId,
  random: RandomBytes,
): Promise<FileCipher> {
  const fileNonce = random(16);
  const { payload, mac } = await fileSubkeys(fk, fileNonce);
  const body = concat(PREFIX, uuidBytes(fileId), fileNonce);
  return { header: concat(body, await hmacSign(mac, body)), payload };
}

/**
 * Checks a header against FK and the expected fileId, MAC first (it also commits to FK), before
 * any chunk is decrypted. Any mismatch is DECRYPT_FAILED.
 */
export async function openHeader(
  fk: CryptoKey,
  fileId: FileId,
  header: Uint8Array,
): Promise<FileCipher> {
  if (header.length !== HEADER_BYTES) throw new CryptoError('DECRYPT_FAILED');
  const copy = header.slice();
  const body = copy.subarray(0, 40);
  const { payload, mac } = await fileSubkeys(fk, copy.slice(24, 40));
  const macOk = await hmacVerify(mac, copy.slice(40), body.slice());
  const fieldsOk =
    equalBytes(body.subarray(0, 8), PREFIX) && equalBytes(body.subarray(8, 24), uuidBytes(fileId));
  if (!macOk || !fieldsOk) throw new CryptoError('DECRYPT_FAILED');
  return { header: copy, payload };
}
