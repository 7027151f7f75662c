// Test tiers: "unit" (beside the code, no server), "server" (in-process against a real
// database), "faults" (the real server as a child process, killed, starved of disk, sent huge
// bodies: apps/server/faults) and "multi" (two server processes sharing PostgreSQL and S3:
// apps/server/multi). The e2e tier is Playwright (e2e/), the crypto browser run is its own
// project (packages/crypto).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two test files at a time (Vitest's default is one fewer than the cores: one here). Most of
    // a file's time is waiting (jsdom start-up, SQLite fsyncs, PostgreSQL round trips), so two
    // overlap well on this 2-core machine and keep `npm test` inside CI's 20 minutes.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'e2e/emulators/**/*.test.ts',
          ],
          // Browser-only tests run in Chromium (npm run test:browser -w @sealvault/web).
          exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // Each worker imports the server (Hono, Kysely, Better Auth, the AWS SDK) once, not once
          // per file: measured import time summed over files, SQLite, 352 s -> 33 s. Every test
          // builds its own app and database (testing/harness.ts) and restores its spies and timers.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['apps/server/faults/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // Its files mostly wait on server processes: two at a time even on two cores (its own
          // group, as projects that run together must agree on maxWorkers within one).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // A kill round takes 12-17 s on a quiet 2-core machine and about twice that in CI, where
          // the PostgreSQL tier runs beside it: three minutes leaves room for a slower machine.
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Two server processes on one PostgreSQL database and one S3 bucket (apps/server/multi).
          name: 'multi',
          include: ['apps/server/multi/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
