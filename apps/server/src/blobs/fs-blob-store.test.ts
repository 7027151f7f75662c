import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobKey } from './blob-store.ts';
import { createFsBlobStore, type FsBlobStore } from './fs-blob-store.ts';

let dir: string;
let store: FsBlobStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-blobs-'));
  store = createFsBlobStore(path.join(dir, 'blobs'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function* chunks(data: Buffer, size = 100_000) {
  for (let i = 0; i < data.length; i += size) {
    await Promise.resolve();
    yield data.subarray(i, i + size);
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).flatMap((e) => {
    return e.isFile() ? [path.join(e.parentPath, e.name)] : [];
  });
}

describe('FsBlobStore', () => {
  it('stores a stream under a random hex key in fan-out directories and reads it back', async () => {
    const data = randomBytes(700_000);
    const a = await store.put(chunks(data));
    const b = await store.put(chunks(data));
    expect(a.key).toMatch(/^[0-9a-f]{32}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.size).toBe(data.length);
    expect(await store.stat(a.key)).toEqual({ size: data.length });
    expect(Buffer.compare(await readAll(await store.get(a.key)), data)).toBe(0);
    const onDisk = path.join(store.root, a.key.slice(0, 2), a.key.slice(2, 4), a.key);
    expect(fs.readFileSync(onDisk).equals(data)).toBe(true);
    expect(filesUnder(path.join(store.root, '.tmp'))).toEqual([]);
  });

  it('reads exact byte ranges, across its read-chunk boundaries too', async () => {
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
      expect(got.equals(data.subarray(start, end + 1))).toBe(true);
    }
  });

  it('refuses a range outside the blob', async () => {
    const { key } = await store.put(chunks(randomBytes(10)));
    await expect(store.get(key, { start: 5, end: 10 })).rejects.toBeInstanceOf(RangeError);
  });

  it('deletes idempotently; a deleted blob is not found', async () => {
    const { key } = await store.put(chunks(randomBytes(1000)));
    await store.delete(key);
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('never builds a path from a key it did not generate (no traversal)', async () => {
    const outside = path.join(dir, 'secret.txt');
    fs.writeFileSync(outside, 'keep me');
    for (const bad of ['../secret.txt', '../../secret.txt', '/etc/passwd', 'ABC', '']) {
      const key = bad as BlobKey;
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.stat(key)).toBeNull();
      await store.delete(key);
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
  });

  it('leaves neither a blob nor a temp file when the source fails midway', async () => {
    async function* failing() {
      yield randomBytes(1000);
      await Promise.resolve();
      throw new Error('connection dropped');
    }
    await expect(store.put(failing())).rejects.toThrow('connection dropped');
    expect(filesUnder(store.root)).toEqual([]);
  });

  it('adopts a local file by moving it, content unchanged', async () => {
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

    // A key that is not one of ours moves nothing.
    fs.writeFileSync(source, data);
    await expect(store.adopt(source, '../../outside' as BlobKey)).rejects.toThrow(
      BlobNotFoundError,
    );
    expect(fs.existsSync(source)).toBe(true);
  });

  it('stops reading when the consumer cancels, so the blob can be deleted', async () => {
    const { key } = await store.put(chunks(randomBytes(2_000_000)));
    const reader = (await store.get(key)).getReader();
    await reader.read();
    await reader.cancel();
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
  });

  it('removes stale temp files only', async () => {
    const tmp = path.join(store.root, '.tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'old.part'), 'x');
    fs.utimesSync(path.join(tmp, 'old.part'), new Date(0), new Date(0));
    fs.writeFileSync(path.join(tmp, 'new.part'), 'x');
    expect(await store.removeStaleTemp(new Date(Date.now() - 60_000))).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['new.part']);
  });
});
