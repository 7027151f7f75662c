// File content: round trips, ranges, and every tampering the design names (vault-format.md §2,
// §5). Each tampering must fail with DECRYPT_FAILED and release nothing unauthenticated: only
// whole chunks before the damaged one may have been handed on, and they are the true plaintext.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { concat, toHex } from './bytes.ts';
import { CHUNK_BYTES as C, SEALED_CHUNK_BYTES as S, ciphertextSize, planRange } from './chunk.ts';
import { CryptoError } from './errors.ts';
import { HEADER_BYTES as H } from './header.ts';
import type { FileId, SessionId, VaultId } from './ids.ts';
import {
  byteStreamOf,
  diff,
  FAST_KDF,
  localClient,
  pattern,
  readAll,
  readUntilError,
  streamOf,
  uuid,
} from './testkit.ts';

const { client, service } = localClient();
let session: SessionId;

interface Sealed {
  fileId: FileId;
  plain: Uint8Array;
  ct: Uint8Array;
  wrappedKey: string;
}

async function seal(size: number, seed = size + 1, piece = 100_000): Promise<Sealed> {
  const fileId = uuid<FileId>();
  const plain = pattern(size, seed);
  const enc = await client.encryptFileStream(session, fileId, streamOf(plain, piece));
  const ct = await readAll(enc.ciphertext);
  expect(await enc.done).toEqual({ ciphertextSize: ct.length, plaintextSize: size });
  return { fileId, plain, ct, wrappedKey: enc.wrappedKey };
}

const open = (f: Sealed, ct: Uint8Array = f.ct, wrappedKey = f.wrappedKey, fileId = f.fileId) =>
  readUntilError(client.decryptFileStream(session, fileId, wrappedKey, streamOf(ct, 70_000)));

/** Fails with DECRYPT_FAILED having released at most the chunks before `firstBad`, untouched. */
async function expectRejected(
  f: Sealed,
  ct: Uint8Array,
  firstBad: number,
  wrappedKey = f.wrappedKey,
) {
  const { bytes, error } = await open(f, ct, wrappedKey);
  expect(error).toBeInstanceOf(CryptoError);
  expect((error as CryptoError).code).toBe('DECRYPT_FAILED');
  expect(bytes.length).toBeLessThanOrEqual(Math.max(0, firstBad) * C);
  expect(bytes.length % C).toBe(0);
  expect(diff(bytes, f.plain.subarray(0, bytes.length))).toEqual([0, -1]);
}

const chunkAt = (ct: Uint8Array, i: number) => ct.subarray(H + i * S, H + (i + 1) * S);

let three: Sealed; // three chunks, the last one short
beforeAll(async () => {
  ({ session } = await client.createVault(uuid(), 'pw', FAST_KDF));
  three = await seal(2 * C + 1000);
});

