import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobKey } from './blob-store.ts';
import { blobStoreSuite, chunks, readAll } from './blob-store.suite.ts';
import { createFsBlobStore, type FsBlobStore } from './fs-blob-store.ts';

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).flatMap((e) => {
    return e.isFile() ? [path.join(e.parentPath, e.name)] : [];
  });
}

blobStoreSuite('FsBlobStore', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sealvault-blobs-'));
  const store = createFsBlobStore(path.join(dir, 'blobs'));
  const tmp = path.join(store.root, '.tmp');
  return {
    store,
    partSize: 8 * 1024 * 1024, // no parts on disk: any size will do
    leftovers: () => Promise.resolve(filesUnder(tmp)),
    makeLeftover: async () => {
      await fsp.mkdir(tmp, { recursive: true });
      await fsp.writeFile(path.join(tmp, `${randomBytes(4).toString('hex')}.part`), 'x');
    },
    close: () => fsp.rm(dir, { recursive: true, force: true }),
  };
});

describe('FsBlobStore on disk', () => {
  let dir: string;
  let store: FsBlobStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-blobs-'));
    store = createFsBlobStore(path.join(dir, 'blobs'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps a blob in fan-out directories, written through a temp file', async () => {
    const data = randomBytes(700_000);
    const { key } = await store.put(chunks(data));
    const onDisk = path.join(store.root, key.slice(0, 2), key.slice(2, 4), key);
    expect(fs.readFileSync(onDisk).equals(data)).toBe(true);
    expect(filesUnder(path.join(store.root, '.tmp'))).toEqual([]);
  });

  it('never builds a path from a key it did not generate (no traversal)', async () => {
    const outside = path.join(dir, 'secret.txt');
    fs.writeFileSync(outside, 'keep me');
    for (const bad of ['../secret.txt', '../../secret.txt', '/etc/passwd', 'ABC', '']) {
      const key = bad as BlobKey;
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete(key);
      await expect(store.restore(key, [Buffer.from('x')])).rejects.toThrow(BlobNotFoundError);
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
    expect(filesUnder(store.root)).toEqual([]);
  });

  it('lists only files with a key name in their own fan-out directory', async () => {
    const { key } = await store.put([randomBytes(10)]);
    // A key-shaped file in the wrong directory, and a stray name beside the blob.
    const misplaced = `0000${randomBytes(14).toString('hex')}`;
    fs.mkdirSync(path.join(store.root, 'ff', 'ff'), { recursive: true });
    fs.writeFileSync(path.join(store.root, 'ff', 'ff', misplaced), 'x');
    fs.writeFileSync(path.join(store.root, key.slice(0, 2), key.slice(2, 4), 'notes.txt'), 'x');
    const listed = [];
    for await (const b of store.list()) listed.push(b);
    expect(listed).toEqual([{ key, size: 10 }]);
  });

  it('removes stale temp files only, by their modification time', async () => {
    const tmp = path.join(store.root, '.tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'old.part'), 'x');
    fs.utimesSync(path.join(tmp, 'old.part'), new Date(0), new Date(0));
    fs.writeFileSync(path.join(tmp, 'new.part'), 'x');
    expect(await store.removeStaleTemp(new Date(Date.now() - 60_000))).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['new.part']);
  });

  it('restores a blob under its key in the same place a put would use', async () => {
    const key = store.newKey();
    const data = randomBytes(1000);
    await store.restore(key, [data]);
    const onDisk = path.join(store.root, key.slice(0, 2), key.slice(2, 4), key);
    expect(fs.readFileSync(onDisk).equals(data)).toBe(true);
    expect((await readAll(await store.get(key))).equals(data)).toBe(true);
  });
});
