// Benchmark (issue 27, "Move a vault to another provider"): a files vault holding 1 GiB moved from
// our server to "This browser" (OPFS) and to an emulated Dropbox (e2e/emulators), through the real
// dialog in Chromium, beside a plain download of the same bytes in the same run. Target: the
// browser's memory grows by less than 200 MB during a move.
//
// Starts the Dropbox emulator and the real server configured with it on loopback ports 4900-4999
// (as bench/secrets/provider.ts), signs an account up (Unlimited plan), seeds a files vault on our
// server, starts Debian's Chromium with a DevTools port, connects Dropbox in Settings and uploads
// BENCH_FILES (4) files of random bytes, [MiB] in all, through the upload dialog (measured too).
// Then, per run, with the vault on our server:
//   - plain download: the page fetches each file's ciphertext from the server's content endpoint
//     (the request the move's source makes), one file after the other, and drops the bytes;
//   - the round (BENCH_ROUND, ending on our server): the vault moved to This browser, back to our
//     server, to Dropbox, back to our server. Each move: "Move vault" clicked → the dialog says
//     "The vault is now on ..."; then the vault's record, the file list, OPFS and the emulator are
//     checked: the target holds every byte of ciphertext, the old provider nothing.
// Before the first run and after the last, the app's own decrypted download of every file (into
// a File System Access writable that only counts: AES-GCM authenticates every chunk, so the right
// count proves the bytes came through intact); it needs files of 50 MiB or more.
//
// As in bench/upload, Playwright only sets the scene (sign-in, Dropbox, unlock, the dialog opened
// and its target chosen) and disconnects: attached, it copies every in-memory request body over
// the DevTools pipe (the Dropbox upload's 8 MiB pieces), which would measure Playwright. The
// measured steps run over a bare DevTools connection. RSS is the sum over all Chromium processes
// from /proc, sampled every 200 ms: growth = the peak during a step minus the value just before it
// (taken after a garbage collection of the page). After each step: the RSS 3 s later, and after
// another collection (what the step left held, as opposed to not yet collected).
// BENCH_HEAP=1 also polls the page's JS heap and ArrayBuffer backing stores during each step.
// Run: npm run build -w @sealvault/web &&
//      node --experimental-websocket --import tsx bench/move/run.ts [MiB] [runs]
import type { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { seedVault } from '../secrets/seed.ts';
import {
  chromiumWithDevtools,
  freePort,
  portIn,
  sleep,
  startApp,
  startDropboxEmulator,
  dropboxEnv,
  loadavg,
  withPageOver,
  plainDownloadInPage,
} from '../shared/app.ts';
import { devtools } from '../shared/devtools.ts';
import { cpuDelta, rssByKind, rssMiB, treeCpu, treeRssMiB } from '../shared/procs.ts';

const MIB = Number(process.argv[2] ?? 1024);
const RUNS = Number(process.argv[3] ?? 1);
const FILES = Number(process.env.BENCH_FILES ?? 4);
const FILE_BYTES = Math.floor((MIB * 1024 * 1024) / FILES);
const PASSWORD = 'bench-vault-password';
// Below this the app saves a download through a Blob, not the writable stubbed here
// (BLOB_DOWNLOAD_LIMIT in apps/web/src/files/transfer/download.ts).
const APP_DOWNLOAD = FILE_BYTES >= 50 * 1024 * 1024;

type Target = 'server' | 'local' | 'dropbox';
const SHOWN: Record<Target, string> = {
  server: 'SealVault storage',
  local: 'This browser',
  dropbox: 'Dropbox',
};
// BENCH_ROUND=dropbox,server (say) for a shorter round; it must end on our server.
const ROUND = (process.env.BENCH_ROUND ?? 'local,server,dropbox,server').split(',') as Target[];
if (ROUND.at(-1) !== 'server' || ROUND.some((t) => !(t in SHOWN)))
  throw new Error('BENCH_ROUND: local, dropbox or server, ending on server');
// The page's JS heap and ArrayBuffer backing stores (Runtime.getHeapUsage), its Workers' not
// included.
const HEAP = process.env.BENCH_HEAP === '1';

/** CPU seconds (user + system) of one process so far. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** Writes `bytes` of random data (not one repeated block), on disk before anything is measured. */
function writeFile(file: string, bytes: number) {
  const fd = fs.openSync(file, 'w');
  const block = randomBytes(4 * 1024 * 1024);
  for (let done = 0; done < bytes;) {
    const n = Math.min(block.length, bytes - done);
    block.writeUInt32LE(done >>> 0, 0);
    block.writeUInt32LE(Math.floor(done / 2 ** 32), 4);
    fs.writeSync(fd, block, 0, n);
    done += n;
  }
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

console.log(`start ${new Date().toISOString()} load ${loadavg()} cores ${os.cpus().length}`);

// The Dropbox emulator (it keeps every file in its memory; its default quota is 2 GiB).
const dropboxPort = await portIn(4900, 4999);
const emulator = await startDropboxEmulator(dropboxPort);
const dropbox = `http://127.0.0.1:${dropboxPort}`;
const app = await startApp('move', {
  port: await portIn(4900, 4999, [dropboxPort]),
  env: dropboxEnv(dropbox),
});
const { base, dataDir } = app;
const debugPort = await freePort();
let browser: ReturnType<typeof spawn> | undefined;
let sampler: ReturnType<typeof setInterval> | undefined;

interface Row {
  name: string;
  bytes: number;
  seconds: number;
  before: number;
  peak: number;
  after: number;
  afterGc: number;
  kinds: string;
  cpu: string;
  load: string;
}
const rows: Row[] = [];

try {
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  // Room for the vault and more, whatever the size asked for.
  const quota = await fetch(`${dropbox}/__emulator/quota`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bytes: Math.max(2048, 2 * MIB + 512) * 1024 * 1024 }),
  });
  if (!quota.ok) throw new Error(`emulator quota: ${quota.status}`);
  const vaultId = await seedVault(base, app.cookie, {
    name: 'Bench move',
    type: 'files',
    password: PASSWORD,
  });
  const inputs = Array.from({ length: FILES }, (_, i) => path.join(dataDir, `move-${i + 1}.bin`));
  for (const f of inputs) writeFile(f, FILE_BYTES);

  let wsUrl: string;
  ({ proc: browser, wsUrl } = await chromiumWithDevtools(debugPort, path.join(dataDir, 'profile')));

  /** Playwright attached for `fn` only, on the app's page; it disconnects after. */
  const withPage = <T>(fn: (page: Page) => Promise<T>): Promise<T> => withPageOver(wsUrl, base, fn);

  // The scene: signed in, Dropbox connected, the vault unlocked, the upload dialog open.
  await withPage(async (page) => {
    const ctx = page.context();
    await app.signIn(ctx);
    // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one.
    await ctx.addInitScript('window.__name = (f) => f;');
    // The app's download goes here: a writable that counts the bytes and keeps none.
    await ctx.addInitScript(() => {
      const w = window as unknown as { showSaveFilePicker: unknown; __saved: number[] };
      w.__saved = [];
      w.showSaveFilePicker = () =>
        Promise.resolve({
          createWritable: () => {
            let bytes = 0;
            return Promise.resolve(
              new WritableStream<Uint8Array>({
                write: (chunk) => void (bytes += chunk.length),
                close: () => void w.__saved.push(bytes),
              }),
            );
          },
        });
    });
    await page.goto(`${base}/dashboard?view=settings`);
    const card = page
      .getByRole('region', { name: 'Cloud Storage Settings' })
      .getByRole('region', { name: 'Dropbox', exact: true });
    // The emulator's authorize page approves at once and the popup closes itself.
    await card.getByRole('button', { name: 'Connect' }).click();
    await card.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
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
    files: inputs,
    objectId: picker.result?.result?.objectId,
  });
  await dt.until(
    `document.querySelectorAll('[aria-label="Selected files"] li').length === ${FILES}`,
    10_000,
  );
  const clickIn = (label: string) =>
    dt.evaluate(`(() => {
      const b = [...document.querySelector('[role="dialog"]').querySelectorAll('button')]
        .find((b) => b.textContent.trim() === ${JSON.stringify(label)});
      if (!b || b.disabled) throw new Error('no enabled ${label} button');
      b.click();
    })()`);
  // RSS sampling: the peak per step, all Chromium processes summed; the emulator's beside.
  let phase = 'idle';
  const peaks: Record<string, number> = {};
  let emulatorPeak = 0;
  const sample = () => {
    peaks[phase] = Math.max(peaks[phase] ?? 0, treeRssMiB(process.pid));
    emulatorPeak = Math.max(emulatorPeak, rssMiB(emulator.pid ?? -1));
  };
  sampler = setInterval(sample, 200);
  const cpuNow = () => {
    const c = treeCpu(process.pid);
    // treeCpu counts every node process as the server: the emulator is apart.
    const emu = cpuOf(emulator.pid ?? -1);
    return { ...c, server: (c.server ?? 0) - emu, emulator: emu };
  };

  /** Runs one measured step (`run` answers the bytes it carried) and records its row. */
  const measure = async (name: string, run: () => Promise<number>) => {
    // The baseline: what the last step left settled (timers, the list refetch), and the page's
    // garbage collected, so that the growth is not hidden by a collection of the last step's.
    await sleep(1000);
    await dt.send('HeapProfiler.collectGarbage', {});
    await sleep(1000);
    for (const k of Object.keys(rssByKind)) delete rssByKind[k];
    const before = treeRssMiB(process.pid);
    const kindsBefore = { ...rssByKind };
    for (const k of Object.keys(rssByKind)) delete rssByKind[k];
    const load = loadavg();
    const c0 = cpuNow();
    phase = name;
    const heap = { used: 0, backing: 0 };
    let polling = HEAP;
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
    const start = performance.now();
    const bytes = await run();
    const seconds = (performance.now() - start) / 1000;
    sample();
    phase = 'idle';
    polling = false;
    await heapPoll;
    const c1 = cpuNow();
    const kinds = Object.entries(rssByKind)
      .filter(([k, v]) => Math.abs(v - (kindsBefore[k] ?? 0)) >= 1)
      .map(([k, v]) => `${k} ${(v - (kindsBefore[k] ?? 0)).toFixed(0)}`)
      .join(', ');
    await sleep(3000);
    const after = treeRssMiB(process.pid);
    // What stays once the page's garbage is collected: held, not merely not yet collected.
    await dt.send('HeapProfiler.collectGarbage', {});
    await sleep(1000);
    const afterGc = treeRssMiB(process.pid);
    const row = {
      name,
      bytes,
      seconds,
      before,
      peak: peaks[name] ?? before,
      after,
      afterGc,
      kinds,
      cpu: cpuDelta(c0, c1),
      load,
    };
    rows.push(row);
    console.log(
      `${name}: ${seconds.toFixed(1)} s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s; Chromium RSS ${before.toFixed(0)} → peak ${row.peak.toFixed(0)} (+${(row.peak - before).toFixed(0)} MiB; by kind ${kinds}), ${after.toFixed(0)} 3 s after, ${afterGc.toFixed(0)} after a GC; CPU ${row.cpu}; load ${load}${HEAP ? `; page heap peak ${(heap.used / 2 ** 20).toFixed(0)} MiB, ArrayBuffers ${(heap.backing / 2 ** 20).toFixed(0)} MiB` : ''}`,
    );
  };

  const names = inputs.map((f) => path.basename(f));
  await measure('upload through the dialog (encrypted, tus)', async () => {
    await clickIn('Upload');
    await dt.until(`!document.querySelector('[role="dialog"]')`, 1_800_000);
    // The list is virtualised: the first row stands for the rest, which the API lists below.
    await dt.until(`!!document.querySelector('[aria-label="Download ${names[0]}"]')`, 60_000);
    return FILES * FILE_BYTES;
  });

  const api = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${base}${p}`, { headers: { cookie: app.cookie } });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return (await res.json()) as T;
  };
  const listed = await api<{ files: { id: string; ciphertext_size: number }[] }>(
    `/api/vaults/${vaultId}/files`,
  );
  if (listed.files.length !== FILES) throw new Error(`${listed.files.length} files uploaded`);
  const cipherBytes = listed.files.reduce((n, f) => n + f.ciphertext_size, 0);
  console.log(
    `${FILES} files of ${FILE_BYTES} bytes: ${FILES * FILE_BYTES} bytes of plaintext, ${cipherBytes} of ciphertext (what a move and the plain download carry)`,
  );

  /** The app's download button of every file, one after the other; answers plaintext bytes. */
  const appDownload = async () => {
    const saved = await dt.evaluate<number>('window.__saved.length');
    for (const [i, n] of names.entries()) {
      // The list is virtualised: scrolled until the file's row is there.
      await dt.evaluate(`(async () => {
        window.scrollTo(0, 0);
        for (let i = 0; i < 100; i++) {
          const b = document.querySelector('[aria-label="Download ${n}"]');
          if (b) return b.click();
          window.scrollBy(0, 200);
          await new Promise((r) => requestAnimationFrame(r));
        }
        throw new Error('no row for ${n}');
      })()`);
      await dt.until(`window.__saved.length > ${saved + i}`, 1_800_000);
    }
    const counts = await dt.evaluate<number[]>(`window.__saved.slice(${saved})`);
    if (counts.some((c) => c !== FILE_BYTES))
      throw new Error(`decrypted downloads of ${counts.join(', ')} bytes, expected ${FILE_BYTES}`);
    return FILES * FILE_BYTES;
  };

  /** Where the vault's blobs are now: checked after each move. */
  const check = async (target: Target) => {
    const { vault } = await api<{ vault: { provider_type: string } }>(`/api/vaults/${vaultId}`);
    if (vault.provider_type !== target)
      throw new Error(`the vault is on ${vault.provider_type}, expected ${target}`);
    const inDropbox = (
      (await (await fetch(`${dropbox}/__emulator/files`)).json()) as { files: { size: number }[] }
    ).files;
    const inOpfs = await dt.evaluate<number[]>(`(async () => {
      const root = await navigator.storage.getDirectory();
      const sizes = [];
      try {
        const dir = await (await root.getDirectoryHandle('vaults')).getDirectoryHandle(${JSON.stringify(vaultId)});
        for await (const [, h] of dir.entries()) if (h.kind === 'file') sizes.push((await h.getFile()).size);
      } catch { /* no folder: nothing here */ }
      return sizes;
    })()`);
    const onServer = (
      await api<{ files: { ciphertext_size: number }[] }>(`/api/vaults/${vaultId}/files`)
    ).files;
    const total = (sizes: number[]) => sizes.reduce((n, s) => n + s, 0);
    const want = { dropbox: 0, local: 0, [target]: cipherBytes };
    const got = {
      dropbox: total(inDropbox.map((f) => f.size)),
      local: total(inOpfs),
    };
    if (got.dropbox !== want.dropbox || got.local !== want.local)
      throw new Error(
        `after the move to ${target}: Dropbox holds ${got.dropbox} bytes, This browser ${got.local}`,
      );
    if (onServer.length !== FILES || total(onServer.map((f) => f.ciphertext_size)) !== cipherBytes)
      throw new Error(`after the move to ${target}: the file list changed`);
  };

  if (APP_DOWNLOAD) await measure('app download (decrypted), before', appDownload);
  let from: Target = 'server';
  for (let run = 1; run <= RUNS; run++) {
    await measure(`run ${run}: plain download (server)`, () =>
      dt.evaluate<number>(`(${plainDownloadInPage.toString()})(${JSON.stringify(vaultId)})`),
    );
    for (const target of ROUND) {
      // Playwright opens the dialog and picks the target; the click and the wait are bare.
      await withPage(async (page) => {
        await page.getByRole('button', { name: 'Vault menu' }).click();
        await page.getByRole('menuitem', { name: 'Move to another provider' }).click();
        const dialog = page.getByRole('dialog', { name: 'Move to another provider' });
        await dialog.getByRole('radio', { name: SHOWN[target] }).check();
        await dialog.getByRole('button', { name: 'Move vault' }).waitFor();
        await page.waitForFunction(() =>
          [...document.querySelectorAll('[role="dialog"] button')].some(
            (b) => b.textContent?.trim() === 'Move vault' && !(b as HTMLButtonElement).disabled,
          ),
        );
      });
      const done = `The vault is now on ${SHOWN[target]}.`;
      await measure(`run ${run}: move ${SHOWN[from]} → ${SHOWN[target]}`, async () => {
        await clickIn('Move vault');
        const end = Date.now() + 1_800_000;
        for (;;) {
          const state = await dt.evaluate<string>(`(() => {
            const d = document.querySelector('[role="dialog"]');
            if (!d) return 'gone';
            if (d.textContent.includes(${JSON.stringify(done)})) return 'done';
            return d.querySelector('[role="alert"]')?.textContent ?? '';
          })()`);
          if (state === 'done') break;
          if (state) throw new Error(`move to ${target}: ${state}`);
          if (Date.now() > end) throw new Error(`move to ${target}: timed out`);
          await sleep(100);
        }
        return cipherBytes;
      });
      await clickIn('Done');
      await dt.until(`!document.querySelector('[role="dialog"]')`, 10_000);
      await check(target);
      from = target;
    }
  }
  if (APP_DOWNLOAD) await measure('app download (decrypted), after', appDownload);
  clearInterval(sampler);
  dt.close();

  console.log(
    `\nend ${new Date().toISOString()} load ${loadavg()}; ${MIB} MiB in ${FILES} files, ${RUNS} run(s)`,
  );
  console.log(
    '| step | time (s) | MB/s | Chromium RSS before (MiB) | peak (MiB) | growth (MiB / MB) | 3 s after (MiB) | after a GC (MiB) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const growth = r.peak - r.before;
    console.log(
      `| ${r.name} | ${r.seconds.toFixed(1)} | ${(r.bytes / 1e6 / r.seconds).toFixed(1)} | ${r.before.toFixed(0)} | ${r.peak.toFixed(0)} | +${growth.toFixed(0)} / +${((growth * 1024 * 1024) / 1e6).toFixed(0)} | ${r.after.toFixed(0)} | ${r.afterGc.toFixed(0)} |`,
    );
  }
  const worst = Math.max(
    ...rows.filter((r) => r.name.includes('move')).map((r) => r.peak - r.before),
  );
  console.log(
    `largest growth during a move: +${worst.toFixed(0)} MiB = ${((worst * 1024 * 1024) / 1e6).toFixed(0)} MB (limit 200 MB: ${(worst * 1024 * 1024) / 1e6 < 200 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `Dropbox emulator RSS peak: ${emulatorPeak.toFixed(0)} MiB (it holds the files in memory)`,
  );
} finally {
  clearInterval(sampler);
  browser?.kill('SIGKILL');
  emulator.kill('SIGTERM');
  await app.stop();
}
