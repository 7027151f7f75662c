// The web app's browser-only tests (`*.browser.test.ts`: OPFS, Workers) in Chromium, in Vitest's
// browser mode with Debian's Chromium. Never downloads a browser.
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web-browser',
    include: ['src/**/*.browser.test.ts'],
    testTimeout: 60_000,
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
