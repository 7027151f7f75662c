// The one module that talks to WebCrypto and hash-wasm (docs/conventions.md, "Crypto"). Everything
// else composes these. Keys are non-extractable CryptoKeys wherever WebCrypto allows.
import { argon2id as argon2idWasm, createSHA256, type IHasher } from 'hash-wasm';

/** Bytes backed by a plain ArrayBuffer (what WebCrypto's BufferSource accepts). */
export type Bytes = Uint8Array<ArrayBuffer>;

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;
const HKDF_SHA256 = (salt: Bytes, info: Bytes): HkdfParams => ({
  name: 'HKDF',
  hash: 'SHA-256',
  salt,
  info,
});

/** Imports 32 secret bytes as a non-extractable HKDF base key. */
export const importHkdfKey = (raw: Bytes): Promise<CryptoKey> =>
  subtle().importKey('raw', raw, 'HKDF', false, ['deriveKey', 'deriveBits']);

/** Imports 32 bytes as a non-extractable AES-256-GCM key (a slot's KEK; known-answer tests). */
export const importAesKey = (raw: Bytes): Promise<CryptoKey> =>
  subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);

/** HKDF-SHA256 (RFC 5869) to a non-extractable AES-256-GCM key. */
export const deriveAesKey = (base: CryptoKey, salt: Bytes, info: Bytes): Promise<CryptoKey> =>
  subtle().deriveKey(HKDF_SHA256(salt, info), base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);

/** HKDF-SHA256 to a non-extractable HMAC-SHA256 key with a 32-byte key. */
export const deriveHmacKey = (base: CryptoKey, salt: Bytes, info: Bytes): Promise<CryptoKey> =>
  subtle().deriveKey(
    HKDF_SHA256(salt, info),
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  );

/** Raw HKDF-SHA256 output bytes (RFC 5869 known-answer tests). */
export async function hkdfBytes(ikm: Bytes, salt: Bytes, info: Bytes, length: number) {
  const base = await importHkdfKey(ikm);
  return new Uint8Array(await subtle().deriveBits(HKDF_SHA256(salt, info), base, length * 8));
}

/**
 * The raw AES-256 block function, AES_K(block) for one 16-byte block (as AES-CTR over 16 zero
 * bytes with the block as its counter). Test-only: the GCM forgery of testkit.ts needs H and
 * E_K(J0); nothing in the format uses it.
 */
export async function aesEncryptBlock(raw: Bytes, block: Bytes): Promise<Bytes> {
  const key = await subtle().importKey('raw', raw, 'AES-CTR', false, ['encrypt']);
  const params: AesCtrParams = { name: 'AES-CTR', counter: block, length: 64 };
  return new Uint8Array(await subtle().encrypt(params, key, new Uint8Array(16)));
}

/** AES-256-GCM encryption: ciphertext | tag16. */
export async function aesGcmEncrypt(key: CryptoKey, iv: Bytes, data: Bytes, aad: Bytes) {
  const params: AesGcmParams = { name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 };
  return new Uint8Array(await subtle().encrypt(params, key, data));
}

/** AES-256-GCM decryption of ciphertext | tag16; rejects (DOMException) on a bad tag. */
export async function aesGcmDecrypt(key: CryptoKey, iv: Bytes, sealed: Bytes, aad: Bytes) {
  const params: AesGcmParams = { name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 };
  return new Uint8Array(await subtle().decrypt(params, key, sealed));
}

export const hmacSign = async (key: CryptoKey, data: Bytes): Promise<Bytes> =>
  new Uint8Array(await subtle().sign('HMAC', key, data));

/** Constant-time HMAC check (WebCrypto's verify). */
export const hmacVerify = (key: CryptoKey, mac: Bytes, data: Bytes): Promise<boolean> =>
  subtle().verify('HMAC', key, mac, data);

