// Benchmark (issue 28, "Files people live in"): a 1 GiB ZIP of 200 files downloaded through the
// file browser, beside the same 200 files downloaded one by one, on our server ("SealVault
// storage"), in Chromium, through the built app and the real server. Figures: MB/s and the
// browser's memory growth during each (the issue's limit for the ZIP: under 200 MB).
//
// Starts the server with a throwaway data dir, signs an account up (Unlimited plan), seeds an
// empty files vault, writes [files] files of random bytes, [MiB] in all (2^30 bytes by default,
// 5,368,709 or 5,368,710 bytes each), with each file's CRC-32, and uploads them through the
// upload dialog (the app's own encryption, padding, tus and manifest commits; timed, once). Then,
// per run, with the vault unlocked in one page:
//   - plain download: the page fetches every file's ciphertext from the server's content
//     endpoint, one after the other, and drops the bytes (the floor: the same bytes, nothing done);
//   - ZIP: "Select all", then "Download as ZIP" in the selection bar, until the ZIP's last byte is
//     written. A ZIP of 50 MiB or more goes to the File System Access save dialog where the browser
//     has it (apps/web/src/files/transfer/zip.ts): the bench stubs window.showSaveFilePicker with
//     a writable that counts the bytes and keeps none, so the figure is the app's streaming path
//     without a disk. It keeps the ZIP's first 4 bytes and its last 64 KiB (references to the
//     last chunks, no copies), from which the bench reads the end of central directory and every
//     central directory entry: the ZIP's length must equal client-zip's predictLength for these
//     names and sizes, and every entry's name, size and CRC-32 those of an input file;
//   - one by one, as the app does: each file's "Download {name}" button, one after the other, each
//     clicked once the one before is saved. A file under 50 MiB is decrypted into a Blob and saved
//     through a temporary link (saveBlob in apps/web/src/files/transfer/download.ts), whose URL the
//     app revokes 60 s later: the bench wraps URL.createObjectURL to count each Blob's bytes (and
//     to know the file is saved), and the browser's downloads are denied (Browser.setDownloadBehavior)
//     so that no copy goes to a Downloads folder; the Blobs stay until the app revokes them;
//   - one by one, URL revoked at once: the same, the wrapper revoking each URL as soon as it is
//     made (what the Blobs themselves cost, beside the decryption's).
// The in-page loops await the app's own callbacks (the writable's close, createObjectURL), not a
// poll. As in bench/move, Playwright only sets the scene (sign-in, the stubs, unlock, the upload
// dialog) and disconnects; the measured steps run over a bare DevTools connection. RSS is the sum
// over all Chromium processes from /proc, sampled every 200 ms: growth = the peak during a step
// minus the value just before it (after a garbage collection of the page). After each step: the
// RSS 3 s later and after another collection; after the app's one-by-one step, also 65 s later
// (its Blob URLs revoked). The page's JS heap and ArrayBuffer backing stores (Runtime.getHeapUsage,
// the page's isolate, its Workers not included) are polled every 250 ms.
// Run: npm run build -w @sealvault/web &&
//      node --experimental-websocket --import tsx bench/zip/run.ts [MiB] [files] [runs]
import type { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { predictLength } from 'client-zip';
import type { Page } from 'playwright-core';
import { seedVault } from '../secrets/seed.ts';
import {
  chromiumWithDevtools,
  freePort,
  loadavg,
  sleep,
  startApp,
  withPageOver,
  plainDownloadInPage,
} from '../shared/app.ts';
import { busiest, type CpuProfile } from '../files/measure.ts';
import { devtools } from '../shared/devtools.ts';
import { cpuDelta, rssByKind, treeCpu, treeRssMiB } from '../shared/procs.ts';

const MIB = Number(process.argv[2] ?? 1024);
const FILES = Number(process.argv[3] ?? 200);
const RUNS = Number(process.argv[4] ?? 1);
const TOTAL = MIB * 1024 * 1024;
const PASSWORD = 'bench-vault-password';
const VAULT_NAME = 'Bench zip';
// Below this the app saves a ZIP through a Blob, not the save dialog stubbed here
// (BLOB_DOWNLOAD_LIMIT in apps/web/src/files/transfer/download.ts).
if (TOTAL < 50 * 1024 * 1024) throw new Error('the ZIP must be 50 MiB or more (the save dialog)');
const TAIL = 64 * 1024;
// BENCH_PROFILE=1: a CPU profile of the page thread during each ZIP and one-by-one step.
const PROFILE = process.env.BENCH_PROFILE === '1';

interface Input {
  file: string;
  name: string;
  size: number;
  crc: number;
}

/** Writes `bytes` of random data; answers their CRC-32 (on disk before anything is measured). */
function writeFile(file: string, bytes: number): number {
  const data = randomBytes(bytes);
  fs.writeFileSync(file, data);
  const fd = fs.openSync(file, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return zlib.crc32(data);
}

/** The end of central directory and the central directory entries found in a ZIP's tail. */
function readCentralDirectory(tail: Buffer, total: number) {
  const eocd = tail.length - 22;
  if (tail.readUInt32LE(eocd) !== 0x06054b50) throw new Error('no end of central directory');
  const entries = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff) throw new Error('a ZIP64 archive: not read here');
  if (cdOffset + cdSize + 22 !== total)
    throw new Error(`central directory at ${cdOffset} + ${cdSize} + 22, ZIP of ${total} bytes`);
  if (cdSize + 22 > tail.length) throw new Error('the central directory is longer than the tail');
  const out: { name: string; crc: number; size: number }[] = [];
  for (let at = eocd - cdSize; out.length < entries;) {
    if (tail.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central entry at ${at}`);
    const crc = tail.readUInt32LE(at + 16);
    const size = tail.readUInt32LE(at + 24);
    const nameLen = tail.readUInt16LE(at + 28);
    const extraLen = tail.readUInt16LE(at + 30);
    const commentLen = tail.readUInt16LE(at + 32);
    out.push({ name: tail.toString('utf8', at + 46, at + 46 + nameLen), crc, size });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * One command on the browser's own DevTools target (not a page's), on a connection left open:
 * Chromium undoes a session's Browser.setDownloadBehavior when that session goes. Answers a close.
 */
async function browserCommand(wsUrl: string, method: string, params: object) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const reply = await new Promise<{ error?: { message: string } }>((resolve) => {
    ws.onmessage = (ev: MessageEvent<string>) =>
      resolve(JSON.parse(ev.data) as { error?: { message: string } });
    ws.send(JSON.stringify({ id: 1, method, params }));
  });
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return () => ws.close();
}

console.log(`start ${new Date().toISOString()} load ${loadavg()} cores ${os.cpus().length}`);
const app = await startApp('zip');
const { base, dataDir } = app;
const debugPort = await freePort();
let browser: ReturnType<typeof spawn> | undefined;
let sampler: ReturnType<typeof setInterval> | undefined;
let closeBrowserSession = () => {};
const downloadsDir = path.join(os.homedir(), 'Downloads');
const inDownloads = () =>
  fs.existsSync(downloadsDir) ? fs.readdirSync(downloadsDir).filter((f) => /^zip-/.test(f)) : [];
const downloadsBefore = inDownloads().length;

interface Row {
  name: string;
  bytes: number;
  seconds: number;
  before: number;
  peak: number;
  after: number;
  afterGc: number;
  later?: number;
  kinds: string;
  heap: number;
  backing: number;
  cpu: string;
  load: string;
}
const rows: Row[] = [];

try {
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const vaultId = await seedVault(base, app.cookie, {
    name: VAULT_NAME,
    type: 'files',
    password: PASSWORD,
  });
  const inputDir = path.join(dataDir, 'inputs');
  fs.mkdirSync(inputDir);
  const inputs: Input[] = Array.from({ length: FILES }, (_, i) => {
    const name = `zip-${String(i + 1).padStart(3, '0')}.bin`;
    // 2^30 bytes in all: the first (TOTAL mod FILES) files one byte longer.
    const size = Math.floor(TOTAL / FILES) + (i < TOTAL % FILES ? 1 : 0);
    return { file: path.join(inputDir, name), name, size, crc: 0 };
  });
  const writeStart = performance.now();
  for (const f of inputs) f.crc = writeFile(f.file, f.size);
  console.log(
    `${FILES} input files, ${TOTAL} bytes, written in ${((performance.now() - writeStart) / 1000).toFixed(1)} s`,
  );

  let wsUrl: string;
  ({ proc: browser, wsUrl } = await chromiumWithDevtools(debugPort, path.join(dataDir, 'profile')));

  /** Playwright attached for `fn` only, on the app's page; it disconnects after. */
  const withPage = <T>(fn: (page: Page) => Promise<T>): Promise<T> => withPageOver(wsUrl, base, fn);

  // The scene: signed in, the stubs in place, the vault unlocked, the upload dialog open.
  await withPage(async (page) => {
    const ctx = page.context();
    await app.signIn(ctx);
    // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one.
    await ctx.addInitScript('window.__name = (f) => f;');
    await ctx.addInitScript(
      ({ tail }) => {
        const w = window as unknown as {
          showSaveFilePicker: unknown;
          __saved: { name: string; bytes: number; head: number[]; tail: string }[];
          __savedNext: (() => void) | null;
          __blobs: number[];
          __blobNext: (() => void) | null;
          __revokeNow: boolean;
        };
        // The ZIP's destination: a writable that counts the bytes, keeps none (but references to
        // its last chunks: the central directory), and answers once closed.
        w.__saved = [];
        w.__savedNext = null;
        w.showSaveFilePicker = (opts: { suggestedName: string }) =>
          Promise.resolve({
            createWritable: () => {
              let bytes = 0;
              let head: number[] = [];
              const last: Uint8Array[] = [];
              let kept = 0;
              return Promise.resolve(
                new WritableStream<Uint8Array>({
                  write(chunk) {
                    if (bytes === 0) head = [...chunk.subarray(0, 4)];
                    bytes += chunk.length;
                    last.push(chunk);
                    kept += chunk.length;
                    while (last.length > 1 && kept - last[0]!.length >= tail)
                      kept -= last.shift()!.length;
                  },
                  close() {
                    const all = new Uint8Array(kept);
                    let at = 0;
                    for (const c of last) {
                      all.set(c, at);
                      at += c.length;
                    }
                    let s = '';
                    for (const b of all.subarray(Math.max(0, kept - tail)))
                      s += String.fromCharCode(b);
                    w.__saved.push({ name: opts.suggestedName, bytes, head, tail: btoa(s) });
                    w.__savedNext?.();
                  },
                }),
              );
            },
          });
        // A single file under 50 MiB: a Blob saved through a temporary link. Each Blob's size is
        // counted; its URL is left to the app (revoked 60 s later) unless __revokeNow.
        w.__blobs = [];
        w.__blobNext = null;
        w.__revokeNow = false;
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (obj: Blob | MediaSource) => {
          const url = create(obj);
          if (obj instanceof Blob) {
            w.__blobs.push(obj.size);
            if (w.__revokeNow) setTimeout(() => URL.revokeObjectURL(url), 0);
            w.__blobNext?.();
          }
          return url;
        };
      },
      { tail: TAIL },
    );
    await page.goto(`${base}/vault/${vaultId}`);
    const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
    await unlock.getByLabel('Vault password').fill(PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('No files in this vault').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).waitFor();
  });
  const dt = await devtools(debugPort, `/vault/${vaultId}`);
  const picker = await dt.send('Runtime.evaluate', {
    expression: `document.querySelector('[aria-label="Choose files to upload"]')`,
  });
  await dt.send('DOM.setFileInputFiles', {
    files: inputs.map((f) => f.file),
    objectId: picker.result?.result?.objectId,
  });
  await dt.until(
    `document.querySelectorAll('[role="dialog"] [aria-label="Selected files"] li').length === ${FILES}`,
    30_000,
  );
  // No copy of a download goes to disk (see the header); set once Playwright has gone.
  closeBrowserSession = await browserCommand(wsUrl, 'Browser.setDownloadBehavior', {
    behavior: 'deny',
  });

  let phase = 'idle';
  const peaks: Record<string, number> = {};
  const sample = () => {
    peaks[phase] = Math.max(peaks[phase] ?? 0, treeRssMiB(process.pid));
  };
  sampler = setInterval(sample, 200);

  /** Runs one measured step (`run` answers the bytes it carried) and records its row. */
  const measure = async (name: string, run: () => Promise<number>, laterMs = 0) => {
    // The baseline: what the last step left settled, and the page's garbage collected.
    await sleep(1000);
    await dt.send('HeapProfiler.collectGarbage', {});
    await sleep(1000);
    for (const k of Object.keys(rssByKind)) delete rssByKind[k];
    const before = treeRssMiB(process.pid);
    const kindsBefore = { ...rssByKind };
    for (const k of Object.keys(rssByKind)) delete rssByKind[k];
    const load = loadavg();
    const c0 = treeCpu(process.pid);
    phase = name;
    const heap = { used: 0, backing: 0 };
    let polling = true;
    const heapPoll = (async () => {
      while (polling) {
        const r = (await dt.send('Runtime.getHeapUsage', {})) as unknown as {
          result: { usedSize: number; backingStorageSize?: number };
        };
        heap.used = Math.max(heap.used, r.result.usedSize);
        heap.backing = Math.max(heap.backing, r.result.backingStorageSize ?? 0);
        await sleep(250);
      }
    })();
    const profile = PROFILE && /ZIP|one by one/.test(name);
    if (profile) {
      await dt.send('Profiler.enable', {});
      await dt.send('Profiler.start', {});
    }
    const start = performance.now();
    const bytes = await run();
    const seconds = (performance.now() - start) / 1000;
    if (profile) {
      const r = (await dt.send('Profiler.stop', {})) as unknown as {
        result: { profile: CpuProfile };
      };
      console.log(
        `  page thread, busiest functions (self time):\n${busiest(r.result.profile, 15)}`,
      );
    }
    sample();
    phase = 'idle';
    polling = false;
    await heapPoll;
    const c1 = treeCpu(process.pid);
    const kinds = Object.entries(rssByKind)
      .filter(([k, v]) => Math.abs(v - (kindsBefore[k] ?? 0)) >= 1)
      .map(
        ([k, v]) =>
          `${k} ${v - (kindsBefore[k] ?? 0) >= 0 ? '+' : ''}${(v - (kindsBefore[k] ?? 0)).toFixed(0)}`,
      )
      .join(', ');
    await sleep(3000);
    const after = treeRssMiB(process.pid);
    // What stays once the page's garbage is collected: held, not merely not yet collected.
    await dt.send('HeapProfiler.collectGarbage', {});
    await sleep(1000);
    const afterGc = treeRssMiB(process.pid);
    let later: number | undefined;
    if (laterMs) {
      await sleep(Math.max(0, start + seconds * 1000 + laterMs - performance.now()));
      await dt.send('HeapProfiler.collectGarbage', {});
      await sleep(1000);
      later = treeRssMiB(process.pid);
    }
    const row: Row = {
      name,
      bytes,
      seconds,
      before,
      peak: peaks[name] ?? before,
      after,
      afterGc,
      later,
      kinds,
      heap: heap.used / 2 ** 20,
      backing: heap.backing / 2 ** 20,
      cpu: cpuDelta(c0, c1),
      load,
    };
    rows.push(row);
    console.log(
      `${name}: ${seconds.toFixed(1)} s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s; Chromium RSS ${before.toFixed(0)} → peak ${row.peak.toFixed(0)} (+${(row.peak - before).toFixed(0)} MiB; by kind ${kinds}), ${after.toFixed(0)} 3 s after, ${afterGc.toFixed(0)} after a GC${later === undefined ? '' : `, ${later.toFixed(0)} ${Math.round(laterMs / 1000)} s after its end (and a GC)`}; page heap peak ${row.heap.toFixed(0)} MiB, ArrayBuffers ${row.backing.toFixed(0)} MiB; CPU ${row.cpu}; load ${load}`,
    );
  };

  await measure(`upload of the ${FILES} files through the dialog (once)`, async () => {
    await dt.evaluate(`(() => {
      const b = [...document.querySelector('[role="dialog"]').querySelectorAll('button')]
        .find((b) => b.textContent.trim() === 'Upload');
      if (!b || b.disabled) throw new Error('no enabled Upload button');
      b.click();
    })()`);
    // Until the dialog closes (all uploaded), or shows a failure.
    const end = Date.now() + 3_600_000;
    for (let i = 0; ; i++) {
      await sleep(250);
      const state = await dt.evaluate<string>(`(() => {
        const d = document.querySelector('[role="dialog"]');
        if (!d) return 'gone';
        const busy = [...d.querySelectorAll('button')].some((b) => b.textContent.includes('Uploading'));
        if (busy) return 'busy';
        return /fail|error|could not/i.test(d.textContent) ? 'failed: ' + d.textContent : 'idle';
      })()`);
      if (state === 'gone') break;
      if (state.startsWith('failed')) throw new Error(`the upload ${state.slice(0, 500)}`);
      if (i % 40 === 0) console.log(`  upload: ${state} after ${(i / 4).toFixed(0)} s`);
      if (Date.now() > end) throw new Error('the upload timed out');
    }
    await dt.until(
      `!!document.querySelector('[aria-label="Download ${inputs[0]!.name}"]')`,
      60_000,
    );
    return TOTAL;
  });

  const listed = (await (
    await fetch(`${base}/api/vaults/${vaultId}/files`, { headers: { cookie: app.cookie } })
  ).json()) as { files: { id: string; ciphertext_size: number }[] };
  if (listed.files.length !== FILES) throw new Error(`${listed.files.length} files uploaded`);
  const cipherBytes = listed.files.reduce((n, f) => n + f.ciphertext_size, 0);
  const predicted = Number(predictLength(inputs.map((f) => ({ name: f.name, size: f.size }))));
  console.log(
    `${FILES} files, ${TOTAL} bytes of plaintext, ${cipherBytes} of ciphertext (padded); the ZIP should be ${predicted} bytes`,
  );
  const heading = `${FILES} files`;
  await dt.until(
    `document.querySelector('#files-title + p')?.textContent.trim() === ${JSON.stringify(heading)}`,
    30_000,
  );

  /** "Select all", then "Download as ZIP"; answers once the writable is closed. */
  const zipDownload = async () => {
    const w = window as unknown as {
      __saved: { bytes: number }[];
      __savedNext: (() => void) | null;
    };
    // The checkbox inside the label "Select all".
    const all = [...document.querySelectorAll('label')]
      .find((l) => l.textContent?.trim() === 'Select all')
      ?.querySelector('input');
    if (!all) throw new Error('no "Select all"');
    if (!all.checked) all.click();
    const bar = await new Promise<Element>((resolve) => {
      const look = () => {
        const b = document.querySelector('[role="region"][aria-label="Selected files"]');
        if (b) resolve(b);
        else requestAnimationFrame(look);
      };
      look();
    });
    const button = [...bar.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Download as ZIP',
    );
    if (!button) throw new Error(`no "Download as ZIP" in: ${bar.textContent}`);
    const saved = new Promise<void>((resolve) => (w.__savedNext = resolve));
    const t0 = performance.now();
    button.click();
    let over = false;
    const failed = new Promise<never>((_, reject) => {
      const watch = () => {
        const toast = document.querySelector('[data-sonner-toast][data-type="error"]');
        if (toast) reject(new Error(toast.textContent ?? 'error'));
        else if (!over) setTimeout(watch, 500);
      };
      watch();
    });
    await Promise.race([saved, failed]).finally(() => (over = true));
    const ms = performance.now() - t0;
    w.__savedNext = null;
    all.click(); // the selection cleared
    return { ...w.__saved.at(-1)!, ms };
  };

  /** Each file's own "Download {name}" button, one after the other; answers the Blobs' sizes. */
  const oneByOne = async (names: string[], revokeNow: boolean) => {
    const w = window as unknown as {
      __blobs: number[];
      __blobNext: (() => void) | null;
      __revokeNow: boolean;
    };
    w.__revokeNow = revokeNow;
    const from = w.__blobs.length;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const find = (name: string) =>
      document.querySelector<HTMLButtonElement>(`button[aria-label="Download ${name}"]`);
    window.scrollTo(0, 0);
    // The virtual list renders the rows of the new scroll position a frame or two later.
    for (let i = 0; !find(names[0]!); i++) {
      if (i > 120) throw new Error(`no row for ${names[0]} at the top`);
      await frame();
    }
    const each: number[] = [];
    const t0 = performance.now();
    for (const name of names) {
      // In the list's order: scrolled down (every third frame) until the file's row is there.
      let button = find(name);
      for (let i = 0; !button; i++) {
        if (i > 600) throw new Error(`no row for ${name}`);
        if (i % 3 === 2) window.scrollBy(0, 300);
        await frame();
        button = find(name);
      }
      const saved = new Promise<void>((resolve, reject) => {
        w.__blobNext = resolve;
        setTimeout(() => reject(new Error(`${name} not saved in 120 s`)), 120_000);
      });
      const t = performance.now();
      button.click();
      await saved;
      each.push(performance.now() - t);
    }
    const ms = performance.now() - t0;
    w.__blobNext = null;
    w.__revokeNow = false;
    return { sizes: w.__blobs.slice(from), ms, each };
  };

  const checkZip = (z: { name: string; bytes: number; head: number[]; tail: string }) => {
    if (z.name !== `${VAULT_NAME}.zip`) throw new Error(`ZIP named ${z.name}`);
    if (z.bytes !== predicted) throw new Error(`ZIP of ${z.bytes} bytes, predicted ${predicted}`);
    if (Buffer.from(z.head).readUInt32LE(0) !== 0x04034b50) throw new Error('no local header');
    const entries = readCentralDirectory(Buffer.from(z.tail, 'base64'), z.bytes);
    const byName = new Map(inputs.map((f) => [f.name, f]));
    if (entries.length !== FILES) throw new Error(`${entries.length} entries`);
    for (const e of entries) {
      const f = byName.get(e.name);
      if (!f || f.size !== e.size || f.crc !== e.crc)
        throw new Error(`entry ${e.name}: ${e.size} bytes, CRC ${e.crc}`);
      byName.delete(e.name);
    }
  };
  const names = inputs.map((f) => f.name);
  const checkBlobs = (sizes: number[]) => {
    if (sizes.length !== FILES || sizes.some((s, i) => s !== inputs[i]!.size))
      throw new Error(`Blobs of ${sizes.length} files, sizes ${sizes.slice(0, 5).join(', ')}...`);
    return sizes.reduce((n, s) => n + s, 0);
  };
  const inPage: Record<string, number> = {};
  /** One by one: each file's click → its Blob's URL made, ms. */
  const perFile: Record<string, number[]> = {};

  for (let run = 1; run <= RUNS; run++) {
    await measure(`run ${run}: plain download (ciphertext, dropped)`, () =>
      dt.evaluate<number>(`(${plainDownloadInPage.toString()})(${JSON.stringify(vaultId)})`),
    );
    await measure(`run ${run}: ZIP ("Download as ZIP", to the save dialog)`, async () => {
      const z = await dt.evaluate<{
        name: string;
        bytes: number;
        head: number[];
        tail: string;
        ms: number;
      }>(`(${zipDownload.toString()})()`);
      checkZip(z);
      inPage[`zip ${run}`] = z.ms;
      return z.bytes;
    });
    await measure(`run ${run}: one by one, URLs revoked at once`, async () => {
      const r = await dt.evaluate<{ sizes: number[]; ms: number; each: number[] }>(
        `(${oneByOne.toString()})(${JSON.stringify(names)}, true)`,
      );
      inPage[`now ${run}`] = r.ms;
      perFile[`now ${run}`] = r.each;
      return checkBlobs(r.sizes);
    });
    const downloaded = inDownloads().length - downloadsBefore;
    if (downloaded)
      throw new Error(`${downloaded} files reached ~/Downloads: downloads not denied`);
    await measure(
      `run ${run}: one by one, as the app (URLs revoked after 60 s)`,
      async () => {
        const r = await dt.evaluate<{ sizes: number[]; ms: number; each: number[] }>(
          `(${oneByOne.toString()})(${JSON.stringify(names)}, false)`,
        );
        inPage[`app ${run}`] = r.ms;
        perFile[`app ${run}`] = r.each;
        return checkBlobs(r.sizes);
      },
      65_000,
    );
  }
  clearInterval(sampler);
  dt.close();
  console.log(
    `\nend ${new Date().toISOString()} load ${loadavg()}; ${MIB} MiB in ${FILES} files, ${RUNS} run(s)`,
  );
  console.log(
    `in-page times (click → last byte saved): ${Object.entries(inPage)
      .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
  for (const [k, xs] of Object.entries(perFile))
    console.log(
      `one by one (${k}), click → Blob URL per file: p50 ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms; clicks and scrolling between files ${((inPage[k]! - xs.reduce((a, b) => a + b, 0)) / 1000).toFixed(1)} s in all`,
    );
  console.log(
    '| step | time (s) | MB/s | Chromium RSS before (MiB) | peak (MiB) | growth (MiB / MB) | 3 s after (MiB) | after a GC (MiB) | page heap / ArrayBuffers peak (MiB) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const growth = r.peak - r.before;
    console.log(
      `| ${r.name} | ${r.seconds.toFixed(1)} | ${(r.bytes / 1e6 / r.seconds).toFixed(1)} | ${r.before.toFixed(0)} | ${r.peak.toFixed(0)} | +${growth.toFixed(0)} / +${((growth * 2 ** 20) / 1e6).toFixed(0)} | ${r.after.toFixed(0)} | ${r.afterGc.toFixed(0)}${r.later === undefined ? '' : ` (65 s: ${r.later.toFixed(0)})`} | ${r.heap.toFixed(0)} / ${r.backing.toFixed(0)} |`,
    );
  }
  const worst = Math.max(
    ...rows.filter((r) => r.name.includes('ZIP')).map((r) => r.peak - r.before),
  );
  console.log(
    `largest growth during a ZIP: +${worst.toFixed(0)} MiB = ${((worst * 2 ** 20) / 1e6).toFixed(0)} MB (limit 200 MB: ${(worst * 2 ** 20) / 1e6 < 200 ? 'met' : 'NOT met'})`,
  );
} finally {
  clearInterval(sampler);
  closeBrowserSession();
  browser?.kill('SIGKILL');
  await app.stop();
}
