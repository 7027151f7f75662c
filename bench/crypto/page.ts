// Bench page (bundled by run.mjs): the vf1 client on the page, the service in the crypto Worker
// (the production layout), ciphertext stored in OPFS between encryption and decryption.
import { createCryptoClient, workerTransport, asVaultId } from '../../packages/crypto/src/index.ts';
import { best, streamFigures, type CipherStore, type RawFigures } from './workload.ts';

/** OPFS (on disk: run.mjs uses a persistent profile). Each write replaces the file. */
async function opfsStore(): Promise<CipherStore> {
  const dir = await navigator.storage.getDirectory();
  const name = 'vf1-bench.bin';
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
function blobStore(): CipherStore {
  let blob = new Blob([]);
  return {
    write: async (stream) => {
      blob = await new Response(stream).blob();
    },
    read: () => Promise.resolve(blob.stream()),
  };
}

async function raw(total: number): Promise<RawFigures> {
  const worker = new Worker('./raw-worker.js', { type: 'module' });
  const figures = await new Promise<RawFigures>((resolve) => {
    worker.onmessage = (e: MessageEvent<RawFigures>) => resolve(e.data);
    worker.postMessage(total);
  });
  worker.terminate();
  return figures;
}

async function unlockTimes(client: ReturnType<typeof createCryptoClient>) {
  const vaultId = asVaultId(crypto.randomUUID());
  const { key } = await client.createVault(vaultId, 'correct horse battery staple');
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await client.unlockVault(vaultId, key, 'correct horse battery staple');
    times.push(Math.round(performance.now() - t));
  }
  return { kdf: key.slots[0]?.kdf, unlockMs: times };
}

/** Unlock time with the default Argon2id parameters, in its own Worker (freed afterwards). */
async function unlock() {
  const worker = new Worker('./worker.js', { type: 'module' });
  const result = await unlockTimes(createCryptoClient(workerTransport(worker)));
  worker.terminate();
  return result;
}

async function run(mib: number, rounds: number, storeKind: string) {
  const worker = new Worker('./worker.js', { type: 'module' });
  const client = createCryptoClient(workerTransport(worker));
  const { session } = await client.createVault(asVaultId(crypto.randomUUID()), 'bench', {
    alg: 'argon2id',
    m: 19456,
    t: 2,
    p: 1,
  });
  const total = mib * 1024 * 1024;
  const store = storeKind === 'blob' ? blobStore() : await opfsStore();
  const results = [];
  for (let i = 0; i < rounds; i++) {
    const phase = (name: string) =>
      (globalThis as { vf1Phase?: (n: string) => void }).vf1Phase?.(name);
    results.push({
      ...(await streamFigures(client, session, total, store, phase)),
      ...(await raw(total)),
    });
  }
  worker.terminate();
  return { env: navigator.userAgent, store: storeKind, ...best(results) };
}

Object.assign(globalThis, { vf1Bench: run, vf1Unlock: unlock });
