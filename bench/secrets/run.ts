// Benchmark: with 5,000 secrets, the time from pressing Unlock to a searchable list, in Chromium
// (issue: under one second). Starts the real server on a free port with a throwaway data dir,
// seeds an account through the API, then drives the built web app.
// Run: npm run build -w @sealvault/web && node --import tsx bench/secrets/run.ts [count] [runs]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { seedVault, signUp } from './seed.ts';

const COUNT = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 5);
const PASSWORD = 'bench-vault-password';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-bench-'));
const port = await freePort();
const base = `http://localhost:${port}`;
const logFile = path.join(dataDir, 'server.log');
const root = path.resolve(import.meta.dirname, '../..');
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    LOG_FILE: logFile,
  },
  stdio: 'ignore',
});
try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const { cookie } = await signUp(
    base,
    logFile,
    `bench-${Date.now()}@example.test`,
    'account-password-1',
  );
  const seedStart = performance.now();
  const vaultId = await seedVault(base, cookie, {
    name: 'Bench',
    type: 'secrets',
    password: PASSWORD,
    secrets: COUNT,
  });
  console.log(`seeded ${COUNT} secrets in ${Math.round(performance.now() - seedStart)} ms`);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const ctx = await browser.newContext({ baseURL: base });
  await ctx.addCookies(
    cookie.split('; ').map((c) => {
      const eq = c.indexOf('=');
      return { name: c.slice(0, eq), value: c.slice(eq + 1), url: base };
    }),
  );
  const results: { unlock: number; list: number; search: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await ctx.newPage();
    await page.goto(`/vault/${vaultId}`);
    const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
    // Typed as a fast typist would (40 ms a key): the page starts the crypto Worker meanwhile.
    await dialog.getByLabel('Vault password').pressSequentially(PASSWORD, { delay: 40 });
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
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
