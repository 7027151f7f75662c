// The crypto benchmark workload, shared by the Node run and the Chromium page: the vf1 stream API
// against raw WebCrypto AES-256-GCM with the same 256 KiB chunks. Web APIs only.
import {
  CHUNK_BYTES,
  CONTENT_HASH_BLOCK_BYTES,
  blockDigest,
  contentHashOfDigests,
  type CryptoClient,
  type SessionId,
  asFileId,
  asVaultId,
} from '../../packages/crypto/src/index.ts';

export const MB = 1e6;

/** A fresh vault's session for the stream figures (a light KDF: unlock time is measured apart). */
export async function benchSession(client: CryptoClient): Promise<SessionId> {
  const kdf = { alg: 'argon2id', m: 19 * 1024, t: 2, p: 1 } as const;
  return (await client.createVault(asVaultId(crypto.randomUUID()), 'bench', kdf)).session;
}
const PIECE = 64 * 1024; // what File.stream() hands out in Chromium

/**
 * `total` bytes of a fixed pattern as a byte stream, like File.stream(): a BYOB reader (the vf1
 * ByteReader) gets its buffer filled in place, one copy per read, as a file read would. Other
 * readers get 64 KiB pieces (what File.stream() hands a default reader in Chromium).
 */
export function source(total: number): ReadableStream<Uint8Array> {
  const pattern = new Uint8Array(CHUNK_BYTES).map((_, i) => (i * 31) & 0xff);
  let left = total;
  return new ReadableStream({
    type: 'bytes',
    pull(c) {
      const req = c.byobRequest;
      if (left <= 0) {
        c.close();
        req?.respond(0);
        return;
      }
      if (req?.view) {
        const view = new Uint8Array(req.view.buffer, req.view.byteOffset, req.view.byteLength);
        const n = Math.min(view.length, left, pattern.length);
        view.set(pattern.subarray(0, n));
        left -= n;
        req.respond(n);
      } else {
        const n = Math.min(PIECE, left);
        c.enqueue(pattern.slice(0, n));
        left -= n;
      }
    },
  });
}

/** A byte stream over `parts` (read like a file from the page cache: one copy per read). */
export function memorySource(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  let at = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(c) {
      const req = c.byobRequest;
      const view = req?.view
        ? new Uint8Array(req.view.buffer, req.view.byteOffset, req.view.byteLength)
        : new Uint8Array(PIECE);
      let n = 0;
      while (n < view.length && i < parts.length) {
        const part = parts[i]!;
        const take = Math.min(view.length - n, part.length - at);
        view.set(part.subarray(at, at + take), n);
        n += take;
        at += take;
        if (at === part.length) {
          i += 1;
          at = 0;
        }
      }
      if (n === 0) {
        c.close();
        req?.respond(0);
      } else if (req) req.respond(n);
      else c.enqueue(view.subarray(0, n));
    },
  });
}

/** Reads a stream to the end, keeping its chunks. */
export async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return parts;
    parts.push(r.value);
  }
}

/** Reads a stream to the end, keeping nothing; returns the byte count. */
export async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  const reader = stream.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return n;
    n += r.value.length;
  }
}

/**
 * Reads a ciphertext as the upload does: copied into 4 MiB pieces, each digested with WebCrypto
 * (the content hash's blocks), then the content hash; returns the byte count.
 */
