// Test-only helpers shared by the *.test.ts files (no Node-only API: they also run in Chromium),
// among them the slots a hostile server could build: a legacy slot, and a multi-key AES-GCM
// slot that opens under three passwords (the reason for ADR 0007's commit).
import {
  concat,
  fromHex,
  randomBytes,
  randomUuid,
  toBase64,
  toHex,
  utf8,
  uuidBytes,
  type RandomBytes,
} from './bytes.ts';
import { createCryptoClient, type CryptoClient } from './client.ts';
import type { VaultId } from './ids.ts';
import { derivePasswordKey, type KdfParams } from './kdf.ts';
import { deriveKek, deriveSlotKeys, LABELS } from './keys.ts';
import { aesEncryptBlock, aesGcmEncrypt, hkdfBytes, hmacSign, type Bytes } from './primitives.ts';
import { inProcessTransport } from './rpc.ts';
import { createCryptoService, type CryptoService } from './service.ts';
import { slotAad, type KeySlot } from './slot.ts';

/** The Argon2id floor: tests that are not about the defaults use it to stay fast. */
export const FAST_KDF: KdfParams = { alg: 'argon2id', m: 19 * 1024, t: 2, p: 1 };

/** Randomness that hands out the given hex values in order (for fixed vectors). */
export function scriptedRandom(values: string[]): RandomBytes {
  const queue = [...values];
  return (n) => {
    const next = queue.shift();
    if (next === undefined) throw new Error('scriptedRandom ran out of values');
    const b = fromHex(next);
    if (b.length !== n) throw new Error(`scriptedRandom: wanted ${n} bytes, next has ${b.length}`);
    return b;
  };
}

/** A deterministic pseudo-random byte pattern (fast; not for keys). */
export function pattern(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A stream of `bytes` cut into pieces of `piece` bytes. */
export function streamOf(bytes: Uint8Array, piece = 100_000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

/**
 * The same as a byte stream (`type: 'bytes'`, like a File's or a fetch body's): it answers BYOB
 * reads into the reader's own buffer, at most `piece` bytes at a time.
 */
export function byteStreamOf(bytes: Uint8Array, piece = 100_000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(c) {
      const req = c.byobRequest;
      if (at >= bytes.length) {
        c.close();
        req?.respond(0);
        return;
      }
      const n = Math.min(piece, bytes.length - at, req?.view?.byteLength ?? piece);
      if (req?.view) {
        new Uint8Array(req.view.buffer, req.view.byteOffset, n).set(bytes.subarray(at, at + n));
        req.respond(n);
      } else {
        c.enqueue(bytes.slice(at, at + n));
      }
      at += n;
    },
  });
}

export async function readAll(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  const { bytes, error } = await readUntilError(stream);
  if (error !== null) throw error as Error;
  return bytes;
}

/** Everything a stream yields before it ends or fails, and the failure if any. */
export async function readUntilError(stream: ReadableStream<Uint8Array>) {
  const parts: Uint8Array[] = [];
  let error: unknown = null;
  const reader = stream.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      parts.push(r.value.slice());
    }
  } catch (err) {
    error = err;
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, error };
}

/** An in-process client plus its service. */
export function localClient(random?: RandomBytes): {
  client: CryptoClient;
  service: CryptoService;
} {
  const service = createCryptoService(random ? { random } : {});
  return { client: createCryptoClient(inProcessTransport(service)), service };
}

/** Byte equality without the deep-equality cost on large arrays: `[length, firstDiff]`. */
export function diff(a: Uint8Array, b: Uint8Array): [number, number] {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return [a.length - b.length, i];
  return [a.length - b.length, -1];
}

/** A random UUID typed as whichever branded id the call site expects. */
export const uuid = <T extends string>(): T => crypto.randomUUID() as T;

/**
 * A legacy (pre-ADR 0007) password slot: no commit, the id as UTF-8 text in the AAD, exactly as
 * slots were sealed before. `id` may be any 1..64-character string.
 */
export async function legacySlot(
  vaultId: VaultId,
  password: string,
  kdf: KdfParams,
  vmk: Bytes,
  id: string = randomUuid(),
  random: RandomBytes = randomBytes,
): Promise<KeySlot> {
  const salt = random(16);
  const nonce = random(12);
  const pwKey = await derivePasswordKey(password, salt, kdf);
  const kek = await deriveKek(pwKey, vaultId);
  const aad = slotAad(vaultId, { id, kdf }, salt, false);
  const sealed = await aesGcmEncrypt(kek, nonce, vmk, aad);
  return {
    id,
    kind: 'password',
    kdf,
    salt: toBase64(salt),
    wrapped: toBase64(concat(nonce, sealed)),
  };
}

/** The commit a slot's owner (anyone who knows `password`) computes for `slot` (ADR 0007). */
export async function commitFor(vaultId: VaultId, slot: KeySlot, password: string) {
  const salt = Uint8Array.from(atob(slot.salt), (c) => c.charCodeAt(0));
  const wrapped = Uint8Array.from(atob(slot.wrapped), (c) => c.charCodeAt(0));
  const pwKey = await derivePasswordKey(password, salt, slot.kdf);
  const { commit } = await deriveSlotKeys(pwKey, vaultId);
  const aad = slotAad(vaultId, slot, salt, true);
  return toBase64(await hmacSign(commit, concat(aad, wrapped)));
}

