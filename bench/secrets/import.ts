// Benchmark (issue 20): importing 10,000 Bitwarden JSON items into a secrets vault, from choosing
// the file to a searchable list, in Chromium through the real UI and server (target: under 10 s).
// Starts the real server on a free port with a throwaway data dir, makes an empty secrets vault
// through the API, unlocks it in the built web app, then per run: chooses the file in the import
// dialog, presses Continue (parse and preview), presses Import (every item encrypted in the crypto
// Workers, one bulk request with the next manifest) and waits until a search finds the last item.
// Each run imports into a fresh vault (the previous one deleted), so every run starts empty.
// Run: npm run build -w @sealvault/web && node --import tsx bench/secrets/import.ts [count] [runs]
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startApp, typeVaultPassword } from '../shared/app.ts';
import { bitwardenJson, seedVault } from './seed.ts';

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
    const unlock = await typeVaultPassword(page, vaultId, PASSWORD);
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await unlock.waitFor({ state: 'hidden', timeout: 60_000 });
    await page.getByText('0 encrypted secrets').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import secrets' });
    const input = dialog.getByLabel('File to import');
    await input.waitFor({ state: 'attached' });

    const t0 = performance.now();
    await input.setInputFiles({
      name: 'bitwarden_export.json',
      mimeType: 'application/json',
      buffer: file,
    });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const confirm = dialog.getByRole('button', { name: `Import ${COUNT} items` });
    await confirm.waitFor({ timeout: 60_000 });
    const t1 = performance.now();
    await confirm.click();
    await dialog.waitFor({ state: 'hidden', timeout: 120_000 });
    const t2 = performance.now();
    await page.getByText(`${COUNT} encrypted secrets`).waitFor({ timeout: 60_000 });
    await page.getByRole('searchbox', { name: 'Search secrets' }).fill(`user${COUNT - 1}@`);
    await page
      .getByRole('article', { name: `Site ${COUNT - 1}`, exact: true })
      .waitFor({ timeout: 60_000 });
    const t3 = performance.now();
    results.push({ preview: t1 - t0, stored: t2 - t0, searchable: t3 - t0 });
    console.log(
      `run ${run + 1}: preview ${Math.round(t1 - t0)} ms, stored ${Math.round(t2 - t0)} ms, searchable ${Math.round(t3 - t0)} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
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
