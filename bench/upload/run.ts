// Benchmark (issues 6, 14 and 17): upload and download a 1 GiB file through the real UI in
// Chromium, for each storage provider in the same run:
// - `server (fs)`: encryption in the crypto Workers, tus in 4 MiB PATCHes with their block
//   checksums, the unfinished upload and the blob in the server's data dir;
// - `server (S3)`: the same, against a second server process with BLOB_STORE=s3, whose unfinished
//   uploads and blobs live in one bucket of s3rver (apps/server/src/testing/s3-server.ts), which
//   runs inside this bench process (a Node fake writing to a temp dir: its speed bounds these
//   figures);
// - `local` ("This browser"): the same encryption, the ciphertext streamed into the origin private
//   file system by the OPFS Worker, and read back from it;
// beside a plain upload of the same number of ciphertext bytes to each server (the same tus
// endpoint and 4 MiB PATCHes, no encryption, no per-PATCH checksum), and a plain download of those
// bytes (fetched from the content route and read to the end on the page). Downloads are decrypted into
// a stubbed File System Access writable that keeps no bytes; with BENCH_SINK=file into a real file
// of the origin's private file system, which the stubbed save dialog answers (the app then hands
// its handle to the crypto Worker, as it would the dialog's). Either way a position-weighted checksum of
// what was saved must equal the input file's: each round trip is checked byte-identical. BENCH_CORES=N makes the page
// see N cores (navigator.hardwareConcurrency), which sets the app's crypto pool size. Reports MB/s
// (10^6 bytes of plaintext per second), the peak RSS of all Chromium processes, and the RSS of the
// server process that served each variant (before, peak per phase, after), sampled every 200 ms.
// BENCH_VARIANTS=fs,s3,local (the default) picks the variants.
//
// Playwright sets the scene (sign-in cookie, unlock, the files picked) and then disconnects: while
// it is attached, its Network instrumentation copies every in-memory request body over the
// DevTools pipe (8 MiB Uint8Array bodies uploaded at ~14 MB/s instead of ~160 MB/s here), which
// would measure Playwright rather than the app. The measured steps run over a bare DevTools
// connection (Runtime.evaluate only), as close to a user's browser as a script gets.
// Run: npm run build -w @sealvault/web &&
//      node --experimental-websocket --import tsx bench/upload/run.ts [MiB]
import type { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ciphertextLength, CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';
import { seedVault } from '../secrets/seed.ts';
import { startS3Server, type S3TestServer } from '../../apps/server/src/testing/s3-server.ts';
import { chromiumWithDevtools, freePort, sleep, startApp, type BenchApp } from '../shared/app.ts';
import { devtools } from '../shared/devtools.ts';
import { opfsSinkScript, sinkScript, writeInputFile, type Saved } from '../shared/sink.ts';
import { cpuDelta, rssByKind, rssMiB, treeCpu, treeRssMiB } from '../shared/procs.ts';

const MIB = Number(process.argv[2] ?? 1024);
type SavePicker = (o: {
  suggestedName: string;
}) => Promise<{ createWritable(): Promise<WritableStream<Uint8Array>> }>;
const SIZE = MIB * 1024 * 1024;
// Below 50 MiB (BLOB_DOWNLOAD_LIMIT, apps/web/src/files/transfer/download.ts) the app saves a
// download through a Blob, not the File System Access writable this bench stubs: it would wait
// for a download that never reaches the stub.
if (MIB < 50) throw new Error('the bench needs at least 50 MiB (the File System Access download)');
const PASSWORD = 'bench-vault-password';
const PIECE = CONTENT_HASH_BLOCK_BYTES;

/** Writes `bytes` of random data; returns their content hash (one block per PIECE) and wordSum. */
function writeFile(file: string, bytes: number): { contentHash: string; sum: number } {
  const hash = createHash('sha256'); // over the block digests
  const sum = writeInputFile(file, bytes, PIECE, (block) =>
    hash.update(createHash('sha256').update(block).digest()),
  );
  return { contentHash: hash.digest('hex'), sum };
}

/** Bytes of the files under `dir`, without the paths in `skip`. */
function dirBytes(dir: string, skip: string[] = []): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (skip.includes(p)) continue;
    if (e.isDirectory()) n += dirBytes(p, skip);
    else n += fs.statSync(p).size;
  }
  return n;
}

const wanted = (process.env.BENCH_VARIANTS ?? 'fs,s3,local').split(',');
/**
 * Downloads saved to the counting writable (the default: no disk in the figure, as the issue's
 * were measured), or with BENCH_SINK=file to real files, which the app's crypto Worker writes
 * itself.
 */
