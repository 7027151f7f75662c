// Test tiers: "unit" (beside the code, no server) and "server" (in-process against a real database).
// The e2e tier is Playwright (e2e/), the crypto browser run is its own project (packages/crypto).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
        },
      },
    ],
  },
});
