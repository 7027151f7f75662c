// The one module of transfer/ that calls WebCrypto and hash-wasm (docs/conventions.md, "Crypto":
// these are the export and import formats' own primitives, not the vault's, which stay in
// packages/crypto). Runs in browsers and in Node 20 (globalThis.crypto).
import { argon2d as argon2dWasm, argon2id as argon2idWasm } from 'hash-wasm';

export type Bytes = Uint8Array<ArrayBuffer>;

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;
const utf8 = new TextEncoder();

export const encodeUtf8 = (s: string): Bytes => utf8.encode(s);
export const decodeUtf8 = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Random bytes; replaceable so a test can fix them. */
export let randomBytes = (n: number): Bytes => globalThis.crypto.getRandomValues(new Uint8Array(n));
export function setRandomBytes(fn: (n: number) => Bytes): void {
  randomBytes = fn;
}

export function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) {
    s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** Standard base64 to bytes; undefined when it is not base64. */
export function fromBase64(s: string): Bytes | undefined {
  try {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** Argon2 (v1.3) through hash-wasm; `memoryKiB` in KiB. */
export async function argon2(
  variant: 'argon2id' | 'argon2d',
  password: Uint8Array,
  salt: Uint8Array,
  memoryKiB: number,
  iterations: number,
  parallelism: number,
  length = 32,
): Promise<Bytes> {
  const fn = variant === 'argon2id' ? argon2idWasm : argon2dWasm;
  const out = await fn({
    password,
    salt,
    memorySize: memoryKiB,
    iterations,
    parallelism,
    hashLength: length,
    outputType: 'binary',
  });
  return new Uint8Array(out);
}

export async function pbkdf2Sha256(password: Bytes, salt: Bytes, iterations: number) {
  const base = await subtle().importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  const params: Pbkdf2Params = { name: 'PBKDF2', hash: 'SHA-256', salt, iterations };
  return new Uint8Array(await subtle().deriveBits(params, base, 256));
}

export const sha256 = async (data: Bytes): Promise<Bytes> =>
  new Uint8Array(await subtle().digest('SHA-256', data));

export async function hmacSha256(key: Bytes, data: Bytes): Promise<Bytes> {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle().sign('HMAC', k, data));
}

/** Constant-time HMAC-SHA256 check (WebCrypto's verify). */
export async function hmacSha256Verify(key: Bytes, mac: Bytes, data: Bytes): Promise<boolean> {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  return subtle().verify('HMAC', k, mac, data);
}

/** HKDF-Expand (RFC 5869 §2.3) alone, for one 32-byte block: HMAC(prk, info | 0x01). */
export function hkdfExpand32(prk: Bytes, info: string): Promise<Bytes> {
  const msg = new Uint8Array([...encodeUtf8(info), 1]);
  return hmacSha256(prk, msg);
}

export async function aesCbcEncrypt(key: Bytes, iv: Bytes, data: Bytes): Promise<Bytes> {
  const k = await subtle().importKey('raw', key, 'AES-CBC', false, ['encrypt']);
  return new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, k, data));
}

export async function aesCbcDecrypt(key: Bytes, iv: Bytes, data: Bytes): Promise<Bytes> {
  const k = await subtle().importKey('raw', key, 'AES-CBC', false, ['decrypt']);
  return new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv }, k, data));
}

/** AES-256-GCM, 128-bit tag appended; `aad` authenticated, not encrypted. */
export async function aesGcmEncrypt(key: Bytes, iv: Bytes, data: Bytes, aad: Bytes) {
  const k = await subtle().importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  const params: AesGcmParams = { name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 };
  return new Uint8Array(await subtle().encrypt(params, k, data));
}

/** AES-256-GCM decryption; rejects on a wrong key or any change to the data or `aad`. */
export async function aesGcmDecrypt(key: Bytes, iv: Bytes, sealed: Bytes, aad: Bytes) {
  const k = await subtle().importKey('raw', key, 'AES-GCM', false, ['decrypt']);
  const params: AesGcmParams = { name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 };
  return new Uint8Array(await subtle().decrypt(params, k, sealed));
}
