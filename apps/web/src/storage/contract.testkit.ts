// The storage-provider contract: one set of tests that every StorageProvider must pass (the
// browser provider here, our server and the cloud providers with their emulators). A test file
// calls providerContract() with a factory; each test gets a fresh vault container.
import { describe, expect, it } from 'vitest';
import { StorageError, type StorageProvider } from './provider.ts';

export interface ContractSubject {
  provider: StorageProvider;
  /** A fresh vault id whose container the test may fill; removed afterwards. */
  vaultId: string;
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
  const withVault = (test: (s: ContractSubject) => Promise<void>) => async () => {
    const s = await subject();
    await s.provider.prepare(s.vaultId);
    try {
      await test(s);
    } finally {
      await s.provider.removeContainer(s.vaultId);
    }
  };

  describe(`storage provider contract: ${name}`, () => {
    it(
      'round-trips blobs of 0 and 1 bytes, at a chunk boundary and of several MiB',
      withVault(async ({ provider, vaultId }) => {
        for (const [i, size] of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * 1024 * KiB + 3].entries()) {
          const data = bytesOf(size, i + 1);
          const sent: number[] = [];
          const info = await provider.put(vaultId, `blob-${i}`, size, streamOf(data), {
            onProgress: (n) => sent.push(n),
          });
          expect(info.size).toBe(size);
          expect(same(await readAll(await provider.get(vaultId, info.ref)), data)).toBe(true);
          expect(await provider.stat(vaultId, info.ref)).toEqual({ ref: info.ref, size });
          if (size > 0) expect(sent.at(-1)).toBe(size);
        }
      }),
    );

    it(
      'reads any byte range, across chunk boundaries',
      withVault(async ({ provider, vaultId }) => {
        const data = bytesOf(3 * CHUNK + 100, 7);
        const { ref } = await provider.put(vaultId, 'ranged', data.length, streamOf(data));
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
      withVault(async ({ provider, vaultId }) => {
        const ctrl = new AbortController();
        const data = bytesOf(3 * 1024 * KiB, 3);
        const aborted = provider.put(vaultId, 'aborted', data.length, streamOf(data), {
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
        await expect(provider.put(vaultId, 'failed', 5000, failing)).rejects.toBeInstanceOf(
          StorageError,
        );
        await expect(
          provider.put(vaultId, 'short', 10, streamOf(bytesOf(5))),
        ).rejects.toBeInstanceOf(StorageError);
        expect(await provider.stat(vaultId, 'aborted')).toBeNull();
        expect(await provider.list(vaultId)).toEqual([]);
      }),
    );

    it(
      'lists the blobs of a vault, deletes one, and says clearly when one is missing',
      withVault(async ({ provider, vaultId }) => {
        await provider.put(vaultId, 'a', 3, streamOf(bytesOf(3)));
        await provider.put(vaultId, 'b', 4, streamOf(bytesOf(4)));
        expect(await provider.list(vaultId)).toEqual([
          { ref: 'a', size: 3 },
          { ref: 'b', size: 4 },
        ]);
        await provider.delete(vaultId, 'a');
        await provider.delete(vaultId, 'a'); // again: not an error
        expect(await provider.list(vaultId)).toEqual([{ ref: 'b', size: 4 }]);
        expect(await provider.stat(vaultId, 'a')).toBeNull();
        const missing = await provider.get(vaultId, 'a').catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(StorageError);
        expect(missing).toMatchObject({ code: 'not_found', message: 'File data not found' });
      }),
    );

    it('removes a vault container with everything in it', async () => {
      const { provider, vaultId } = await subject();
      await provider.prepare(vaultId);
      await provider.prepare(vaultId); // again: nothing changes
      await provider.put(vaultId, 'x', 2, streamOf(bytesOf(2)));
      await provider.removeContainer(vaultId);
      expect(await provider.list(vaultId)).toEqual([]);
      await provider.removeContainer(vaultId); // again: not an error
    });
  });
}
