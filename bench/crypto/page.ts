// Bench page (bundled by run.mjs): the vf1 client on the page, the service in the crypto Worker
// (the production layout), ciphertext stored in OPFS between encryption and decryption; then the
// same workload with the client and the service in one Worker (stream-worker.ts).
import { createCryptoClient, workerTransport, asVaultId } from '../../packages/crypto/src/index.ts';
import { storeOf } from './stores.ts';
import {
  benchSession,
  best,
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
  worker.terminate();
  return { env: navigator.userAgent, store: storeKind, ...best(results) };
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

Object.assign(globalThis, { vf1Bench: run, vf1BenchInWorker: runInWorker, vf1Unlock: unlock });
