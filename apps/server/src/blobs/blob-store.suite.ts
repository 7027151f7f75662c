// The contract every BlobStore passes (blob-store.ts): fs-blob-store.test.ts and
// s3-blob-store.test.ts run it against their store, each with what only its backend can show
// (temp files on disk, multipart uploads in a bucket) given by the `Backend` it opens.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobKey, type BlobStore } from './blob-store.ts';

export interface Backend {
  store: BlobStore;
  /** What interrupted puts left in the backend (temp files, unfinished multipart uploads). */
  leftovers(): Promise<string[]>;
  /** Leaves one such thing behind, as a put cut off by a crash would. */
  makeLeftover(): Promise<void>;
  /** The store's upload part size: large puts and ranges are tested across its boundaries. */
  partSize: number;
  close(): Promise<void>;
}

export async function* chunks(data: Buffer, size = 100_000) {
  for (let i = 0; i < data.length; i += size) {
    await Promise.resolve();
    yield data.subarray(i, i + size);
  }
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

export async function listAll(store: BlobStore): Promise<{ key: string; size: number }[]> {
  const found: { key: string; size: number }[] = [];
  for await (const blob of store.list()) found.push(blob);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export function blobStoreSuite(name: string, open: () => Promise<Backend>): void {
  describe(`${name} (the BlobStore contract)`, () => {
    let backend: Backend;
    let store: BlobStore;
    let dir: string;
    beforeEach(async () => {
      backend = await open();
      store = backend.store;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-blob-src-'));
    });
    afterEach(async () => {
      await backend.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('stores a stream under a random hex key and reads it back', async () => {
      const data = randomBytes(700_000);
      const a = await store.put(chunks(data));
      const b = await store.put(chunks(data));
      expect(a.key).toMatch(/^[0-9a-f]{32}$/);
      expect(a.key).not.toBe(b.key);
      expect(a.size).toBe(data.length);
      expect(await store.stat(a.key)).toEqual({ size: data.length });
      expect((await readAll(await store.get(a.key))).equals(data)).toBe(true);
      expect(await backend.leftovers()).toEqual([]);
    });

    it('stores an empty blob', async () => {
      const { key, size } = await store.put([]);
      expect(size).toBe(0);
      expect(await store.stat(key)).toEqual({ size: 0 });
      expect((await readAll(await store.get(key))).length).toBe(0);
    });

    it('streams a put of 20 MiB and more in bounded parts, and reads ranges across part boundaries', async () => {
      const part = backend.partSize;
      const data = randomBytes(20 * 1024 * 1024 + 12_345);
      // Odd source chunks, so no part boundary falls on a chunk boundary.
      const { key, size } = await store.put(chunks(data, 1024 * 1024 + 7));
      expect(size).toBe(data.length);
      expect(await store.stat(key)).toEqual({ size: data.length });
      expect(sha(await readAll(await store.get(key)))).toBe(sha(data));
      for (const [start, end] of [
        [part - 10, part + 10],
        [part - 1, part],
        [2 * part - 3, 2 * part + 100_000],
        [1, data.length - 2],
        [data.length - 5, data.length - 1],
      ] as const) {
        const got = await readAll(await store.get(key, { start, end }));
        expect(got.equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
      expect(await backend.leftovers()).toEqual([]);
    });

    it('reads exact byte ranges', async () => {
      const data = randomBytes(3 * 262_160 + 500);
      const { key } = await store.put(chunks(data));
      for (const [start, end] of [
        [0, 0],
        [262_100, 262_300],
        [72 + 262_160 - 10, 72 + 262_160 + 10],
        [100, 600_000],
        [data.length - 1, data.length - 1],
        [0, data.length - 1],
      ] as const) {
        const got = await readAll(await store.get(key, { start, end }));
        expect(got.equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
    });

    it('refuses a range outside the blob', async () => {
      const { key } = await store.put(chunks(randomBytes(10)));
      for (const range of [
        { start: 5, end: 10 },
        { start: 10, end: 12 },
        { start: -1, end: 3 },
        { start: 4, end: 2 },
      ]) {
        await expect(store.get(key, range), JSON.stringify(range)).rejects.toBeInstanceOf(
          RangeError,
        );
      }
    });

    it('deletes idempotently; a deleted blob is not found', async () => {
      const { key } = await store.put(chunks(randomBytes(1000)));
      await store.delete(key);
      await store.delete(key);
      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('finds nothing under a key it could not have generated, and writes nothing there', async () => {
      const source = path.join(dir, 'upload.bin');
      fs.writeFileSync(source, 'ciphertext');
      for (const bad of ['../secret.txt', '../../secret.txt', '/etc/passwd', 'ABC', '']) {
        const key = bad as BlobKey;
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
        expect(await store.stat(key)).toBeNull();
        await store.delete(key);
        await expect(store.adopt(source, key)).rejects.toBeInstanceOf(BlobNotFoundError);
        await expect(store.restore(key, [Buffer.from('x')])).rejects.toBeInstanceOf(
          BlobNotFoundError,
        );
      }
      expect(fs.readFileSync(source, 'utf8')).toBe('ciphertext');
      expect(await listAll(store)).toEqual([]);
    });

    it('leaves neither a blob nor a leftover when the source fails midway', async () => {
      // Past one part, so a backend that uploads in parts has started one.
      const first = randomBytes(backend.partSize + 1000);
      async function* failing() {
        yield first;
        await Promise.resolve();
        throw new Error('connection dropped');
      }
      await expect(store.put(failing())).rejects.toThrow('connection dropped');
      expect(await listAll(store)).toEqual([]);
      expect(await backend.leftovers()).toEqual([]);
    });

    it('adopts a local file, content unchanged, and removes it', async () => {
      const data = randomBytes(300_000);
      const source = path.join(dir, 'upload.bin');
      fs.writeFileSync(source, data);
      const { key, size } = await store.adopt(source);
      expect(size).toBe(data.length);
      expect(fs.existsSync(source)).toBe(false);
      expect((await readAll(await store.get(key))).equals(data)).toBe(true);
    });

    it('adopts a file under a key from newKey (named elsewhere before the move)', async () => {
      const data = randomBytes(300_000);
      const source = path.join(dir, 'upload.bin');
      fs.writeFileSync(source, data);
      const key = store.newKey();
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(store.newKey()).not.toBe(key);
      expect(await store.stat(key)).toBeNull(); // nothing is there until the move
      expect(await store.adopt(source, key)).toEqual({ key, size: data.length });
      expect(fs.existsSync(source)).toBe(false);
      expect((await readAll(await store.get(key))).equals(data)).toBe(true);
    });

    it('stops reading when the consumer cancels, so the blob can be deleted', async () => {
      const { key } = await store.put(chunks(randomBytes(2_000_000)));
      const reader = (await store.get(key)).getReader();
      const first = await reader.read();
      expect(first.value?.byteLength).toBeGreaterThan(0);
      await reader.cancel();
      await store.delete(key);
      expect(await store.stat(key)).toBeNull();
    });

    it('lists every blob with its size, and nothing else', async () => {
      const put = [];
      for (const n of [0, 1, 5000, 70_000, 3]) put.push(await store.put([randomBytes(n)]));
      const [gone] = put.splice(2, 1);
      if (gone) await store.delete(gone.key);
      await backend.makeLeftover();
      expect(await listAll(store)).toEqual(
        put.map((b) => ({ key: b.key, size: b.size })).sort((a, b) => a.key.localeCompare(b.key)),
      );
    });

    it('restores a blob under a given key, replacing what was there', async () => {
      const key = store.newKey();
      const first = randomBytes(50_000);
      const second = randomBytes(70_000);
      expect(await store.restore(key, chunks(first))).toEqual({ key, size: first.length });
      expect((await readAll(await store.get(key))).equals(first)).toBe(true);
      expect(await store.restore(key, chunks(second))).toEqual({ key, size: second.length });
      expect((await readAll(await store.get(key))).equals(second)).toBe(true);
      expect(await listAll(store)).toEqual([{ key, size: second.length }]);
    });

    it('removes leftovers of interrupted puts only once they are older than the cutoff', async () => {
      await backend.makeLeftover();
      const { key } = await store.put([randomBytes(100)]);
      expect(await backend.leftovers()).toHaveLength(1);
      expect(await store.removeStaleTemp(new Date(Date.now() - 60_000))).toBe(0);
      expect(await backend.leftovers()).toHaveLength(1);
      expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(1);
      expect(await backend.leftovers()).toEqual([]);
      expect(await store.stat(key)).toEqual({ size: 100 }); // blobs are never leftovers
    });
  });
}
