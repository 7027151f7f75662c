// The filesystem BlobStore, the embedded default: blobs live under `${root}/ab/cd/<key>`, where
// the key is 128 random bits in hex that this module generates. A blob is written to a temp file
// in `${root}/.tmp`, fsync'd, then renamed into place (and the directory fsync'd), so a crash
// never leaves a half-written blob under a key. Every key is checked against KEY_PATTERN before a
// path is built from it, so no input can reach outside `root` (path traversal is impossible by
// construction: a path is only ever `root` + hex).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  BlobNotFoundError,
  isBlobKey,
  randomBlobKey,
  type BlobKey,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from './blob-store.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../db/file-modes.ts';

/** Read size per pull: one vf1 chunk's worth, so memory per download stays flat. */
const READ_CHUNK = 256 * 1024;

const isErrno = (err: unknown, code: string): boolean =>
  err instanceof Error && (err as NodeJS.ErrnoException).code === code;

export interface FsBlobStore extends BlobStore {
  readonly root: string;
}

export function createFsBlobStore(root: string): FsBlobStore {
  const absRoot = path.resolve(root);
  const tmpDir = path.join(absRoot, '.tmp');

  const pathOf = (key: BlobKey): string => {
    if (!isBlobKey(key)) throw new BlobNotFoundError();
    return path.join(absRoot, key.slice(0, 2), key.slice(2, 4), key);
  };

  async function fsyncDir(dir: string): Promise<void> {
    // Makes the rename itself durable. Some filesystems refuse fsync on a directory: not fatal.
    const handle = await fsp.open(dir, 'r').catch(() => null);
    await handle?.sync().catch(() => undefined);
    await handle?.close();
  }

  const newKey = randomBlobKey;

  /** Moves a complete, fsync'd file to `key`. */
  async function commit(source: string, size: number, key: BlobKey): Promise<StoredBlob> {
    const dest = pathOf(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true, mode: DATA_DIR_MODE });
    await fsp.rename(source, dest);
    await fsyncDir(path.dirname(dest));
    return { key, size };
  }

  async function put(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    key: BlobKey = newKey(),
  ): Promise<StoredBlob> {
    await fsp.mkdir(tmpDir, { recursive: true, mode: DATA_DIR_MODE });
    const tmp = path.join(tmpDir, `${randomBytes(16).toString('hex')}.part`);
    const handle = await fsp.open(tmp, 'wx', DATA_FILE_MODE);
    let size = 0;
    try {
      for await (const chunk of source) {
        let written = 0;
        while (written < chunk.byteLength) {
          const res = await handle.write(chunk, written, chunk.byteLength - written);
          written += res.bytesWritten;
        }
        size += chunk.byteLength;
      }
      await handle.sync();
      await handle.close();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    try {
      return await commit(tmp, size, key);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async function adopt(filePath: string, key: BlobKey = newKey()): Promise<StoredBlob> {
    pathOf(key); // a key that is not one of ours is refused before anything moves
    const handle = await fsp.open(filePath, 'r+');
    let size: number;
    try {
      // A file made elsewhere (the tus store) may carry a wider mode: a blob is owner-only.
      await handle.chmod(DATA_FILE_MODE);
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    try {
      return await commit(filePath, size, key);
    } catch (err) {
      if (!isErrno(err, 'EXDEV')) throw err;
      // Another filesystem: copy through a temp file, then drop the original.
      const stored = await put(fs.createReadStream(filePath), key);
      await fsp.rm(filePath, { force: true });
      return stored;
    }
  }

  async function get(key: BlobKey, range?: ByteRange): Promise<ReadableStream<Uint8Array>> {
    let handle: FileHandle;
    try {
      handle = await fsp.open(pathOf(key), 'r');
    } catch (err) {
      if (err instanceof BlobNotFoundError || isErrno(err, 'ENOENT')) throw new BlobNotFoundError();
      throw err;
    }
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    };
    try {
      const { size } = await handle.stat();
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      if (start < 0 || start > end + 1 || end >= size) throw new RangeError('Range outside blob');
      let position = start;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            if (position > end) {
              await close();
              controller.close();
              return;
            }
            const length = Math.min(READ_CHUNK, end - position + 1);
            const buffer = Buffer.allocUnsafe(length);
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            if (bytesRead === 0) throw new Error('Blob shorter than its recorded size');
            position += bytesRead;
            controller.enqueue(buffer.subarray(0, bytesRead));
          } catch (err) {
            await close().catch(() => undefined);
            controller.error(err);
          }
        },
        cancel: close,
      });
    } catch (err) {
      await close();
      throw err;
    }
  }

  async function stat(key: BlobKey): Promise<{ size: number } | null> {
    if (!isBlobKey(key)) return null;
    try {
      const s = await fsp.stat(pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw err;
    }
  }

  async function remove(key: BlobKey): Promise<void> {
    if (!isBlobKey(key)) return;
    await fsp.rm(pathOf(key), { force: true });
  }

  /** Walks `${root}/ab/cd/<key>`: only names of our form, so temp files and strays are skipped. */
  async function* list(): AsyncGenerator<StoredBlob> {
    const hex2 = /^[0-9a-f]{2}$/;
    const dirsIn = async (dir: string) =>
      (await fsp.readdir(dir, { withFileTypes: true }).catch(() => []))
        .filter((e) => e.isDirectory() && hex2.test(e.name))
        .map((e) => e.name)
        .sort();
    for (const a of await dirsIn(absRoot)) {
      for (const b of await dirsIn(path.join(absRoot, a))) {
        const dir = path.join(absRoot, a, b);
        const names = await fsp.readdir(dir).catch(() => [] as string[]);
        for (const name of names.sort()) {
          if (!isBlobKey(name) || !name.startsWith(a + b)) continue;
          const s = await fsp.stat(path.join(dir, name)).catch(() => null);
          if (s?.isFile()) yield { key: name, size: s.size };
        }
      }
    }
  }

  async function removeStaleTemp(before: Date): Promise<number> {
    const names = await fsp.readdir(tmpDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(tmpDir, name);
      const s = await fsp.stat(file).catch(() => null);
      if (s && s.mtime < before) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  return {
    root: absRoot,
    put: (source) => put(source), // a key of the caller's choosing only through adopt()
    newKey,
    adopt,
    get,
    stat,
    delete: remove,
    list,
    restore: async (key, source) => {
      pathOf(key); // refused before anything is written
      return put(source, key);
    },
    removeStaleTemp,
  };
}