// GF(2^128) as GCM defines it (NIST SP 800-38D §6.3): a block is a 128-bit big-endian integer
// whose most significant bit is the coefficient of x^0; R = 11100001 || 0^120.
const R = 0xe1n << 120n;
const ONE = 1n << 127n;
const big = (b: Uint8Array) => BigInt('0x' + (toHex(b) || '0'));
const block = (x: bigint) => fromHex(x.toString(16).padStart(32, '0'));

function gfMul(x: bigint, y: bigint): bigint {
  let z = 0n;
  let v = y;
  for (let i = 127n; i >= 0n; i--) {
    if ((x >> i) & 1n) z ^= v;
    v = v & 1n ? (v >> 1n) ^ R : v >> 1n;
  }
  return z;
}

/** x^(2^128 - 2) = x^-1 (x != 0). */
function gfInv(x: bigint): bigint {
  let r = ONE;
  for (let i = 127; i >= 0; i--) {
    r = gfMul(r, r);
    if (i > 0) r = gfMul(r, x); // the exponent is 127 ones, then a zero
  }
  return r;
}

/** GHASH_H over the AAD, `cBlocks` zero ciphertext blocks and the length block. */
function ghashZeroCiphertext(h: bigint, aad: Uint8Array, cBlocks: number): bigint {
  const padded = new Uint8Array(Math.ceil(aad.length / 16) * 16);
  padded.set(aad);
  const lengths = new Uint8Array(16);
  const view = new DataView(lengths.buffer);
  view.setBigUint64(0, BigInt(aad.length * 8));
  view.setBigUint64(8, BigInt(cBlocks * 128));
  let y = 0n;
  const absorb = (b: bigint) => {
    y = gfMul(y ^ b, h);
  };
  for (let i = 0; i < padded.length; i += 16) absorb(big(padded.subarray(i, i + 16)));
  for (let i = 0; i < cBlocks; i++) absorb(0n);
  absorb(big(lengths));
  return y;
}

/** Solves rows * x = rhs over GF(2^128) (Gaussian elimination; the rows must be independent). */
function gfSolve(rows: bigint[][], rhs: bigint[]): bigint[] {
  const n = rows.length;
  const m = rows.map((r, i) => [...r, rhs[i]!]);
  for (let col = 0; col < n; col++) {
    const pivot = m.findIndex((r, i) => i >= col && r[col] !== 0n);
    if (pivot < 0) throw new Error('singular system');
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const inv = gfInv(m[col]![col]!);
    m[col] = m[col]!.map((v) => gfMul(v, inv));
    for (let r = 0; r < n; r++) {
      const f = m[r]![col]!;
      if (r === col || f === 0n) continue;
      m[r] = m[r]!.map((v, j) => v ^ gfMul(f, m[col]![j]!));
    }
  }
  return m.map((r) => r[n]!);
}

/**
 * The Invisible Salamanders construction (Dodis et al., "Fast Message Franking", 2018; Len,
 * Grubbs and Ristenpart, "Partitioning Oracle Attacks", 2021) against a 60-byte slot: for three
 * passwords (three KEKs K_i, each with H_i = AES_Ki(0)), the tag equation of AES-GCM is
 * T = GHASH_Hi(A, C1, C2) + AES_Ki(J0), linear in the unknowns T, C1, C2:
 *
 *   T + C1 * H_i^3 + C2 * H_i^2 = GHASH_Hi(A, 0, 0) + AES_Ki(J0)      (i = 1, 2, 3)
 *
 * Solved over GF(2^128), the slot authenticates under all three KEKs (and decrypts to a
 * different "VMK" under each). `committed` writes the AAD of a committed slot (16-byte id) so
 * that a commit can be attached; the slot returned has no commit.
 */
export async function multiKeySlot(
  vaultId: VaultId,
  passwords: readonly [string, string, string],
  kdf: KdfParams,
  options: { committed?: boolean } = {},
): Promise<KeySlot> {
  const id = randomUuid();
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const aad = slotAad(vaultId, { id, kdf }, salt, options.committed ?? false);
  const counter = (n: number) => concat(nonce, Uint8Array.of(0, 0, 0, n));
  const rows: bigint[][] = [];
  const rhs: bigint[] = [];
  for (const password of passwords) {
    const pwKey = await derivePasswordKey(password, salt, kdf);
    const kek = await hkdfBytes(pwKey, uuidBytes(vaultId), utf8(LABELS.kek), 32);
    const h = big(await aesEncryptBlock(kek, new Uint8Array(16)));
    const ej0 = big(await aesEncryptBlock(kek, counter(1)));
    const h2 = gfMul(h, h);
    rows.push([ONE, gfMul(h2, h), h2]);
    rhs.push(ghashZeroCiphertext(h, aad, 2) ^ ej0);
  }
  const [t, c1, c2] = gfSolve(rows, rhs);
  const wrapped = concat(nonce, block(c1!), block(c2!), block(t!));
  return { id, kind: 'password', kdf, salt: toBase64(salt), wrapped: toBase64(wrapped) };
}
