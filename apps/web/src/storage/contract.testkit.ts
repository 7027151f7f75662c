// The storage-provider contract: one set of tests that every StorageProvider must pass (the
// browser provider here, our server and the cloud providers with their emulators). A test file
// calls providerContract() with a factory; each test gets a fresh vault container.
import { describe, expect, it } from 'vitest';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';
import type { ContentHasher } from './hashing.ts';
import { StorageError, type PutOptions, type StorageProvider } from './provider.ts';

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The content hash ([Note: content hash]) with WebCrypto on this thread, for test providers. */
export const testHasher: ContentHasher = {
  digest: async (block) => ({ digest: await sha256(block), block }),
  async combine(digests) {
    const all = new Uint8Array(digests.length * 32);
    digests.forEach((d, i) => all.set(d, i * 32));
    return hex(await sha256(all));
  },
};

/** The content hash of `data`, written out block by block. */
async function contentHashOf(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digests: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at < data.length; at += CONTENT_HASH_BLOCK_BYTES)
    digests.push(await sha256(data.slice(at, at + CONTENT_HASH_BLOCK_BYTES)));
  return testHasher.combine(digests);
}

export interface ContractSubject {
  provider: StorageProvider;
  /** A fresh vault id whose container the test may fill; removed afterwards. */
  vaultId: string;
  /** The blob id to use for `label` (a provider may need, say, UUIDs); default: the label. */
  blobId?: (label: string) => string;
  /** The blob size to use for about `n` bytes (ours takes only vf1 lengths); default: n. */
  size?: (n: number) => number;
  /** Options every put needs (ours: the file record's opaque fields). */
  putOptions?: () => PutOptions;
}

const KiB = 1024;
const CHUNK = 256 * KiB + 16; // a sealed vf1 chunk

/** `size` bytes of a pattern that differs with `seed`. */
export function bytesOf(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A stream of `bytes` in pieces of `piece` bytes (odd sizes, as a real source gives). */
export function streamOf(bytes: Uint8Array, piece = 65_537): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const reader = stream.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export function providerContract(name: string, subject: () => Promise<ContractSubject>): void {
  const withVault = (test: (s: Required<ContractSubject>) => Promise<void>) => async () => {
    const s = await subject();
    const full: Required<ContractSubject> = {
      blobId: (label) => label,
      size: (n) => n,
      putOptions: () => ({}),
      ...s,
    };
    await s.provider.prepare(s.vaultId);
    try {
      await test(full);
    } finally {
      await s.provider.removeContainer(s.vaultId);
    }
  };
  const byRef = (a: { ref: string }, b: { ref: string }) => a.ref.localeCompare(b.ref);

  describe(`storage provider contract: ${name}`, () => {
    it(
      'round-trips blobs of 0 and 1 bytes, at a chunk boundary and of several MiB',
      withVault(async ({ provider, vaultId, blobId, size: sized, putOptions }) => {
        for (const [i, n] of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * 1024 * KiB + 3].entries()) {
          const size = sized(n);
          const data = bytesOf(size, i + 1);
          const sent: number[] = [];
          const info = await provider.put(vaultId, blobId(`blob-${i}`), size, streamOf(data), {
            ...putOptions(),
            onProgress: (b) => sent.push(b),
          });
          expect(info.size).toBe(size);
          // Every put answers the content hash of what it stored (hashing.ts).
          expect(info.contentHash).toBe(await contentHashOf(data));
          expect(same(await readAll(await provider.get(vaultId, info.ref)), data)).toBe(true);
          expect(await provider.stat(vaultId, info.ref)).toEqual({ ref: info.ref, size });
          if (size > 0) expect(sent.at(-1)).toBe(size);
        }
      }),
    );

    it(
      'reads any byte range, across chunk boundaries',
      withVault(async ({ provider, vaultId, blobId, size, putOptions }) => {
        const data = bytesOf(size(3 * CHUNK + 100), 7);
        const { ref } = await provider.put(
          vaultId,
          blobId('ranged'),
          data.length,
          streamOf(data),
          putOptions(),
        );
        const ranges: [number, number][] = [
          [0, 1],
          [CHUNK - 10, CHUNK + 10],
          [CHUNK, 2 * CHUNK],
          [5, 3 * CHUNK + 1],
          [data.length - 1, data.length],
          [data.length, data.length],
        ];
        for (const [start, end] of ranges) {
          const got = await readAll(await provider.get(vaultId, ref, { start, end }));
          expect(same(got, data.subarray(start, end))).toBe(true);
        }
      }),
    );

    it(
      'leaves nothing behind when a put is aborted or its source fails',
      withVault(async ({ provider, vaultId, blobId, size, putOptions }) => {
        const ctrl = new AbortController();
        const data = bytesOf(size(9 * 1024 * KiB), 3);
        const aborted = provider.put(vaultId, blobId('aborted'), data.length, streamOf(data), {
          ...putOptions(),
          signal: ctrl.signal,
          onProgress: (n) => {
            if (n > 1024 * KiB) ctrl.abort();
          },
        });
        await expect(aborted).rejects.toMatchObject({ name: 'StorageError', code: 'aborted' });
        const failing = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(bytesOf(1000));
            c.error(new Error('disk read failed'));
          },
        });
        await expect(
          provider.put(vaultId, blobId('failed'), size(5000), failing, putOptions()),
        ).rejects.toBeInstanceOf(StorageError);
        await expect(
          provider.put(vaultId, blobId('short'), size(10), streamOf(bytesOf(5)), putOptions()),
        ).rejects.toBeInstanceOf(StorageError);
        expect(await provider.stat(vaultId, blobId('aborted'))).toBeNull();
        expect(await provider.list(vaultId)).toEqual([]);
      }),
    );

    it(
      'lists the blobs of a vault, deletes one, and says clearly when one is missing',
      withVault(async ({ provider, vaultId, blobId, size, putOptions }) => {
        const [a, b] = [blobId('a'), blobId('b')];
        await provider.put(vaultId, a, size(3), streamOf(bytesOf(size(3))), putOptions());
        await provider.put(vaultId, b, size(4), streamOf(bytesOf(size(4))), putOptions());
        expect((await provider.list(vaultId)).sort(byRef)).toEqual(
          [
            { ref: a, size: size(3) },
            { ref: b, size: size(4) },
          ].sort(byRef),
        );
        await provider.delete(vaultId, a);
        await provider.delete(vaultId, a); // again: not an error
        expect(await provider.list(vaultId)).toEqual([{ ref: b, size: size(4) }]);
        expect(await provider.stat(vaultId, a)).toBeNull();
        const missing = await provider.get(vaultId, a).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(StorageError);
        expect(missing).toMatchObject({ code: 'not_found', message: 'File data not found' });
      }),
    );

    it('removes a vault container with everything in it', async () => {
      const s = await subject();
      const { provider, vaultId, blobId = (l: string) => l, size = (n: number) => n } = s;
      const extra = s.putOptions?.() ?? {};
      await provider.prepare(vaultId);
      await provider.prepare(vaultId); // again: nothing changes
      await provider.put(vaultId, blobId('x'), size(2), streamOf(bytesOf(size(2))), extra);
      await provider.removeContainer(vaultId);
      expect(await provider.list(vaultId)).toEqual([]);
      await provider.removeContainer(vaultId); // again: not an error
    });
  });
}
