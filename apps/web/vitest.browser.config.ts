// The web app's browser-only tests (`*.browser.test.ts`: OPFS, Workers, the storage providers'
// contract) in Chromium, in Vitest's browser mode with Debian's Chromium. Never downloads a
// browser. The real server runs behind the test page's origin: Vite proxies /api to it, so the
// page talks to it as the app does (same origin, session cookie).
import net from 'node:net';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM, CHROMIUM_ARGS } from '../../bench/shared/app.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
// Chosen once per process: Vitest reads this file again for the Chromium instance.
process.env.SEALVAULT_TEST_PAGE_PORT ??= String(await freePort());
process.env.SEALVAULT_TEST_APP_PORT ??= String(await freePort());
const pagePort = Number(process.env.SEALVAULT_TEST_PAGE_PORT);
const appPort = Number(process.env.SEALVAULT_TEST_APP_PORT);
process.env.SEALVAULT_TEST_ORIGIN = `http://localhost:${pagePort}`;

export default defineConfig({
  server: { proxy: { '/api': { target: `http://127.0.0.1:${appPort}` } } },
  test: {
    name: 'web-browser',
    include: ['src/**/*.browser.test.ts'],
    testTimeout: 60_000,
    globalSetup: ['src/storage/server/contract.setup.ts'],
    browser: {
      api: { port: pagePort, strictPort: true },
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
          args: CHROMIUM_ARGS,
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
