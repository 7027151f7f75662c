// Benchmark: with 5,000 secrets, the time from pressing Unlock to a searchable list, in Chromium
// (issue: under one second). Starts the real server on a free port with a throwaway data dir,
// seeds an account through the API, then drives the built web app.
// Run: npm run build -w @sealvault/web && node --import tsx bench/secrets/run.ts [count] [runs]
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startApp, typeVaultPassword } from '../shared/app.ts';
import { seedVault } from './seed.ts';

const COUNT = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 5);
const PASSWORD = 'bench-vault-password';

const app = await startApp('secrets');
const { base, cookie } = app;
try {
  const seedStart = performance.now();
  const vaultId = await seedVault(base, cookie, {
    name: 'Bench',
    type: 'secrets',
    password: PASSWORD,
    secrets: COUNT,
  });
  console.log(`seeded ${COUNT} secrets in ${Math.round(performance.now() - seedStart)} ms`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ctx = await browser.newContext({ baseURL: base });
  await app.signIn(ctx);
  const results: { unlock: number; list: number; search: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await ctx.newPage();
    const dialog = await typeVaultPassword(page, vaultId, PASSWORD);
    const t0 = performance.now();
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 });
    const t1 = performance.now();
    await page.getByText(`${COUNT} encrypted secrets`).waitFor({ timeout: 60_000 });
    await page.getByRole('article').first().waitFor();
    const t2 = performance.now();
    await page.getByRole('searchbox', { name: 'Search secrets' }).fill(`user${COUNT - 1}@`);
    await page.getByRole('article', { name: `Account ${COUNT - 1}` }).waitFor();
    const t3 = performance.now();
    results.push({ unlock: t1 - t0, list: t2 - t0, search: t3 - t2 });
    await page.close();
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (k: keyof (typeof results)[number]) =>
    `${k}: median ${Math.round(median(results.map((r) => r[k])))} ms (runs: ${results.map((r) => Math.round(r[k])).join(', ')})`;
  console.log(`secrets=${COUNT} runs=${RUNS} cores=${os.cpus().length}`);
  console.log(line('unlock'));
  console.log(line('list'));
  console.log(line('search'));
} finally {
  await app.stop();
}