/** PBKDF2-HMAC-SHA256 via WebCrypto. */
export async function pbkdf2Sha256(password: Bytes, salt: Bytes, iterations: number, length = 32) {
  const base = await subtle().importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  const params: Pbkdf2Params = { name: 'PBKDF2', hash: 'SHA-256', salt, iterations };
  return new Uint8Array(await subtle().deriveBits(params, base, length * 8));
}

/** Argon2id v1.3 via hash-wasm; `memoryKiB` in KiB. hash-wasm has no associated-data input. */
export async function argon2id(
  password: Bytes,
  salt: Bytes,
  memoryKiB: number,
  iterations: number,
  parallelism: number,
  length = 32,
): Promise<Bytes> {
  const out = await argon2idWasm({
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

/** SHA-256 of `data` through WebCrypto (native; used per 4 MiB block by the content hash). */
export const sha256 = async (data: Bytes): Promise<Bytes> =>
  new Uint8Array(await subtle().digest('SHA-256', data));

let smallHasher: Promise<IHasher> | null = null;

/**
 * SHA-256 of the concatenation of `parts`, for many small inputs (the manifest's entry digests, thousands per list): WebCrypto's
 * cost per call (50-80 µs) dwarfs hashing a few hundred bytes, so one hash-wasm hasher is reused,
 * synchronously between its first await and the answer (5,000 digests: 270 ms -> a few ms).
 */
export async function sha256Small(...parts: readonly Uint8Array[]): Promise<Bytes> {
  const hasher = await (smallHasher ??= createSHA256());
  hasher.init();
  for (const p of parts) hasher.update(p);
  return new Uint8Array(hasher.digest('binary'));
}

// P-256 ECDH, for passkey slots (vault-format.md, "Passkey slots"): a slot's key pair is what lets
// a rotation wrap the new VMK to the slot without the passkey. Keys cross this module as bytes:
// d is the 32-byte private scalar, q the 65-byte uncompressed public point 04 | x | y.
const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** A P-256 key pair as bytes: `d` the private scalar (32), `q` = 04 | x | y (65). */
export interface EcKeyPair {
  d: Bytes;
  q: Bytes;
}

const b64u = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const unb64u = (text: string): Bytes =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/** A fresh P-256 key pair (WebCrypto's generator), exported once as bytes for sealing. */
export async function ecdhGenerate(): Promise<EcKeyPair> {
  const pair = await subtle().generateKey(P256, true, ['deriveBits']);
  const jwk = await subtle().exportKey('jwk', pair.privateKey);
  const d = unb64u(jwk.d ?? '');
  const x = unb64u(jwk.x ?? '');
  const y = unb64u(jwk.y ?? '');
  if (d.length !== 32 || x.length !== 32 || y.length !== 32) throw new TypeError('P-256 export');
  const q = new Uint8Array(65);
  q[0] = 4;
  q.set(x, 1);
  q.set(y, 33);
  return { d, q };
}

/**
 * The ECDH shared secret (the x-coordinate, 32 bytes) of the key pair (d, q) with `peer` (65
 * bytes). The private key is imported non-extractable; WebCrypto refuses a point off the curve
 * and a d that does not match q.
 */
export async function ecdhShared(pair: EcKeyPair, peer: Bytes): Promise<Bytes> {
  if (pair.d.length !== 32 || pair.q.length !== 65 || peer.length !== 65) {
    throw new TypeError('P-256 length');
  }
  const jwk: JsonWebKey = {
    kty: 'EC',
    crv: 'P-256',
    d: b64u(pair.d),
    x: b64u(pair.q.subarray(1, 33)),
    y: b64u(pair.q.subarray(33)),
    ext: false,
  };
  const [priv, pub] = await Promise.all([
    subtle().importKey('jwk', jwk, P256, false, ['deriveBits']),
    subtle().importKey('raw', peer, P256, false, []),
  ]);
  return new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: pub }, priv, 256));
}

/** Imports 32 secret bytes as a non-extractable HMAC-SHA256 key (a passkey slot's auth key). */
export const importHmacKey = (raw: Bytes): Promise<CryptoKey> =>
  subtle().importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