describe('round trip', () => {
  for (const size of [0, 1, C - 1, C, C + 1, 3 * C, 3 * C + 17]) {
    it(`restores ${size} bytes, with 72 + P + 16 * max(1, ceil(P / 2^18)) bytes of ciphertext`, async () => {
      const f = await seal(size);
      expect(f.ct.length).toBe(ciphertextSize(size));
      const { bytes, error } = await open(f);
      expect(error).toBeNull();
      expect(diff(bytes, f.plain)).toEqual([0, -1]);
    });
  }

  it('restores any size however the input is split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(2 * C + 10),
        fc.integer({ min: 1, max: 3 * C }),
        async (size, piece) => {
          const f = await seal(size, size + 7, piece);
          expect(diff((await open(f)).bytes, f.plain)).toEqual([0, -1]);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('never uses the same header or wrapped key twice', async () => {
    const a = await seal(10, 1);
    const b = await seal(10, 1);
    expect(toHex(a.ct.subarray(0, H))).not.toBe(toHex(b.ct.subarray(0, H)));
    expect(a.wrappedKey).not.toBe(b.wrappedKey);
  });
});

describe('tampering', () => {
  it('rejects any single bit flipped anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(three.ct.length * 8 - 1), async (bit) => {
        const ct = three.ct.slice();
        ct[bit >> 3]! ^= 1 << (bit & 7);
        const byte = bit >> 3;
        await expectRejected(three, ct, byte < H ? 0 : Math.floor((byte - H) / S));
      }),
      { numRuns: 100 },
    );
  });

  it('rejects truncation at and between chunk boundaries', async () => {
    const cuts = [0, 10, H, H + 16, H + S - 1, H + S, H + S + 1, H + 2 * S, three.ct.length - 1];
    for (const cut of cuts) {
      await expectRejected(three, three.ct.subarray(0, cut), Math.floor(Math.max(0, cut - H) / S));
    }
    await fc.assert(
      fc.asyncProperty(fc.nat(three.ct.length - 1), async (cut) => {
        await expectRejected(
          three,
          three.ct.subarray(0, cut),
          Math.floor(Math.max(0, cut - H) / S),
        );
      }),
      { numRuns: 10 },
    );
  });

  it('rejects a whole final chunk dropped from a file of full chunks', async () => {
    const f = await seal(2 * C);
    await expectRejected(f, f.ct.subarray(0, H + S), 1);
  });

  it('rejects extension after the final chunk', async () => {
    const full = await seal(2 * C);
    await expectRejected(full, concat(full.ct, Uint8Array.of(0)), 1);
    await expectRejected(full, concat(full.ct, chunkAt(full.ct, 0)), 1);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: S + 20 }), async (tail) => {
        await expectRejected(three, concat(three.ct, tail), 2);
      }),
      { numRuns: 6 },
    );
  });

  it('rejects reordered and duplicated chunks', async () => {
    const [h, c0, c1, c2] = [
      three.ct.subarray(0, H),
      chunkAt(three.ct, 0),
      chunkAt(three.ct, 1),
      three.ct.subarray(H + 2 * S),
    ];
    await expectRejected(three, concat(h, c1, c0, c2), 0);
    await expectRejected(three, concat(h, c0, c0, c1, c2), 1);
    await expectRejected(three, concat(h, c0, c1, c1, c2), 2);
    await expectRejected(three, concat(h, c0, c2), 1);
  });

  it('rejects a chunk from another file', async () => {
    const other = await seal(2 * C + 1000, 99);
    const ct = three.ct.slice();
    ct.set(chunkAt(other.ct, 1), H + S);
    await expectRejected(three, ct, 1);
  });

  it('rejects a header, a wrapped key or a file id from another file', async () => {
    const other = await seal(2 * C + 1000, 98);
    const swapped = three.ct.slice();
    swapped.set(other.ct.subarray(0, H));
    await expectRejected(three, swapped, 0);
    await expectRejected(three, three.ct, 0, other.wrappedKey);
    const { bytes, error } = await open(three, three.ct, three.wrappedKey, other.fileId);
    expect(bytes.length).toBe(0);
    expect(error).toMatchObject({ code: 'DECRYPT_FAILED' });
  });
});

describe('ranges', () => {
  it('decrypts any range from only the chunks that cover it', async () => {
    const header = three.ct.subarray(0, H);
    await fc.assert(
      fc.asyncProperty(fc.nat(three.plain.length), fc.nat(three.plain.length), async (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const plan = planRange(three.ct.length, start, end);
        expect(plan.chunkCount).toBe(
          start === end ? 0 : Math.floor((end - 1) / C) - Math.floor(start / C) + 1,
        );
        const slice = three.ct.slice(plan.fetchStart, plan.fetchEnd);
        const out = client.decryptRange(
          session,
          three.fileId,
          three.wrappedKey,
          header,
          plan,
          streamOf(slice),
        );
        expect(diff(await readAll(out), three.plain.subarray(start, end))).toEqual([0, -1]);
      }),
      { numRuns: 20 },
    );
  });

  it('rejects a slice from the wrong place, a short slice and a lying size', async () => {
    const header = three.ct.subarray(0, H);
    const plan = planRange(three.ct.length, C + 5, C + 10);
    const range = (slice: Uint8Array, p = plan) =>
      readUntilError(
        client.decryptRange(session, three.fileId, three.wrappedKey, header, p, streamOf(slice)),
      );
    expect((await range(chunkAt(three.ct, 0).slice())).error).toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    expect((await range(chunkAt(three.ct, 1).slice(0, S - 1))).error).toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // A server claiming the file ends after chunk 1: chunk 1 is then opened as final and fails.
    const lying = planRange(H + 2 * S, C + 5, C + 10);
    const res = await range(chunkAt(three.ct, 1).slice(), lying);
    expect(res.error).toMatchObject({ code: 'DECRYPT_FAILED' });
    expect(res.bytes.length).toBe(0);
  });
});

