// The crypto tests again, in Chromium (Vitest browser mode), with Debian's Chromium: the same
// files as the Node "unit" project plus the real-Worker test. Never downloads a browser.
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Bundled up front, so a cold cache never re-optimises it while the Worker is loading.
  optimizeDeps: { include: ['hash-wasm'] },
  test: {
    name: 'crypto-browser',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    // One retry: a first run on a cold, loaded machine once failed the real-Worker test with an
    // INTERNAL error that did not recur (the Worker now logs the cause if it happens again).
    retry: 1,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
