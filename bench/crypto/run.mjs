// Runs the crypto benchmark: Node (in-process client) then Chromium (client on a page, service in
// the crypto Worker, raw WebCrypto in another Worker; then client, service and raw WebCrypto all
// in one Worker), and prints JSON and a Markdown table.
//   node bench/crypto/run.mjs            1 GiB, 2 rounds (best of)
//   BENCH_MIB=256 BENCH_ROUNDS=1 node bench/crypto/run.mjs
// Chromium is Debian's (/usr/bin/chromium, or CHROMIUM_PATH); nothing is downloaded.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir, cpus } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium as playwrightChromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const mib = Number(process.env.BENCH_MIB ?? 1024);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const store = process.env.BENCH_STORE ?? 'opfs';
// The paired stream-vs-raw measurement (paired.ts pairedFigures): rounds, and MiB per figure.
const pairedRounds = Number(process.env.BENCH_PAIRED_ROUNDS ?? 8);
const pairedMib = Math.min(256, Number(process.env.BENCH_PAIRED_MIB ?? 256));
const onlyPaired = Boolean(process.env.BENCH_ONLY_PAIRED);
// Pool sizes (crypto Workers) for the paired rounds in the app's layout; the main run uses the
// last. The app starts min(max(cores - 1, 1), 4) (apps/web/src/crypto/client.ts).
const workerCounts = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);

/** Sum of VmRSS (MiB) of every descendant of this process whose command matches `pattern`. */
function treeRssMiB(pattern) {
  const parent = new Map();
  const comm = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      parent.set(pid, stat.slice(close + 2).split(' ')[1]);
      comm.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      // the process ended meanwhile
    }
  }
  const mine = (pid) => {
    for (let p = pid, n = 0; p && p !== '0' && n < 50; p = parent.get(p), n++) {
      if (p === String(process.pid)) return true;
    }
    return false;
  };
  let kib = 0;
  for (const pid of parent.keys()) {
    if (pid === String(process.pid) || !mine(pid) || !pattern.test(comm.get(pid) ?? '')) continue;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kib += Number(m?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kib / 1024);
}

