// Benchmark (issue 29, share links): a 1 GiB file shared from a files vault on our server, in
// Chromium, through the built app and the real server. Per run, in this order:
//   - owner's download: the file's "Download" button in the vault, decrypted to the save dialog;
//   - creating the link: "Share", then "Create link" in the dialog, until the link is shown (the
//     file is read from the vault's provider, decrypted, padded, encrypted again under the link's
//     own key, gathered into a Blob and sent to our server in one PUT; apps/web/src/shares/
//     makeShare.ts);
//   - the recipient's download: the link opened in a browser context of its own (no cookie),
//     "Download", decrypted to the save dialog as it streams (apps/web/src/shares/ShareScreen.tsx).
// The save dialog is the File System Access one, stubbed with a writable that keeps no bytes,
// only their count and a checksum, which must equal the input file's (bench/shared/sink.ts): both
// downloads are checked byte-identical. The floor beside them: the page fetching the vault file's
// ciphertext plain and dropping it. MB/s are 10^6 bytes of plaintext per second. Memory: the RSS
// of all Chromium processes from /proc, sampled every 200 ms; growth = the peak during a step minus
// the value just before it (after a garbage collection of the pages); "after" is 3 s after the
// step ended. The limit: the recipient's download grows the browser by under 200 MB.
//
// As in bench/upload, Playwright only sets the scene (sign-in, the stub, unlock, the upload
// dialog) and disconnects; the upload and the measured steps run over a bare DevTools connection.
// Run: npm run build -w @sealvault/web &&
//      node --experimental-websocket --import tsx bench/shares/run.ts [MiB] [runs]
import type { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { seedVault } from '../secrets/seed.ts';
import {
  chromiumWithDevtools,
  freePort,
  loadavg,
  plainDownloadInPage,
  sleep,
  startApp,
} from '../shared/app.ts';
import { devtools } from '../shared/devtools.ts';
import { treeRssMiB } from '../shared/procs.ts';
import { sinkScript, writeInputFile, type Saved } from '../shared/sink.ts';

const MIB = Number(process.argv[2] ?? 1024);
const RUNS = Number(process.argv[3] ?? 1);
const SIZE = MIB * 1024 * 1024;
// Below 50 MiB (BLOB_DOWNLOAD_LIMIT, apps/web/src/files/transfer/download.ts) both pages save
// through a Blob, not the save dialog stubbed here.
if (MIB < 50) throw new Error('the bench needs at least 50 MiB (the File System Access download)');
const PASSWORD = 'bench-vault-password';
const NAME = 'shared.bin';

console.log(`start ${new Date().toISOString()} load ${loadavg()} cores ${os.cpus().length}`);
const app = await startApp('shares');
let browser: ReturnType<typeof spawn> | undefined;
let sampler: ReturnType<typeof setInterval> | undefined;
try {
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const vaultId = await seedVault(app.base, app.cookie, {
    name: 'Bench shares',
    type: 'files',
    password: PASSWORD,
  });
  const input = path.join(app.dataDir, NAME);
  const inputSum = writeInputFile(input, SIZE, 4 * 1024 * 1024);
  const debugPort = await freePort();
  const started = await chromiumWithDevtools(debugPort, path.join(app.dataDir, 'profile'));
  browser = started.proc;
  const browserPid = browser.pid!;

  // The scene: signed in, the stub in every new document, the vault unlocked, the upload dialog.
  {
    const pw = await chromium.connectOverCDP(started.wsUrl);
    const ctx = pw.contexts()[0]!;
    await app.signIn(ctx);
    await ctx.addInitScript(sinkScript);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(`${app.base}/vault/${vaultId}`);
    const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
    await unlock.getByLabel('Vault password').fill(PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('No files in this vault').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.getByRole('dialog', { name: 'Upload Files' }).waitFor();
    await pw.close(); // disconnects; the browser and its page stay as they are
  }
  const owner = await devtools(debugPort, `/vault/${vaultId}`);
  await owner.setFile('[aria-label="Choose files to upload"]', input);
  await owner.until(
    `[...document.querySelectorAll('[role="dialog"] *')].some((e) => e.textContent === ${JSON.stringify(NAME)})`,
    10_000,
  );
  const t0 = performance.now();
  await owner.evaluate(`[...document.querySelectorAll('[role="dialog"] button')]
    .find((b) => b.textContent.trim() === 'Upload').click()`);
  await owner.until(`!document.querySelector('[role="dialog"]')`, 1_800_000);
  await owner.until(`!!document.querySelector('[aria-label="Download ${NAME}"]')`, 60_000);
  const uploadS = (performance.now() - t0) / 1000;
  console.log(`upload via the UI (not a figure of this bench): ${uploadS.toFixed(1)} s`);

  // The recipient's page: a browser context of its own (no cookie), the stub before any script.
  const top = new WebSocket(started.wsUrl);
  await new Promise((resolve, reject) => {
    top.onopen = resolve;
    top.onerror = reject;
  });
  let topId = 0;
  const topSend = (method: string, params: object) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const id = ++topId;
      top.addEventListener('message', function on(ev: MessageEvent<string>) {
        const msg = JSON.parse(ev.data) as {
          id: number;
          result: Record<string, string>;
          error?: { message: string };
        };
        if (msg.id !== id) return;
        top.removeEventListener('message', on);
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result);
      });
      top.send(JSON.stringify({ id, method, params }));
    });
  const { browserContextId } = await topSend('Target.createBrowserContext', {});
  const { targetId } = await topSend('Target.createTarget', {
    url: 'about:blank',
    browserContextId,
  });
  const recipient = await devtools(debugPort, targetId!);
  await recipient.send('Page.enable', {});
  await recipient.send('Page.addScriptToEvaluateOnNewDocument', { source: sinkScript });

  let phase = 'idle';
  const peaks: Record<string, number> = {};
  sampler = setInterval(() => {
    peaks[phase] = Math.max(peaks[phase] ?? 0, treeRssMiB(browserPid));
  }, 200);
  interface Row {
    step: string;
    seconds: number;
    growth: number;
    after: number;
  }
  const rows: Row[] = [];
  const gc = async () => {
    for (const dt of [owner, recipient]) await dt.send('HeapProfiler.collectGarbage', {});
    await sleep(1000);
  };
  const measure = async (step: string, run: () => Promise<void>) => {
    await gc();
    const before = treeRssMiB(browserPid);
    phase = step;
    peaks[step] = before;
    const t = performance.now();
    await run();
    const seconds = (performance.now() - t) / 1000;
    phase = 'idle';
    await sleep(3000);
    rows.push({
      step,
      seconds,
      growth: peaks[step] - before,
      after: treeRssMiB(browserPid) - before,
    });
  };
  const checkSaved = async (dt: typeof owner, what: string) => {
    const saved = await dt.evaluate<Saved>('window.__saved');
    if (saved.bytes !== SIZE) throw new Error(`${what}: ${saved.bytes} bytes, not ${SIZE}`);
    if (saved.sum !== inputSum) throw new Error(`${what}: the bytes differ from the file's`);
  };

  for (let run = 1; run <= RUNS; run++) {
    await measure('plain fetch of the ciphertext (owner)', async () => {
      await owner.evaluate(`(${plainDownloadInPage.toString()})(${JSON.stringify(vaultId)})`);
    });
    await owner.evaluate('window.__saved = undefined');
    await measure("owner's download", async () => {
      await owner.evaluate(`document.querySelector('[aria-label="Download ${NAME}"]').click()`);
      await owner.until('window.__saved !== undefined', 1_800_000);
    });
    await checkSaved(owner, "the owner's download");

    let url = '';
    await measure('creating the link', async () => {
      await owner.evaluate(`document.querySelector('[aria-label="Share ${NAME}"]').click()`);
      await owner.until(`!!document.getElementById('share-expiry')`, 10_000);
      await owner.evaluate(`[...document.querySelectorAll('[role="dialog"] button')]
        .find((b) => b.textContent.trim() === 'Create link').click()`);
      await owner.until(
        `/#[A-Za-z0-9_-]{43}$/.test(document.getElementById('share-url')?.value ?? '')`,
        1_800_000,
      );
      url = await owner.evaluate<string>(`document.getElementById('share-url').value`);
    });
    await owner.evaluate(`[...document.querySelectorAll('[role="dialog"] button')]
      .find((b) => b.textContent.trim() === 'Done').click()`);

    await recipient.send('Page.navigate', { url });
    await recipient.until(
      `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Download')`,
      60_000,
    );
    if (!(await recipient.evaluate<boolean>("typeof window.__wordSum === 'function'")))
      throw new Error("the save dialog's stub is not in the recipient's page");
    await measure("recipient's download", async () => {
      await recipient.evaluate(`[...document.querySelectorAll('button')]
        .find((b) => b.textContent.trim() === 'Download').click()`);
      await recipient.until('window.__saved !== undefined', 1_800_000);
    });
    await checkSaved(recipient, "the recipient's download");
    console.log(`run ${run} done ${new Date().toISOString()}`);
  }
  clearInterval(sampler);
  console.log(`size=${MIB} MiB runs=${RUNS} load=${loadavg()}`);
  const steps = [...new Set(rows.map((r) => r.step))];
  const fmt = (xs: number[], digits = 0) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0]!.toFixed(digits)} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)} / ${s.at(-1)!.toFixed(digits)}`;
  };
  console.log('| step | MB/s (min / median / max) | RSS growth, MiB | RSS 3 s after, MiB |');
  console.log('|---|---|---|---|');
  for (const step of steps) {
    const mine = rows.filter((r) => r.step === step);
    console.log(
      `| ${step} | ${fmt(mine.map((r) => SIZE / 1e6 / r.seconds))} | ${fmt(mine.map((r) => r.growth))} | ${fmt(mine.map((r) => r.after))} |`,
    );
  }
  owner.close();
  recipient.close();
  top.close();
} finally {
  if (sampler) clearInterval(sampler);
  browser?.kill('SIGKILL');
  await app.stop();
}
