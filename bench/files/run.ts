// Benchmark (issue 6): a file vault with 10,000 files stays smooth. Seeds 10,000 file records
// (metadata encrypted by the same crypto package in Node, written straight into the database:
// the list never reads blobs), then in Chromium, through the built app and the real server:
// Unlock pressed -> the count and the first row shown; how many rows the DOM holds (the list is
// virtualised); and frame times while the window scrolls the whole list, in list and grid view.
// Run: npm run build -w @sealvault/web && node --import tsx bench/files/run.ts [count] [runs]
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { asFileId } from '@sealvault/crypto';
import { seedVaultWithKeys } from '../secrets/seed.ts';
import { CHROMIUM, CHROMIUM_ARGS, startApp, typeVaultPassword } from '../shared/app.ts';

const COUNT = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 3);
const PASSWORD = 'bench-vault-password';

/** Scrolls the window from top to bottom in `ms`, one step a frame; returns the frame times. */
async function scrollFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(async (duration) => {
    window.scrollTo(0, 0);
    await new Promise((r) => requestAnimationFrame(r));
    const end = document.documentElement.scrollHeight - window.innerHeight;
    const frames: number[] = [];
    const t0 = performance.now();
    let last = t0;
    for (;;) {
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      frames.push(now - last);
      last = now;
      const f = Math.min(1, (now - t0) / duration);
      window.scrollTo(0, f * end);
      if (f >= 1) break;
    }
    return frames.slice(1);
  }, ms);
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const app = await startApp('files');
const { base, cookie } = app;
try {
  const {
    id: vaultId,
    client,
    session,
  } = await seedVaultWithKeys(base, cookie, {
    name: 'Bench',
    type: 'files',
    password: PASSWORD,
  });
  const seedStart = performance.now();
  const kinds = ['pdf', 'jpg', 'mp4', 'txt', 'mp3'];
  const mimes = ['application/pdf', 'image/jpeg', 'video/mp4', 'text/plain', 'audio/mpeg'];
  const rows: unknown[][] = [];
  for (let i = 0; i < COUNT; i++) {
    const id = randomUUID();
    const name = `document-${String(i).padStart(5, '0')}.${kinds[i % 5]}`;
    const size = 1000 + ((i * 7919) % 5_000_000);
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    rows.push([
      id,
      vaultId,
      await client.encryptMeta(session, asFileId(id), null, {
        name,
        mime: mimes[i % 5]!,
        size,
        modified: Date.parse(at),
      }),
      await client.lookupName(session, null, name),
      randomBytes(60).toString('base64'),
      size + 72 + 16 * Math.ceil(size / 262_144),
      randomBytes(32).toString('hex'),
      randomBytes(16).toString('hex'),
      at,
      at,
    ]);
  }
  app.withDb((db) => {
    const { user_id } = db.prepare('select user_id from vaults where id = ?').get(vaultId) as {
      user_id: string;
    };
    const insert = db.prepare(
      `insert into vault_files (id, vault_id, enc_meta, name_lookup, wrapped_key, ciphertext_size,
         checksum, blob_key, created_at, updated_at, user_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => rows.forEach((r) => insert.run(...r, user_id)))();
  });
  console.log(`seeded ${COUNT} files in ${Math.round(performance.now() - seedStart)} ms`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  await app.signIn(ctx);
  const shown: number[] = [];
  let report: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await ctx.newPage();
    const dialog = await typeVaultPassword(page, vaultId, PASSWORD);
    const t0 = performance.now();
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText(`${COUNT} files`, { exact: true }).waitFor({ timeout: 120_000 });
    await page.getByRole('list', { name: 'Files' }).getByRole('listitem').first().waitFor();
    shown.push(performance.now() - t0);
    if (run === RUNS - 1) {
      report = [];
      for (const view of ['List', 'Grid'] as const) {
        await page.getByRole('button', { name: `${view} view` }).click();
        await page.waitForTimeout(500);
        const frames = await scrollFrames(page, 5000);
        const nodes = await page.evaluate(
          () => document.querySelectorAll('[role="listitem"], [role="row"]').length,
        );
        report.push(
          `${view.toLowerCase()}: ${frames.length} frames in 5 s, frame time p50 ${pct(frames, 0.5).toFixed(1)} ms, p95 ${pct(frames, 0.95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms, ${frames.filter((f) => f > 50).length} frames over 50 ms; ${nodes} rows in the DOM`,
        );
      }
    }
    await page.close();
  }
  await browser.close();
  console.log(
    `files=${COUNT} runs=${RUNS} cores=${os.cpus().length} load=${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `Unlock pressed -> count and first row: median ${Math.round(pct(shown, 0.5))} ms (runs: ${shown.map(Math.round).join(', ')})`,
  );
  for (const line of report) console.log(line);
} finally {
  await app.stop();
}
