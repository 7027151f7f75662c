// Where the Chromium bench keeps the ciphertext between encryption and decryption; usable on the
// page and in a Worker alike.
import type { CipherStore } from './workload.ts';

/** OPFS (on disk: run.mjs uses a persistent profile). Each write replaces the file. */
export async function opfsStore(name = 'vf1-bench.bin'): Promise<CipherStore> {
  const dir = await navigator.storage.getDirectory();
  return {
    write: async (stream) => {
      await dir.removeEntry(name).catch(() => undefined);
      const handle = await dir.getFileHandle(name, { create: true });
      await stream.pipeTo(await handle.createWritable());
    },
    read: async () => (await (await dir.getFileHandle(name)).getFile()).stream(),
  };
}

/** In-memory Blob store, to tell storage cost from crypto cost (BENCH_STORE=blob). */
export function blobStore(): CipherStore {
  let blob = new Blob([]);
  return {
    write: async (stream) => {
      blob = await new Response(stream).blob();
    },
    read: () => Promise.resolve(blob.stream()),
  };
}

export const storeOf = (kind: string, name?: string) =>
  kind === 'blob' ? Promise.resolve(blobStore()) : opfsStore(name);
