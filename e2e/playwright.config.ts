// End-to-end tests: Debian's Chromium (never a downloaded browser) against the built web app
// served by the real server, started here on a free loopback port with a throwaway data dir.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  DRIVE_CLIENT_ID,
  DROPBOX_APP_KEY,
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  ONEDRIVE_CLIENT_ID,
} from './support/constants.ts';

// The config is evaluated in the runner and again in each worker; the runner picks the port and
// data dir once and the workers inherit them through the environment.
const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})',
  ]).toString();
process.env.E2E_PORT ??= freePort();
// The account specs' helpers: a real SMTP server with a mailbox API (support/mail-sink.ts) and a
// local OpenID provider standing in for Google (support/oidc.ts).
process.env.E2E_SMTP_PORT ??= freePort();
process.env.E2E_MAIL_API_PORT ??= freePort();
process.env.E2E_OIDC_PORT ??= freePort();
// The cloud storage emulators (e2e/emulators), which the server is configured to use.
process.env.E2E_DROPBOX_PORT ??= freePort();
process.env.E2E_DRIVE_PORT ??= freePort();
// OneDrive's emulator serves its content host (upload and download URLs) on the next port.
const freePortPair = () =>
  execFileSync(process.execPath, [
    '-e',
    'const n=require("net");const f=(p)=>new Promise((r)=>{const s=n.createServer();s.once("error",()=>r(false));s.listen(p,"127.0.0.1",()=>s.close(()=>r(true)))});(async()=>{for(;;){const p=20000+Math.floor(Math.random()*40000);if(await f(p)&&await f(p+1)){process.stdout.write(String(p));return}}})()',
  ]).toString();
process.env.E2E_ONEDRIVE_PORT ??= freePortPair();
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-e2e-'));
const port = process.env.E2E_PORT;
const baseURL = `http://localhost:${port}`;
const repoRoot = path.resolve(import.meta.dirname, '..');
const oidcIssuer = `http://127.0.0.1:${process.env.E2E_OIDC_PORT}`;
const dropbox = `http://127.0.0.1:${process.env.E2E_DROPBOX_PORT}`;
const drive = `http://127.0.0.1:${process.env.E2E_DRIVE_PORT}`;
const onedrive = `http://127.0.0.1:${process.env.E2E_ONEDRIVE_PORT}`;
const onedriveContent = `http://localhost:${Number(process.env.E2E_ONEDRIVE_PORT) + 1}`;
const emulator = (name: string, port: string, origin: string, health = 'stats') => ({
  command: `node --import tsx ${path.join(import.meta.dirname, 'emulators', 'cli.ts')} ${name} --port ${port}`,
  cwd: repoRoot,
  url: `${origin}/__emulator/${health}`,
  reuseExistingServer: false,
  timeout: 30_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});
const helper = (file: string, url: string) => ({
  command: `node --import tsx ${path.join(import.meta.dirname, 'support', file)}`,
  cwd: repoRoot,
  url,
  reuseExistingServer: false,
  timeout: 30_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: './specs',
  outputDir: './.artifacts/results',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list']],
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    // A trace records DOM snapshots and a screencast of every action: on a 2-core machine that
    // cost about 30% of the tier's time (a sample of 17 tests: 389 s -> 276 s summed without it).
    // It is recorded on a retry only, or for every test with E2E_TRACE=1 when chasing a failure.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  webServer: [
    helper('mail-sink.ts', `http://127.0.0.1:${process.env.E2E_MAIL_API_PORT}/health`),
    helper('oidc.ts', `${oidcIssuer}/health`),
    emulator('dropbox', process.env.E2E_DROPBOX_PORT, dropbox),
    emulator('googledrive', process.env.E2E_DRIVE_PORT, drive),
    emulator('onedrive', process.env.E2E_ONEDRIVE_PORT, onedrive, 'log'),
    {
      command: `node --import tsx ${path.join(repoRoot, 'apps/server/src/main.ts')}`,
      cwd: repoRoot,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: port,
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: process.env.E2E_DATA_DIR,
        LOG_FILE: path.join(process.env.E2E_DATA_DIR, 'server.log'),
        LOG_LEVEL: 'info',
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        GOOGLE_CLIENT_ID: OIDC_CLIENT_ID,
        GOOGLE_CLIENT_SECRET: OIDC_CLIENT_SECRET,
        GOOGLE_ISSUER: oidcIssuer,
        DROPBOX_APP_KEY: DROPBOX_APP_KEY,
        DROPBOX_AUTH_URL: `${dropbox}/oauth2/authorize`,
        DROPBOX_API_URL: dropbox,
        DROPBOX_CONTENT_URL: dropbox,
        GOOGLE_DRIVE_CLIENT_ID: DRIVE_CLIENT_ID,
        GOOGLE_OAUTH_URL: `${drive}/o/oauth2/v2/auth`,
        GOOGLE_OAUTH_REVOKE_URL: `${drive}/revoke`,
        GOOGLE_DRIVE_API_URL: drive,
        ONEDRIVE_CLIENT_ID: ONEDRIVE_CLIENT_ID,
        ONEDRIVE_AUTH_URL: `${onedrive}/common/oauth2/v2.0/authorize`,
        ONEDRIVE_TOKEN_URL: `${onedrive}/common/oauth2/v2.0/token`,
        ONEDRIVE_GRAPH_URL: onedrive,
        ONEDRIVE_CONTENT_HOSTS: onedriveContent,
        // Every spec signs in from 127.0.0.1; the limit itself is tested by the server's tests.
        AUTH_RATE_LIMIT_MAX: '500',
      },
    },
  ],
});
