// Test-only helpers shared by the *.test.ts files (no Node-only API: they also run in Chromium).
import { fromHex, type RandomBytes } from './bytes.ts';
import { createCryptoClient, type CryptoClient } from './client.ts';
import type { KdfParams } from './kdf.ts';
import { inProcessTransport } from './rpc.ts';
import { createCryptoService, type CryptoService } from './service.ts';

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
