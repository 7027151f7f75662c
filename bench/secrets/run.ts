// Benchmark: with 5,000 secrets, the time from pressing Unlock to a searchable list, in Chromium
// (issue: under one second). Starts the real server on a free port with a throwaway data dir,
// seeds an account through the API, then drives the built web app. Beside the figures seen from
// Node (Playwright polls, so they hold up to a few hundred ms of the bench's own waiting), the
// page times "searchable (in page)" itself: the Unlock click to the frame painted with the last
// item's card alone, the page typing the search as soon as the count shows
// (bench/shared/searchable.ts).
// Run: npm run build -w @sealvault/web && node --import tsx bench/secrets/run.ts [count] [runs]
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, loadavg, startApp, typeVaultPassword } from '../shared/app.ts';
import { allowNamedFunctionsInPage } from '../files/measure.ts';
import { searched } from '../shared/searchable.ts';
import { armSecretsSearch, secretsSearch } from './search.ts';
import { seedVault } from './seed.ts';

/**
 * ADR 0015: the browser keeps the secrets list and asks again with If-None-Match, so a page of
 * the same profile gets a 304 and the list from its HTTP cache. Each run clears the browser's
 * cache first (a browser that never listed the vault, as every figure before ADR 0015), unless
 * BENCH_SECRETS_CACHED=1: then every run after the first is a browser opening the vault again.
 */
const CACHED = process.env.BENCH_SECRETS_CACHED === '1';
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
  await allowNamedFunctionsInPage(ctx);
  const search = secretsSearch(COUNT, `Account ${COUNT - 1}`);
  const { countText, query, title } = search;
  const results: Record<string, number>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await ctx.newPage();
    if (!CACHED) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    }
    const dialog = await typeVaultPassword(page, vaultId, PASSWORD);
    // The page types `query` as soon as the count shows; the fill below finds it there.
    await armSecretsSearch(page, search);
    const t0 = performance.now();
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 });
    const t1 = performance.now();
    await page.getByText(countText).waitFor({ timeout: 60_000 });
    await page.getByRole('article').first().waitFor();
    const t2 = performance.now();
    await page.getByRole('searchbox', { name: 'Search secrets' }).fill(query);
    await page.getByRole('article', { name: title, exact: true }).waitFor();
    const t3 = performance.now();
    const inPage = await searched(page);
    // Bytes of the list that crossed the network: its whole body, or a 304's headers only (under
    // 1 KiB, so 0 here).
    const listBytes = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((e) => /\/api\/vaults\/[^/]+\/secrets$/.test(e.name))
          .map((e) => (e as PerformanceResourceTiming).transferSize)[0] ?? -1,
    );
    const row = {
      unlock: t1 - t0,
      list: t2 - t0,
      search: t3 - t2,
      searchable: t3 - t0,
      'searchable (in page)': inPage.paint - inPage.click,
      'list KiB over the network': listBytes / 1024,
    };
    results.push(row);
    console.log(
      `run ${run + 1} (load ${loadavg()}): ${Object.entries(row)
        .map(([k, v]) => `${k} ${Math.round(v)}`)
        .join(', ')}`,
    );
    await page.close();
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ms = (x: number) => Math.round(x);
  console.log(
    `secrets=${COUNT} runs=${RUNS} cores=${os.cpus().length} load ${loadavg()}; ` +
      (CACHED ? 'HTTP cache kept between runs' : 'HTTP cache cleared before each run'),
  );
  for (const k of Object.keys(results[0] ?? {})) {
    const xs = results.map((r) => r[k]!);
    const unit = k.includes('KiB') ? 'KiB' : 'ms';
    console.log(
      `${k}: median ${ms(median(xs))} ${unit}, min / max ${ms(Math.min(...xs))} / ${ms(Math.max(...xs))} (runs: ${xs.map(ms).join(', ')})`,
    );
  }
} finally {
  await app.stop();
}
