// Benchmark (issue 20): importing 10,000 Bitwarden JSON items into a secrets vault, from choosing
// the file to a searchable list, in Chromium through the real UI and server (target: under 10 s).
// Starts the real server on a free port with a throwaway data dir, makes an empty secrets vault
// through the API, unlocks it in the built web app, then per run: chooses the file in the import
// dialog, presses Continue (parse and preview), presses Import (every item encrypted in the crypto
// Workers, one bulk request with the next manifest) and waits until a search finds the last item.
// Each run imports into a fresh vault (the previous one deleted), so every run starts empty. The
// dialog's steps are bench/secrets/wizard.ts's, the ones provider.ts times too.
// Run: npm run build -w @sealvault/web && node --import tsx bench/secrets/import.ts [count] [runs]
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startApp } from '../shared/app.ts';
import { bitwardenJson, seedVault } from './seed.ts';
import { importItems, unlockEmpty } from './wizard.ts';

const COUNT = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 3);
const PASSWORD = 'bench-vault-password';

const app = await startApp('import');
const { base, cookie } = app;
try {
  const file = bitwardenJson(COUNT);
  console.log(`file: ${COUNT} items, ${(file.length / 1e6).toFixed(1)} MB`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ctx = await browser.newContext({ baseURL: base });
  await app.signIn(ctx);
  const results: { preview: number; stored: number; searchable: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const vaultId = await seedVault(base, cookie, {
      name: `Import ${run}`,
      type: 'secrets',
      password: PASSWORD,
      secrets: 0,
    });
    const page = await ctx.newPage();
    await unlockEmpty(page, vaultId, PASSWORD);
    const r = await importItems(page, file, COUNT);
    results.push(r);
    console.log(
      `run ${run + 1}: preview ${Math.round(r.preview)} ms, stored ${Math.round(r.stored)} ms, searchable ${Math.round(r.searchable)} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    await page.close();
    // Free holds one secrets vault: this run's goes before the next run makes its own.
    const del = await fetch(`${base}/api/vaults/${vaultId}`, {
      method: 'DELETE',
      headers: { origin: base, cookie },
    });
    if (!del.ok) throw new Error(`delete vault: ${del.status}`);
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (k: keyof (typeof results)[number]) =>
    `${k}: median ${Math.round(median(results.map((r) => r[k])))} ms (runs: ${results.map((r) => Math.round(r[k])).join(', ')})`;
  console.log(
    `items=${COUNT} runs=${RUNS} cores=${os.cpus().length} load=${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(line('preview'));
  console.log(line('stored'));
  console.log(line('searchable'));
} finally {
  await app.stop();
}