describe('sizes', () => {
  it('reports the exact ciphertext and plaintext sizes, and round-trips', async () => {
    for (const size of [0, 1, C, 3 * C + 17]) {
      const fileId = uuid<FileId>();
      const plain = pattern(size, size + 3);
      const enc = await client.encryptFileStream(session, fileId, streamOf(plain, 50_000));
      const ct = await readAll(enc.ciphertext);
      expect(await enc.done).toEqual({
        ciphertextSize: ciphertextSize(size),
        plaintextSize: size,
      });
      expect(ct.length).toBe(ciphertextSize(size));
      const back = await readAll(
        client.decryptFileStream(session, fileId, enc.wrappedKey, streamOf(ct, 80_000)),
      );
      expect(diff(back, plain)).toEqual([0, -1]);
    }
  });
});

describe('service ordering', () => {
  it('refuses chunks out of order, twice, or after the final chunk', async () => {
    const { job } = await service.beginEncrypt(session, uuid());
    await expect(service.sealChunk(job, 1, new Uint8Array(C), false)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await service.sealChunk(job, 0, new Uint8Array(C), false);
    await expect(service.sealChunk(job, 0, new Uint8Array(C), false)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await service.sealChunk(job, 1, new Uint8Array(10), true);
    await expect(service.sealChunk(job, 2, new Uint8Array(10), true)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('forgets a file job when its vault is locked', async () => {
    const vaultId = uuid<VaultId>();
    const { session: s } = await client.createVault(vaultId, 'pw', FAST_KDF);
    const { job } = await service.beginEncrypt(s, uuid());
    await client.lockVault(vaultId);
    const chunk = new Uint8Array(10);
    await expect(service.sealChunk(job, 0, chunk, true)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('cancels the plaintext source when the ciphertext stream is cancelled', async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(65536)),
      cancel: () => {
        cancelled = true;
      },
    });
    const enc = await client.encryptFileStream(session, uuid(), endless);
    const reader = enc.ciphertext.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(cancelled).toBe(true);
    await expect(enc.done).rejects.toBeInstanceOf(CryptoError);
  });
});

describe('byte streams (a File, a fetch body): read with a BYOB reader', () => {
  it('round-trips at chunk edges, reading straight into the chunk buffers', async () => {
    for (const size of [0, 1, C - 1, C, C + 1, 3 * C + 5]) {
      const fileId = uuid<FileId>();
      const plain = pattern(size, size + 7);
      const enc = await client.encryptFileStream(session, fileId, byteStreamOf(plain, 70_000));
      const ct = await readAll(enc.ciphertext);
      expect((await enc.done).ciphertextSize).toBe(ciphertextSize(size));
      const back = await readAll(
        client.decryptFileStream(session, fileId, enc.wrappedKey, byteStreamOf(ct, 90_000)),
      );
      expect(diff(back, plain)).toEqual([0, -1]);
    }
  });

  it('refuses a truncated byte stream', async () => {
    const f = await seal(2 * C + 10);
    const { error } = await readUntilError(
      client.decryptFileStream(
        session,
        f.fileId,
        f.wrappedKey,
        byteStreamOf(f.ct.subarray(0, H + S + 3)),
      ),
    );
    expect((error as CryptoError).code).toBe('DECRYPT_FAILED');
  });
});