const toFile = process.env.BENCH_SINK === 'file';
const app = await startApp('upload');
const { dataDir } = app;
let s3: S3TestServer | undefined;
let appS3: BenchApp | undefined;
const debugPort = await freePort();
let browserProcess: ReturnType<typeof spawn> | undefined;

try {
  if (wanted.includes('s3')) {
    s3 = await startS3Server({ bucket: 'sealvault-bench' });
    appS3 = await startApp('upload-s3', { env: s3.env() });
  }
  interface Variant {
    name: string;
    app: BenchApp;
    vaultId: string;
    /** Where this variant's stored bytes go, and what under it is not the server's. */
    storeDir: string;
    skip: string[];
  }
  // The free plan allows 2 MB per file and one file vault: these accounts get the unlimited plan.
  const unlimited = (a: BenchApp) =>
    a.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const fileVault = (a: BenchApp, name: string, provider?: 'local') =>
    seedVault(a.base, a.cookie, { name, type: 'files', password: PASSWORD, provider });
  unlimited(app);
  const plainFile = path.join(dataDir, 'plain.bin');
  const rawFile = path.join(dataDir, 'raw.bin');
  const notServers = [plainFile, rawFile, path.join(dataDir, 'profile')];
  const variants: Variant[] = [];
  if (wanted.includes('fs')) {
    const vaultId = await fileVault(app, 'Bench');
    variants.push({ name: 'server (fs)', app, vaultId, storeDir: dataDir, skip: notServers });
  }
  if (s3 && appS3) {
    unlimited(appS3);
    const vaultId = await fileVault(appS3, 'Bench S3');
    // The bucket only: the S3 server's data dir keeps its SQLite database and log.
    variants.push({ name: 'server (S3)', app: appS3, vaultId, storeDir: s3.directory, skip: [] });
  }
  if (wanted.includes('local')) {
    const vaultId = await fileVault(app, 'Bench local', 'local');
    variants.push({ name: 'local', app, vaultId, storeDir: dataDir, skip: notServers });
  }

  const plainSum = writeFile(plainFile, SIZE).sum;
  const cipherLen = ciphertextLength(SIZE);
  const raw = writeFile(rawFile, cipherLen);
  const rawChecksum = raw.contentHash;

  let wsUrl: string;
  ({ proc: browserProcess, wsUrl } = await chromiumWithDevtools(
    debugPort,
    path.join(dataDir, 'profile'),
  ));

  /**
   * Playwright sets the scene for one vault (sign-in cookie, unlock, the upload dialog open) and
   * then disconnects; returns the number of cores the page sees.
   */
  const setScene = async (on: BenchApp, vaultId: string) => {
    const pw = await chromium.connectOverCDP(wsUrl);
    const ctx = pw.contexts()[0]!;
    // Cookies do not tell ports apart: the two servers' sessions share localhost's cookie jar.
    await on.signIn(ctx);
    // Room for the timings of every PATCH of a 1 GiB upload (the default keeps 250 entries).
    await ctx.addInitScript('performance.setResourceTimingBufferSize(100000);');
    // The download's destination: a writable that keeps only a count and wordSum of the bytes,
    // or with BENCH_SINK=file a real file (opfsSinkScript).
    await ctx.addInitScript(toFile ? opfsSinkScript : sinkScript);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    if (process.env.BENCH_CORES) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Emulation.setHardwareConcurrencyOverride', {
        hardwareConcurrency: Number(process.env.BENCH_CORES),
      });
    }
    await page.goto(`${on.base}/vault/${vaultId}`);
    const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
    await unlock.getByLabel('Vault password').fill(PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('No files in this vault').waitFor({ timeout: 60_000 });
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-raw';
      input.hidden = true;
      document.body.append(input);
    });
    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).waitFor();
    // The crypto pool was made when the unlock dialog opened, for this many cores.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    await pw.close(); // disconnects; the browser and its page stay as they are
    return cores;
  };

  let phase = 'idle';
  let serving: BenchApp = app;
  const peaks: Record<string, number> = {};
  /** The RSS of the server process of the variant being measured, and of this process. */
  const serverPeaks: Record<string, number> = {};
  const benchPeaks: Record<string, number> = {};
  const sampler = setInterval(() => {
    peaks[phase] = Math.max(peaks[phase] ?? 0, treeRssMiB(process.pid));
    serverPeaks[phase] = Math.max(serverPeaks[phase] ?? 0, rssMiB(serving.pid));
    benchPeaks[phase] = Math.max(benchPeaks[phase] ?? 0, process.memoryUsage.rss() / 1024 / 1024);
  }, 200);
  const cpu: Record<string, string> = {};
  const seconds: Record<string, number> = {};
  const measure = async (name: string, run: () => Promise<void>) => {
    phase = name;
    const c0 = treeCpu(process.pid);
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    seconds[name] = (performance.now() - t0) / 1000;
    const own = process.cpuUsage(own0);
    // This process: the bench's DevTools polling, and s3rver when it runs here.
    cpu[name] =
      `${cpuDelta(c0, treeCpu(process.pid))}; this process ${((own.user + own.system) / 1e6).toFixed(1)} s`;
    phase = 'idle';
  };
  const afterUnlock: Record<string, number> = {};

  // Plain: the same number of ciphertext bytes, tus in 4 MiB PATCHes of the picked file.
  const plainUpload = async (vault: string, checksum: string, piece: number, fileId: string) => {
    const file = (document.getElementById('bench-raw') as HTMLInputElement).files![0]!;
    const b64 = (s: string) => btoa(s);
    const hex = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
    const meta = {
      vaultId: vault,
      fileId,
      checksum,
      encMeta: b64('x'.repeat(120)),
      lookup: hex,
      wrappedKey: b64('y'.repeat(60)),
      keyRevision: '0',
    };
    const created = await fetch('/api/uploads', {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(file.size),
        'Upload-Metadata': Object.entries(meta)
          .map(([k, v]) => `${k} ${b64(v)}`)
          .join(','),
      },
    });
    if (created.status !== 201) throw new Error(`create ${created.status} ${await created.text()}`);
    const url = created.headers.get('location')!;
    for (let off = 0; off < file.size; off += piece) {
      const r = await fetch(url, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': String(off),
          'Content-Type': 'application/offset+octet-stream',
        },
        body: file.slice(off, off + piece),
      });
      if (r.status !== 204) throw new Error(`patch ${r.status} ${await r.text()}`);
    }
  };

  // Plain: the plain upload's bytes fetched from the content route into the same stubbed save
  // file as the decrypted download (its checksum in a Worker), so the two differ by the crypto.
  const plainDownload = async (vault: string, fileId: string) => {
    const res = await fetch(`/api/vaults/${vault}/files/${fileId}/content`);
    if (!res.ok || !res.body) throw new Error(`content ${res.status}`);
    const picker = (window as unknown as { showSaveFilePicker: SavePicker }).showSaveFilePicker;
    const handle = await picker({ suggestedName: 'plain.bin' });
    await res.body.pipeTo(await handle.createWritable());
  };

  const serverBytesBefore: Record<string, number> = {};
  const serverGrew: Record<string, number> = {};
  const serverBefore: Record<string, number> = {};
  const serverAfter: Record<string, number> = {};
  const serverWarnings: Record<string, string[]> = {};
  const patches: Record<string, string> = {};
  let pageCores = 0;
  for (const variant of variants) {
    const { name: provider, vaultId } = variant;
    serving = variant.app;
    const logStart = fs.statSync(variant.app.logFile).size;
    pageCores = await setScene(variant.app, vaultId);
    const dt = await devtools(debugPort, `/vault/${vaultId}`);
    await dt.setFile('#bench-raw', rawFile);
    await dt.setFile('[aria-label="Choose files to upload"]', plainFile);
    await dt.until(
      `[...document.querySelectorAll('[role="dialog"] *')].some((e) => e.textContent === 'plain.bin')`,
      10_000,
    );
    afterUnlock[provider] = treeRssMiB(process.pid);
    serverBytesBefore[provider] = dirBytes(variant.storeDir, variant.skip);
    serverBefore[provider] = rssMiB(variant.app.pid);

    /** Durations of the requests to an upload (its PATCHes) since the last call; the last one
     * completes the upload (the server verifies it and stores the blob before it answers). */
    const patchTimes = async (what: string) => {
      const ms = await dt.evaluate<number[]>(`(() => {
        const ms = performance.getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/uploads/'))
          .map((e) => e.duration);
        performance.clearResourceTimings();
        return ms;
      })()`);
      if (ms.length === 0) return;
      const sorted = [...ms].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      patches[`${provider}: ${what}`] =
        `${ms.length} requests, median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms, last ${ms.at(-1)!.toFixed(0)} ms`;
    };
    await dt.evaluate('performance.clearResourceTimings()');
    const plainId = randomUUID();
    if (provider !== 'local') {
      await measure(`${provider}: plain upload`, () =>
        dt.evaluate(
          `(${plainUpload.toString()})(${JSON.stringify(vaultId)}, ${JSON.stringify(rawChecksum)}, ${PIECE}, ${JSON.stringify(plainId)})`,
        ),
      );
      await patchTimes('plain upload');
    }

    // BENCH_PROFILE=upload (or 1) or download: CPU profiles of the page thread and of the Workers
    // during the encrypted upload or the decrypted download.
    const profiling = process.env.BENCH_PROFILE === '1' ? 'upload' : process.env.BENCH_PROFILE;
    let profiled: [string, string | undefined][] = [];
    const startProfiles = async () => {
      await dt.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: false,
        flatten: true,
      });
      await sleep(500);
      profiled = [
        ['page thread', undefined],
        ...dt.workers.map((w, i): [string, string] => [`worker ${i}`, w]),
      ];
      for (const [, session] of profiled) {
        await dt.send('Profiler.enable', {}, session);
        await dt.send('Profiler.start', {}, session);
      }
    };
    const stopProfiles = async (during: string) => {
      for (const [label, session] of profiled) {
        // The thread's busiest functions during the phase (self time).
        const stopped = (await dt.send('Profiler.stop', {}, session)) as unknown as {
          result: {
            profile: {
              nodes: {
                id: number;
                callFrame: { functionName: string; url: string; lineNumber: number };
              }[];
              samples: number[];
              timeDeltas: number[];
            };
          };
        };
        const { nodes, samples, timeDeltas } = stopped.result.profile;
        const byNode = new Map<number, number>();
        samples.forEach((id, i) =>
          byNode.set(id, (byNode.get(id) ?? 0) + (timeDeltas[i] ?? 0) / 1000),
        );
        const self = new Map<string, number>();
        for (const n of nodes) {
          const f = n.callFrame;
          const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
          self.set(key, (self.get(key) ?? 0) + (byNode.get(n.id) ?? 0));
        }
        console.log(`${provider}, ${label}: self time during the ${during} (ms):`);
        for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
          console.log(`  ${v.toFixed(0).padStart(7)}  ${k}`);
      }
    };
    if (profiling === 'upload') await startProfiles();
    // Encrypted, through the UI: the dialog's Upload button; done when the dialog closes.
    await measure(`${provider}: encrypted upload`, async () => {
      await dt.evaluate(`(() => {
        const dialog = document.querySelector('[role="dialog"]');
        const button = [...dialog.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Upload');
        button.click();
      })()`);
      await dt.until(`!document.querySelector('[role="dialog"]')`, 1_800_000);
    });
    if (profiling === 'upload') await stopProfiles('encrypted upload');
    await dt.until(`!!document.querySelector('[aria-label="Download plain.bin"]')`, 60_000);
    if (process.env.BENCH_TRACE) {
      // [start, duration] in ms of each upload request: gaps between them are time not sending.
      const requests = await dt.evaluate<number[][]>(
        `performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/uploads')).map((e) => [Math.round(e.startTime), Math.round(e.duration)])`,
      );
      console.log('upload requests [start ms, duration ms]:', JSON.stringify(requests));
    }
    if (provider !== 'local') await patchTimes('encrypted upload');

    // The same bytes fetched plain (the plain upload's file) into the same stubbed save file,
    // beside the decrypted download that follows (issue 31).
    if (provider !== 'local') {
      await measure(`${provider}: plain download`, () =>
        dt.evaluate(
          `(${plainDownload.toString()})(${JSON.stringify(vaultId)}, ${JSON.stringify(plainId)})`,
        ),
      );
      const got = await dt.evaluate<Saved>(toFile ? 'window.__checksum()' : 'window.__saved');
      if (got.bytes !== cipherLen || got.sum !== raw.sum)
        throw new Error(`${provider}: the plain download differs from the file uploaded`);
      await dt.evaluate('window.__saved = undefined');
    }

    // Download and decrypt, through the UI (the File System Access path for a large file).
    if (profiling === 'download') await startProfiles();
    await measure(`${provider}: decrypted download`, async () => {
      await dt.evaluate(`document.querySelector('[aria-label="Download plain.bin"]').click()`);
      if (toFile) await dt.evaluate(`window.__waitWritten(${SIZE})`);
      else await dt.until(`window.__saved !== undefined`, 1_800_000);
    });
    if (profiling === 'download') await stopProfiles('decrypted download');
    const saved = await dt.evaluate<Saved>(toFile ? 'window.__checksum()' : 'window.__saved');
    dt.close();
    if (saved.bytes !== SIZE)
      throw new Error(`${provider}: downloaded ${saved.bytes} bytes, expected ${SIZE}`);
    if (saved.sum !== plainSum)
      throw new Error(`${provider}: the downloaded bytes differ from the file's`);
    serverGrew[provider] = dirBytes(variant.storeDir, variant.skip) - serverBytesBefore[provider];
    await sleep(3000); // what the server keeps once the transfers are over
    serverAfter[provider] = rssMiB(variant.app.pid);
    // The server's warnings and errors during this variant (pino levels 40 and up).
    const log = fs.readFileSync(variant.app.logFile, 'utf8').slice(logStart);
    serverWarnings[provider] = log
      .split('\n')
      .filter((line) => /"level":(4|5|6)\d/.test(line))
      .map((line) => line.slice(0, 300));
  }
  clearInterval(sampler);
  const mbs = (s = 0) => (SIZE / 1e6 / s).toFixed(1);
  console.log(
    `size=${MIB} MiB cores=${os.cpus().length} page-sees-cores=${pageCores} load=${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join('/')}`,
  );
  const plainS = seconds[`${variants.find((v) => v.name !== 'local')?.name}: plain upload`];
  for (const { name: provider } of variants) {
    const plain = seconds[`${provider}: plain upload`];
    if (plain)
      console.log(
        `${provider}: plain upload (${cipherLen} bytes): ${plain.toFixed(1)} s, ${mbs(plain)} MB/s`,
      );
  }
  for (const { name: provider } of variants) {
    const up = seconds[`${provider}: encrypted upload`]!;
    const down = seconds[`${provider}: decrypted download`]!;
    const plain = seconds[`${provider}: plain upload`] ?? plainS;
    const ofPlain = plain ? ` (${((plain / up) * 100).toFixed(0)}% of plain)` : '';
    const plainDown = seconds[`${provider}: plain download`];
    const ofPlainDown = plainDown
      ? ` (${((plainDown / down) * 100).toFixed(0)}% of plain: ${mbs(plainDown)} MB/s)`
      : '';
    console.log(
      `${provider}: encrypted upload via UI: ${up.toFixed(1)} s, ${mbs(up)} MB/s${ofPlain}; decrypted download via UI: ${down.toFixed(1)} s, ${mbs(down)} MB/s${ofPlainDown}; byte-identical`,
    );
  }
  const mib = (v = 0) => v.toFixed(0);
  for (const { name: provider } of variants) {
    const during = (what: string) => serverPeaks[`${provider}: ${what}`];
    console.log(
      `${provider}: server RSS (MiB) before ${mib(serverBefore[provider])}, peak during ${[
        'plain upload',
        'encrypted upload',
        'plain download',
        'decrypted download',
      ]
        .filter((w) => during(w) !== undefined)
        .map((w) => `${w} ${mib(during(w))}`)
        .join(', ')}, after ${mib(serverAfter[provider])}`,
    );
  }
  console.log(
    `this process's RSS (MiB), peak by phase${s3 ? ' (s3rver runs in it)' : ''}: ${Object.entries(
      benchPeaks,
    )
      .map(([k, v]) => `${k} ${mib(v)}`)
      .join(', ')}`,
  );
  for (const [name, text] of Object.entries(patches)) console.log(`${name}: PATCHes: ${text}`);
  for (const [provider, lines] of Object.entries(serverWarnings)) {
    console.log(`${provider}: ${lines.length} server log lines at warn or above`);
    for (const line of lines.slice(0, 5)) console.log(`  ${line}`);
  }
  console.log(
    `server data dir (the bucket's directory for S3) grew by: ${Object.entries(serverGrew)
      .map(([k, v]) => `${k} phase ${(v / 1024 / 1024).toFixed(1)} MiB`)
      .join(', ')}`,
  );
  for (const [name, used] of Object.entries(cpu)) console.log(`CPU during ${name}: ${used}`);
  console.log(
    `Chromium RSS by process kind, peak over the run (MiB): ${Object.entries(rssByKind)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')}`,
  );
  console.log(
    `Chromium RSS after unlock: ${Object.entries(afterUnlock)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} MiB; peaks: ${Object.entries(peaks)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} MiB`,
  );
} finally {
  browserProcess?.kill('SIGKILL');
  await app.stop();
  await appS3?.stop();
  await s3?.close();
}
