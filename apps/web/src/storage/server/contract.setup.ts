// Global setup of the web app's browser tests (vitest.browser.config.ts): the real server on a
// free port behind the test page's origin (Vite proxies /api to it), an account on the Unlimited
// plan, and fresh files vaults for the 'server' provider's contract (server.browser.test.ts).
// Reuses the benchmarks' helpers, which start the server and seed accounts through its API.
import type { TestProject } from 'vitest/node';
import { startApp } from '../../../../../bench/shared/app.ts';
import { seedVault } from '../../../../../bench/secrets/seed.ts';

export interface ServerContractContext {
  cookie: string;
  vaults: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverContract: ServerContractContext;
  }
}

async function start() {
  const origin = process.env.SEALVAULT_TEST_ORIGIN;
  const port = Number(process.env.SEALVAULT_TEST_APP_PORT);
  if (!origin || !port) throw new Error('vitest.browser.config.ts sets the origin and port');
  const app = await startApp('contract', { publicUrl: origin, port });
  app.withDb((db) => db.prepare("update profiles set current_plan_id = 'unlimited'").run());
  const vaults: string[] = [];
  for (let i = 0; i < 8; i++) {
    const opts = { name: `Contract ${i}`, type: 'files' as const, password: 'contract-pass' };
    vaults.push(await seedVault(app.base, app.cookie, opts, origin));
  }
  return { app, context: { cookie: app.cookie, vaults } };
}

// Vitest runs a global setup for the browser project and again for its Chromium instance, in the
// same process: one server serves both.
let started: ReturnType<typeof start> | null = null;
let users = 0;

export default async function setup(project: TestProject) {
  started ??= start();
  const { app, context } = await started;
  project.provide('serverContract', context);
  users += 1;
  return async () => {
    users -= 1;
    if (users === 0) await app.stop();
  };
}
