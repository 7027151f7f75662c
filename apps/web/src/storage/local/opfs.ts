// The browser provider ('local', "This browser"): ciphertext in the origin private file system
// (OPFS) under vaults/<vaultId>/<blobId>. Writes stream through a dedicated Worker
// (opfs.worker.ts), piece by piece, so memory stays flat at any size; reads are any byte range
// of the stored File, read lazily by the browser. Data stays on this device only and is lost if
// the site's data is cleared: persistent storage is asked for once, and a blob that would not fit
// in the browser's quota is refused before a byte is written.
import { formatBytes } from '@sealvault/protocol';
import type { HashlessProvider } from '../hashing.ts';
import type { BlobInfo, Capabilities, PutOptions, Quota } from '../provider.ts';
import { StorageError } from '../provider.ts';
import { msg, i18n } from '../../i18n/i18n.ts';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether this browser has the origin private file system (its Workers then have synchronous
 * access handles: every browser that ships OPFS ships both).
 */
export const opfsAvailable = (): boolean =>
  typeof navigator !== 'undefined' &&
  typeof navigator.storage?.getDirectory === 'function' &&
  typeof Worker !== 'undefined' &&
  typeof FileSystemFileHandle !== 'undefined';

export const texts = {
  noSpace: (bytes: number) =>
    i18n.t(
      'This browser has no room for this file ({{size}}). Free some space or choose another storage provider.',
      { size: formatBytes(bytes) },
    ),
  notFound: msg('File data not found'),
  failed: msg('Failed to store the file in this browser.'),
};

function checkName(name: string): string {
  if (!SAFE_NAME.test(name) || name.endsWith('.part')) {
    throw new StorageError('failed', `Not a blob name: ${name}`);
  }
  return name;
}

const isNotFound = (err: unknown) =>
  err instanceof DOMException && (err.name === 'NotFoundError' || err.name === 'TypeMismatchError');

/** A request/response channel to the writer Worker. */
function writer() {
  const worker = new Worker(new URL('./opfs.worker.ts', import.meta.url), { type: 'module' });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  worker.addEventListener(
    'message',
    (e: MessageEvent<{ id: number; ok: boolean; value?: unknown; message?: string }>) => {
      const p = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (e.data.ok) p?.resolve(e.data.value);
      else p?.reject(new Error(e.data.message ?? 'OPFS write failed'));
    },
  );
  return {
    call(msg: Record<string, unknown>, transfer: Transferable[] = []): Promise<unknown> {
      const id = next++;
      const result = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ ...msg, id }, transfer);
      return result;
    },
    terminate: () => worker.terminate(),
  };
}

export function createLocalProvider(): HashlessProvider {
  const capabilities: Capabilities = {
    ranges: true,
    resumable: false,
    maxBlobBytes: null,
    deviceOnly: true,
  };
  let persistAsked = false;

  async function vaultDir(vaultId: string, create = false) {
    const root = await navigator.storage.getDirectory();
    const vaults = await root.getDirectoryHandle('vaults', { create });
    return vaults.getDirectoryHandle(checkName(vaultId), { create });
  }
  async function fileOf(vaultId: string, ref: string): Promise<File | null> {
    try {
      const dir = await vaultDir(vaultId);
      return await (await dir.getFileHandle(checkName(ref))).getFile();
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async function quota(): Promise<Quota> {
    const est = await navigator.storage.estimate();
    return { usedBytes: est.usage ?? null, totalBytes: est.quota ?? null };
  }

  return {
    type: 'local',
    capabilities,
    async prepare(vaultId) {
      // Asked once, never waited for: a browser may refuse (the data then stays until it needs
      // the space), and one that would ask the user must not hold the upload up meanwhile.
      if (!persistAsked) {
        persistAsked = true;
        void navigator.storage.persist?.().catch(() => false);
      }
      await vaultDir(vaultId, true);
    },

    async put(vaultId, blobId, length, source, options: PutOptions = {}) {
      checkName(vaultId);
      checkName(blobId);
      const { usedBytes, totalBytes } = await quota();
      if (usedBytes !== null && totalBytes !== null && usedBytes + length > totalBytes) {
        await source.cancel().catch(() => undefined);
        throw new StorageError('no_space', texts.noSpace(length));
      }
      const w = writer();
      const reader = source.getReader();
      const abort = () => void reader.cancel().catch(() => undefined);
      options.signal?.addEventListener('abort', abort, { once: true });
      let written = 0;
      try {
        await w.call({ op: 'open', vault: vaultId, name: blobId });
        for (;;) {
          options.signal?.throwIfAborted();
          const { done, value } = await reader.read();
          if (done) break;
          if (written + value.length > length) {
            throw new StorageError('failed', 'The blob is longer than declared');
          }
          // A copy the Worker owns (the stream may reuse its buffer).
          const bytes = value.slice();
          written = (await w.call({ op: 'write', bytes }, [bytes.buffer])) as number;
          options.onProgress?.(written);
        }
        options.signal?.throwIfAborted();
        if (written !== length) throw new StorageError('failed', 'The blob ended early');
        await w.call({ op: 'close' });
        return { ref: blobId, size: written };
      } catch (err) {
        await w.call({ op: 'abort' }).catch(() => undefined);
        await reader.cancel().catch(() => undefined);
        if (options.signal?.aborted) throw new StorageError('aborted', 'Cancelled', { cause: err });
        if (err instanceof StorageError) throw err;
        if (err instanceof Error && /quota/i.test(err.message)) {
          throw new StorageError('no_space', texts.noSpace(length), { cause: err });
        }
        throw new StorageError('failed', texts.failed, { cause: err });
      } finally {
        options.signal?.removeEventListener('abort', abort);
        w.terminate();
      }
    },

    async get(vaultId, ref, range) {
      const file = await fileOf(vaultId, ref);
      if (!file) throw new StorageError('not_found', texts.notFound);
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? file.size, file.size);
      if (start < 0 || start > end) throw new StorageError('failed', 'Bad range');
      return file.slice(start, end).stream();
    },

    async stat(vaultId, ref) {
      const file = await fileOf(vaultId, ref);
      return file ? { ref, size: file.size } : null;
    },

    async list(vaultId) {
      let dir: FileSystemDirectoryHandle;
      try {
        dir = await vaultDir(vaultId);
      } catch (err) {
        if (isNotFound(err)) return [];
        throw err;
      }
      const out: BlobInfo[] = [];
      const entries = (
        dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }
      ).entries();
      for await (const [name, handle] of entries) {
        if (handle.kind !== 'file' || name.endsWith('.part')) continue;
        out.push({ ref: name, size: (await (handle as FileSystemFileHandle).getFile()).size });
      }
      return out.sort((a, b) => a.ref.localeCompare(b.ref));
    },

    async delete(vaultId, ref) {
      try {
        await (await vaultDir(vaultId)).removeEntry(checkName(ref));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },

    async removeContainer(vaultId) {
      try {
        const root = await navigator.storage.getDirectory();
        const vaults = await root.getDirectoryHandle('vaults');
        await vaults.removeEntry(checkName(vaultId), { recursive: true });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },

    quota,
  };
}
