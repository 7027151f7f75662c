// The Node half of the crypto benchmark: the vf1 client in-process, ciphertext in a temporary
// file, RSS sampled every 50 ms. Run through bench/crypto/run.mjs (or: node --import tsx node.ts).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createCryptoClient, inProcessTransport } from '../../packages/crypto/src/index.ts';
import { pairedFigures } from './paired.ts';
import { benchSession, best, rawFigures, streamFigures, type CipherStore } from './workload.ts';

const mib = Number(process.env.BENCH_MIB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const dir = await mkdtemp(join(tmpdir(), 'vf1-bench-'));
const file = join(dir, 'cipher.bin');
const store: CipherStore = {
  write: (stream) => pipeline(Readable.fromWeb(stream as never), createWriteStream(file)),
  read: () =>
    Promise.resolve(
      Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>,
    ),
};

const client = createCryptoClient(inProcessTransport());
const session = await benchSession(client);
const baselineRss = process.memoryUsage().rss;
let peakRss = baselineRss;
let current = 'setup';
const peaks: Record<string, number> = {};
const timer = setInterval(() => {
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  peaks[current] = Math.max(peaks[current] ?? 0, Math.round(rss / 1024 / 1024));
}, 50);
const phase = (name: string) => (current = name);
try {
  const total = mib * 1024 * 1024;
  const results = [];
  for (let i = 0; i < rounds; i++) {
    results.push({
      ...(await streamFigures(client, session, total, store, phase)),
      ...(await rawFigures(total)),
    });
  }
  const figures = best(results);
  phase('paired');
  const pairedRounds = Number(process.env.BENCH_PAIRED_ROUNDS ?? 8);
  const paired =
    pairedRounds > 0
      ? await pairedFigures(
          client,
          session,
          Number(process.env.BENCH_PAIRED_MIB ?? 256) * 1024 * 1024,
          pairedRounds,
        )
      : undefined;
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  const out = {
    env: `node ${process.version}`,
    ...figures,
    baselineRssMiB: mb(baselineRss),
    peakRssMiB: mb(peakRss),
    peakRssMiBByPhase: peaks,
    paired,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
} finally {
  clearInterval(timer);
  await rm(dir, { recursive: true, force: true });
}