export async function drainHashed(stream: ReadableStream<Uint8Array>): Promise<number> {
  const digests: Uint8Array<ArrayBuffer>[] = [];
  let piece = new Uint8Array(CONTENT_HASH_BLOCK_BYTES);
  let filled = 0;
  let n = 0;
  const reader = stream.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    let chunk = r.value;
    n += chunk.length;
    while (chunk.length > 0) {
      const take = Math.min(chunk.length, piece.length - filled);
      piece.set(chunk.subarray(0, take), filled);
      filled += take;
      chunk = chunk.subarray(take);
      if (filled === piece.length) {
        digests.push(await blockDigest(piece));
        piece = new Uint8Array(CONTENT_HASH_BLOCK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) digests.push(await blockDigest(piece.subarray(0, filled)));
  await contentHashOfDigests(digests);
  return n;
}

export interface StreamFigures {
  bytes: number;
  encryptMBps: number;
  encryptNoChecksumMBps: number;
  decryptMBps: number;
  /** Encryption piped straight into decryption, no storage: the whole round trip. */
  roundTripMBps: number;
  /** Decryption of a ciphertext held in memory (up to 256 MiB, decrypted again up to `bytes`). */
  decryptMemoryMBps: number;
}

export interface RawFigures {
  rawEncryptMBps: number;
  rawDecryptMBps: number;
  rawEncrypt4MBps: number;
  rawDecrypt4MBps: number;
}

export const rate = (bytes: number, ms: number) => Math.round((bytes / MB / (ms / 1000)) * 10) / 10;

/** Raw AES-256-GCM over `total` bytes in 256 KiB calls, `inFlight` at a time. */
export async function rawAesGcm(total: number, inFlight: number, decrypt: boolean) {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const chunk = new Uint8Array(CHUNK_BYTES).fill(7);
  const header = new Uint8Array(72);
  const iv = new Uint8Array(12);
  const params = { name: 'AES-GCM', iv, additionalData: header };
  const sealed = await crypto.subtle.encrypt(params, key, chunk);
  const calls = Math.ceil(total / CHUNK_BYTES);
  const start = performance.now();
  for (let i = 0; i < calls; i += inFlight) {
    const batch = [];
    for (let j = 0; j < inFlight && i + j < calls; j++) {
      batch.push(
        decrypt
          ? crypto.subtle.decrypt(params, key, sealed)
          : crypto.subtle.encrypt(params, key, chunk),
      );
    }
    await Promise.all(batch);
  }
  return rate(total, performance.now() - start);
}

/** Where the ciphertext goes between encryption and decryption (a file, OPFS). */
export interface CipherStore {
  write(stream: ReadableStream<Uint8Array>): Promise<void>;
  read(): Promise<ReadableStream<Uint8Array>>;
}

export async function streamFigures(
  client: CryptoClient,
  session: SessionId,
  total: number,
  store: CipherStore,
  phase: (name: string) => void = () => undefined,
): Promise<StreamFigures> {
  const fileId = asFileId(crypto.randomUUID());
  phase('encrypt');
  // Encrypt with the content hash (the upload path: 4 MiB pieces, each digested) and without,
  // discarding the output.
  let t = performance.now();
  const withSum = await client.encryptFileStream(
    session,
    asFileId(crypto.randomUUID()),
    source(total),
  );
  await drainHashed(withSum.ciphertext);
  await withSum.done;
  const encryptMBps = rate(total, performance.now() - t);
  phase('encrypt-no-checksum');
  t = performance.now();
  const noSum = await client.encryptFileStream(
    session,
    asFileId(crypto.randomUUID()),
    source(total),
  );
  await drain(noSum.ciphertext);
  const encryptNoChecksumMBps = rate(total, performance.now() - t);
  // Decrypt from storage (untimed write first).
  phase('store');
  const stored = await client.encryptFileStream(session, fileId, source(total));
  await store.write(stored.ciphertext);
  const input = await store.read();
  phase('decrypt');
  t = performance.now();
  const got = await drain(client.decryptFileStream(session, fileId, stored.wrappedKey, input));
  const decryptMBps = rate(total, performance.now() - t);
  if (got !== total) throw new Error(`decrypted ${got} bytes, expected ${total}`);
  phase('round-trip');
  t = performance.now();
  const piped = await client.encryptFileStream(session, fileId, source(total));
  const back = client.decryptFileStream(session, fileId, piped.wrappedKey, piped.ciphertext);
  if ((await drain(back)) !== total) throw new Error('round trip lost bytes');
  const roundTripMBps = rate(total, performance.now() - t);
  // Decryption alone, without storage: a ciphertext of up to 256 MiB kept in memory (so this
  // phase holds that much by design), decrypted as many times as it takes to reach `total`.
  phase('decrypt-memory');
  const held = Math.min(total, 256 * 1024 * 1024);
  const memId = asFileId(crypto.randomUUID());
  const inMemory = await client.encryptFileStream(session, memId, source(held));
  const parts = await collect(inMemory.ciphertext);
  t = performance.now();
  let opened = 0;
  while (opened < total) {
    const stream = client.decryptFileStream(
      session,
      memId,
      inMemory.wrappedKey,
      memorySource(parts),
    );
    const n = await drain(stream);
    if (n !== held) throw new Error(`decrypted ${n} bytes from memory, expected ${held}`);
    opened += n;
  }
  const decryptMemoryMBps = rate(opened, performance.now() - t);
  parts.length = 0;
  phase('raw');
  return {
    bytes: total,
    encryptMBps,
    encryptNoChecksumMBps,
    decryptMBps,
    roundTripMBps,
    decryptMemoryMBps,
  };
}

/** Raw WebCrypto over the same byte count: one call at a time, and four in flight. */
export async function rawFigures(total: number): Promise<RawFigures> {
  return {
    rawEncryptMBps: await rawAesGcm(total, 1, false),
    rawDecryptMBps: await rawAesGcm(total, 1, true),
    rawEncrypt4MBps: await rawAesGcm(total, 4, false),
    rawDecrypt4MBps: await rawAesGcm(total, 4, true),
  };
}

/** Best of each field over several rounds (the machine is shared; the best is the least disturbed). */
export function best<T extends object>(rounds: T[]): T {
  const out = { ...rounds[0] } as Record<string, unknown>;
  for (const r of rounds.slice(1)) {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v === 'number' && typeof out[k] === 'number') out[k] = Math.max(out[k], v);
    }
  }
  return out as T;
}