async function runNode() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'node.ts')], {
    cwd: root,
    env: {
      ...process.env,
      BENCH_MIB: String(mib),
      BENCH_ROUNDS: String(rounds),
      BENCH_PAIRED_ROUNDS: String(pairedRounds),
      BENCH_PAIRED_MIB: String(pairedMib),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`node bench exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop());
}

async function runChromium() {
  const dir = await mkdtemp(join(tmpdir(), 'vf1-bench-web-'));
  await build({
    entryPoints: {
      page: join(here, 'page.ts'),
      'raw-worker': join(here, 'raw-worker.ts'),
      'stream-worker': join(here, 'stream-worker.ts'),
      worker: join(root, 'packages/crypto/src/worker.ts'),
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: dir,
    logLevel: 'warning',
  });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="./page.js"></script>',
  );
  const types = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0].replace(/^\/$/, '/index.html').slice(1);
    if (!/^[\w.-]+$/.test(name)) return res.writeHead(404).end();
    try {
      const body = readFileSync(join(dir, name));
      res
        .writeHead(200, { 'content-type': types[extname(name)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A persistent profile, so that OPFS lives on disk (an incognito context keeps it in memory).
  const profile = await mkdtemp(join(tmpdir(), 'vf1-bench-profile-'));
  const browser = await playwrightChromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    let current = 'setup';
    const peaks = {};
    await page.exposeFunction('vf1Phase', (name) => (current = name));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => 'vf1Bench' in globalThis);
    // Paired rounds last (they hold 256 MiB of ciphertext), or alone with BENCH_ONLY_PAIRED.
    const pairedRun = async () => {
      if (pairedRounds <= 0) return undefined;
      const byPool = {};
      for (const [i, w] of workerCounts.entries()) {
        byPool[w] = await page.evaluate(
          ([m, r, n, one]) => globalThis.vf1Paired(m, r, n, one),
          [pairedMib, pairedRounds, w, i === 0],
        );
      }
      return byPool;
    };
    if (onlyPaired)
      return { env: await page.evaluate(() => navigator.userAgent), paired: await pairedRun() };
    const unlock = await page.evaluate((w) => globalThis.vf1Unlock(w), workerCounts.at(-1));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const baselineRssMiB = treeRssMiB(/chrom/i);
    let peakRssMiB = baselineRssMiB;
    const timer = setInterval(() => {
      const rss = treeRssMiB(/chrom/i);
      peakRssMiB = Math.max(peakRssMiB, rss);
      peaks[current] = Math.max(peaks[current] ?? 0, rss);
    }, 200);
    // BENCH_PROFILE=1: the page thread's busiest functions over the whole run (self time).
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
    await cdp?.send('Profiler.enable');
    await cdp?.send('Profiler.start');
    try {
      const figures = await page.evaluate(
        ([m, r, s, w]) => globalThis.vf1Bench(m, r, s, w),
        [mib, rounds, store, workerCounts.at(-1)],
      );
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        const byNode = new Map();
        profile.samples.forEach((id, i) =>
          byNode.set(id, (byNode.get(id) ?? 0) + profile.timeDeltas[i] / 1000),
        );
        const self = new Map();
        for (const n of profile.nodes) {
          const f = n.callFrame;
          const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
          self.set(key, (self.get(key) ?? 0) + (byNode.get(n.id) ?? 0));
        }
        console.error('page thread self time (ms):');
        for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
          console.error(`  ${v.toFixed(0).padStart(7)}  ${k}`);
      }
      const inWorker = process.env.BENCH_SKIP_IN_WORKER
        ? {}
        : await page.evaluate(
            ([m, r, s]) => globalThis.vf1BenchInWorker(m, r, s),
            [mib, rounds, store],
          );
      current = 'paired';
      const paired = await pairedRun();
      return {
        ...figures,
        ...unlock,
        baselineRssMiB,
        peakRssMiB,
        peakRssMiBByPhase: peaks,
        inWorker,
        paired,
      };
    } finally {
      clearInterval(timer);
    }
  } finally {
    await browser.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
    await rm(profile, { recursive: true, force: true });
  }
}

const ratio = (a, b) => `${Math.round((a / b) * 100)}%`;

/** The paired rounds as two tables (encryption, decryption): MB/s and stream / baseline. */
function pairedTable(results) {
  const byPool = results.chromium.paired ?? {};
  const contexts = [
    ['Node', results.node.paired],
    ...Object.entries(byPool).map(([w, p]) => [
      `Chromium, page + ${w} crypto Worker${w === '1' ? '' : 's'}`,
      p.app,
    ]),
    ['Chromium, all in one Worker', Object.values(byPool).find((p) => p.inWorker)?.inWorker],
  ].filter(([, p]) => p);
  const span = (xs, unit = '') => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = s.length >> 1;
    const med = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
    const r = (x) => Math.round(x);
    return `${r(med)}${unit} (${r(s[0])}–${r(s[s.length - 1])})`;
  };
  const lines = [
    `Paired rounds: ${pairedMib} MiB per figure, ${pairedRounds} rounds, median (range) of MB/s ` +
      'and of the ratio within each round.',
  ];
  for (const [what, stream, bases] of [
    ['encrypt', 'streamEncrypt', ['rawEncrypt', 'rawEncryptRead', 'rawEncryptMessages']],
    // The app's upload since issue 31: a File read and sealed in the Worker (ADR 0014).
    ['encrypt a File', 'fileEncrypt', ['rawEncrypt', 'rawEncryptRead', 'blobStreamEncrypt']],
    ['decrypt', 'streamDecrypt', ['rawDecrypt', 'rawDecryptRead']],
  ]) {
    const names = {
      rawEncrypt: 'raw, fixed buffer',
      rawEncryptRead: 'raw, reading the source',
      rawEncryptMessages: 'raw in a Worker, fed by messages',
      rawDecrypt: 'raw, fixed buffer',
      rawDecryptRead: 'raw, reading the source',
      blobStreamEncrypt: 'the File read on the page (before)',
    };
    const used = bases.filter((k) => contexts.some(([, p]) => p.rounds[0][k] !== undefined));
    lines.push(
      '',
      `| ${what} | stream | ${used.map((k) => `${names[k]} | stream / that`).join(' | ')} |`,
      `|---|---|${used.map(() => '---|---').join('|')}|`,
    );
    for (const [name, p] of contexts) {
      if (p.rounds[0][stream] === undefined) continue; // not measured in this context
      const cells = used.map((k) =>
        p.rounds[0][k] === undefined
          ? '- | -'
          : `${span(p.rounds.map((r) => r[k]))} | ${span(
              p.rounds.map((r) => (r[stream] / r[k]) * 100),
              '%',
            )}`,
      );
      lines.push(`| ${name} | ${span(p.rounds.map((r) => r[stream]))} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

function table(results) {
  const rows = [
    ['encrypt, stream API, with the content hash (4 MiB pieces)', 'encryptMBps'],
    ['encrypt, stream API alone', 'encryptNoChecksumMBps'],
    ['decrypt, stream API (ciphertext read from a file / OPFS)', 'decryptMBps'],
    ['encrypt piped into decrypt, stream API (round trip, no storage)', 'roundTripMBps'],
    ['decrypt, stream API, ciphertext in memory (no storage)', 'decryptMemoryMBps'],
    ['raw AES-256-GCM encrypt, 256 KiB calls, 1 at a time', 'rawEncryptMBps'],
    ['raw AES-256-GCM encrypt, 256 KiB calls, 4 in flight', 'rawEncrypt4MBps'],
    ['raw AES-256-GCM decrypt, 256 KiB calls, 1 at a time', 'rawDecryptMBps'],
    ['raw AES-256-GCM decrypt, 256 KiB calls, 4 in flight', 'rawDecrypt4MBps'],
  ];
  const lines = [
    `| MB/s (10^6 bytes of plaintext per s) | Node | Chromium, page + ${workerCounts.at(-1)} crypto Worker(s) | Chromium, all in one Worker |`,
    '|---|---|---|---|',
  ];
  const inWorker = results.chromium.inWorker ?? {};
  for (const [label, key] of rows)
    lines.push(
      `| ${label} | ${results.node[key]} | ${results.chromium[key]} | ${inWorker[key] ?? '-'} |`,
    );
  for (const [env, r] of [
    ['node', results.node],
    ['chromium', results.chromium],
    ['chromium in one Worker', { ...inWorker, baselineRssMiB: '-', peakRssMiB: '-' }],
  ]) {
    lines.push(
      '',
      `${env}: encrypt ${ratio(r.encryptNoChecksumMBps, r.rawEncryptMBps)} and decrypt ` +
        `${ratio(r.decryptMBps, r.rawDecryptMBps)} of raw 1-at-a-time; RSS ${r.baselineRssMiB} MiB before, ` +
        `${r.peakRssMiB} MiB peak`,
    );
  }
  return lines.join('\n');
}

const started = new Date().toISOString();
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const node = process.env.BENCH_SKIP_NODE || onlyPaired ? {} : await runNode();
const chromium = await runChromium();
const results = {
  started,
  mib,
  rounds,
  cpus: cpus().length,
  loadAverageAtStart: load,
  node,
  chromium,
};
console.log(JSON.stringify(results, null, 2));
if (!onlyPaired) console.log(table(results));
if (pairedRounds > 0) console.log(pairedTable(results));
