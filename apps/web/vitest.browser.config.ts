// The web app's browser-only tests (`*.browser.test.ts`: OPFS, Workers, the storage providers'
// contract) in Chromium, in Vitest's browser mode with Debian's Chromium. Never downloads a
// browser. The real server runs behind the test page's origin: Vite proxies /api to it, so the
// page talks to it as the app does (same origin, session cookie).
import net from 'node:net';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

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
// The cloud emulators (src/storage/cloud/emulators.setup.ts) on ports chosen here, so that their
// control APIs (no CORS, test tooling) can be proxied to the test page's origin.
process.env.SEALVAULT_TEST_DROPBOX_PORT ??= String(await freePort());
process.env.SEALVAULT_TEST_DRIVE_PORT ??= String(await freePort());
process.env.SEALVAULT_TEST_ONEDRIVE_PORT ??= String(await freePort());
const control = (port: string) => ({
  target: `http://127.0.0.1:${port}`,
  rewrite: (p: string) => p.replace(/^\/__[a-z]+-control/, '/__emulator'),
});

export default defineConfig({
  // Bundled before the first test: a dependency found on the way makes Vite reload the test page,
  // which fails the test file being imported (on a fresh clone, with no cache yet).
  optimizeDeps: {
    include: ['hash-wasm', 'react', 'react/jsx-dev-runtime', 'tus-js-client', 'zod'],
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${appPort}` },
      '/__dropbox-control': control(process.env.SEALVAULT_TEST_DROPBOX_PORT),
      '/__drive-control': control(process.env.SEALVAULT_TEST_DRIVE_PORT),
      '/__onedrive-control': control(process.env.SEALVAULT_TEST_ONEDRIVE_PORT),
    },
  },
  test: {
    name: 'web-browser',
    include: ['src/**/*.browser.test.ts'],
    testTimeout: 60_000,
    globalSetup: ['src/storage/server/contract.setup.ts', 'src/storage/cloud/emulators.setup.ts'],
    browser: {
      api: { port: pagePort, strictPort: true },
      enabled: true,
      headless: true,
      provider: playwright({
        // Debian's Chromium with the flags of every browser test here (as bench/shared/app.ts;
        // not imported: the config loader cannot load the TypeScript workspace packages it pulls).
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
