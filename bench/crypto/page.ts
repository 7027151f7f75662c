// Bench page (bundled by run.mjs): the vf1 client on the page, the service in the crypto Worker
// (the production layout), ciphertext stored in OPFS between encryption and decryption; then the
// same workload with the client and the service in one Worker (stream-worker.ts).
import {
  CHUNK_BYTES,
  createCryptoClient,
  workerTransport,
  asVaultId,
} from '../../packages/crypto/src/index.ts';
import { storeOf } from './stores.ts';
import { pairedFigures, readWindow, type PairedFigures } from './paired.ts';
import {
  benchSession,
  best,
  source,
  streamFigures,
  type RawFigures,
  type StreamFigures,
} from './workload.ts';

async function raw(total: number): Promise<RawFigures> {
  const worker = new Worker('./raw-worker.js', { type: 'module' });
  const figures = await new Promise<RawFigures>((resolve) => {
    worker.onmessage = (e: MessageEvent<RawFigures>) => resolve(e.data);
    worker.postMessage(total);
  });
  worker.terminate();
  return figures;
}

/**
 * The app layout's raw baseline: this thread reads the bench's plaintext source with a BYOB reader
 * into recycled buffers (as the vf1 stream does) and sends each 256 KiB chunk to a Worker that
 * encrypts it with raw WebCrypto and sends it back, 4 in flight: the stream's reads and messages,
 * none of its framing, generators or jobs.
 */
async function rawViaMessages(worker: Worker, total: number): Promise<number> {
  const pending = new Map<number, (spare: ArrayBuffer) => void>();
  worker.onmessage = (e: MessageEvent<{ id: number; spare: ArrayBuffer }>) => {
    pending.get(e.data.id)?.(e.data.spare);
    pending.delete(e.data.id);
  };
  const calls = Math.ceil(total / CHUNK_BYTES);
  const seconds = await readWindow(source(total), CHUNK_BYTES, calls, 4, (input, id) => {
    const back = new Promise<ArrayBuffer>((resolve) => pending.set(id, resolve));
    worker.postMessage({ id, input }, [input]);
    return back;
  });
  return Math.round((total / 1e6 / seconds) * 10) / 10;
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

/**
 * Unlock time with the default Argon2id parameters, in its own pool of `workers` (freed
 * afterwards): the KDF in the first Worker, then the keys handed to the others.
 */
async function unlock(workers: number) {
  const { client, terminate } = pool(workers);
  const result = await unlockTimes(client);
  terminate();
  return { ...result, unlockWorkers: workers };
}

/** The app's layout: this page's client over a pool of `n` crypto Workers. */
function pool(n: number) {
  const workers = Array.from({ length: n }, () => new Worker('./worker.js', { type: 'module' }));
  const client = createCryptoClient(workers.map((w) => workerTransport(w)));
  return { client, terminate: () => workers.forEach((w) => w.terminate()) };
}

async function run(mib: number, rounds: number, storeKind: string, workers: number) {
  const { client, terminate } = pool(workers);
  const session = await benchSession(client);
  const total = mib * 1024 * 1024;
  const store = await storeOf(storeKind);
  const results = [];
  for (let i = 0; i < rounds; i++) {
    const phase = (name: string) =>
      (globalThis as { vf1Phase?: (n: string) => void }).vf1Phase?.(name);
    results.push({
      ...(await streamFigures(client, session, total, store, phase)),
      ...(await raw(total)),
    });
  }
  terminate();
  return { env: navigator.userAgent, store: storeKind, workers, ...best(results) };
}

/** The stream API with its service in the same Worker (stream-worker.ts), raw WebCrypto beside. */
async function runInWorker(mib: number, rounds: number, store: string) {
  const worker = new Worker('./stream-worker.js', { type: 'module' });
  type Reply = { phase?: string; figures?: StreamFigures & RawFigures; error?: string };
  const phase = (globalThis as { vf1Phase?: (n: string) => void }).vf1Phase;
  const figures = await new Promise<StreamFigures & RawFigures>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<Reply>) => {
      if (e.data.phase) phase?.(e.data.phase);
      if (e.data.figures) resolve(e.data.figures);
      if (e.data.error) reject(new Error(e.data.error));
    };
    worker.postMessage({ mib, rounds, store });
  });
  worker.terminate();
  return { store, ...figures };
}

/**
 * Paired stream-vs-raw rounds (paired.ts pairedFigures), in the app's layout (client here, a pool
 * of `workers` crypto Workers; the raw baselines called from this page, plus rawViaMessages) and,
 * with `inWorkerToo`, with everything in one Worker.
 */
async function paired(mib: number, rounds: number, workers: number, inWorkerToo: boolean) {
  const total = mib * 1024 * 1024;
  const { client, terminate } = pool(workers);
  const rawWorker = new Worker('./raw-worker.js', { type: 'module' });
  await new Promise((resolve) => {
    rawWorker.onmessage = resolve;
    rawWorker.postMessage({ key: true });
  });
  const app = await pairedFigures(client, await benchSession(client), total, rounds, (n) =>
    rawViaMessages(rawWorker, n),
  );
  rawWorker.terminate();
  terminate();
  if (!inWorkerToo) return { app };
  const inWorker = new Worker('./stream-worker.js', { type: 'module' });
  type Reply = { paired?: PairedFigures; error?: string };
  const one = await new Promise<PairedFigures>((resolve, reject) => {
    inWorker.onmessage = (e: MessageEvent<Reply>) => {
      if (e.data.paired) resolve(e.data.paired);
      if (e.data.error) reject(new Error(e.data.error));
    };
    inWorker.postMessage({ mib, rounds: 1, store: 'blob', paired: rounds });
  });
  inWorker.terminate();
  return { app, inWorker: one };
}

Object.assign(globalThis, {
  vf1Bench: run,
  vf1BenchInWorker: runInWorker,
  vf1Paired: paired,
  vf1Unlock: unlock,
});
