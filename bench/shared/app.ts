// What the browser benchmarks share: the real server on a free port with a throwaway data dir
// (SQLite, mail links in its log), a signed-up account, Debian's Chromium flags, and the
// session cookie for a Playwright context. The fault-injection tests (apps/server/faults) and the
// load check (bench/load) use it too: more accounts, the server's pid, a crash (SIGKILL) and a
// restart on the same data dir.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { signUp } from '../secrets/seed.ts';

/** Debian's Chromium, headless, with nothing reaching out to the network. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A free loopback port in [from, to] (the range this machine's helpers agreed on). */
export async function portIn(from: number, to: number, skip: number[] = []): Promise<number> {
  for (let p = from; p <= to; p++) {
    if (skip.includes(p)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return p;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/**
 * Chromium on its own (not launched by Playwright), headless, with a DevTools port and a profile
 * in `profileDir`; answers the process and the browser's DevTools WebSocket URL once it listens.
 */
export async function chromiumWithDevtools(debugPort: number, profileDir: string) {
  const proc = spawn(
    CHROMIUM,
    [
      '--headless',
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  let wsUrl = '';
  for (let i = 0; !wsUrl; i++) {
    wsUrl = await fetch(`http://127.0.0.1:${debugPort}/json/version`)
      .then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }>)
      .then((v) => v.webSocketDebuggerUrl)
      .catch(() => '');
    if (i > 100) throw new Error('Chromium did not start');
    if (!wsUrl) await sleep(100);
  }
  return { proc, wsUrl };
}

/** The Dropbox emulator (e2e/emulators) on a loopback port; resolves once it printed its URLs. */
export async function startDropboxEmulator(port: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'e2e/emulators/cli.ts', 'dropbox', '--port', String(port)],
    { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`dropbox emulator exited (${code})`)));
    child.stdout.once('data', () => resolve());
  });
  return child;
}

/** The server's environment for a Dropbox emulator at `origin` (the app key is any string). */
export const dropboxEnv = (origin: string) => ({
  DROPBOX_APP_KEY: 'sealvault-bench-dropbox',
  DROPBOX_AUTH_URL: `${origin}/oauth2/authorize`,
  DROPBOX_API_URL: origin,
  DROPBOX_CONTENT_URL: origin,
});

/** The machine's load averages (1, 5, 15 min), for a bench's log. */
export const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export interface BenchApp {
  base: string;
  dataDir: string;
  /** The server's log (JSON lines; mail links are written here, as there is no SMTP_URL). */
  logFile: string;
  /** The signed-in account's session cookie header. */
  cookie: string;
  /** The running server process's pid (it changes with restart()). */
  readonly pid: number;
  /** Runs statements on the server's SQLite database (plans, seeded rows). */
  withDb<T>(fn: (db: SQLite.Database) => T): T;
  /** Signs another account up and in through the API; returns its session cookie header. */
  signUpAnother(tag: string): Promise<string>;
  /** Gives a Playwright context the account's session. */
  signIn(ctx: BrowserContext): Promise<void>;
  /** Kills the server with SIGKILL (no shutdown code runs, as in a crash) and waits for it to go. */
  crash(): Promise<void>;
  /** Starts the server again on the same data dir and port, and waits until it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartAppOptions {
  /** The origin browsers will use when it is not the server's own (a proxy in front of it). */
  publicUrl?: string;
  /** Where it listens; a free port by default. */
  port?: number;
  /** Where the throwaway data dir is made (a small tmpfs, say); the OS temp dir by default. */
  parentDir?: string;
  /** More environment variables for the server (UPLOAD_MIN_FREE_MB...). */
  env?: Record<string, string>;
}

/** Starts the server (apps/server) and signs an account up and in through its API. */
export async function startApp(tag: string, opts: StartAppOptions = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(
    path.join(opts.parentDir ?? os.tmpdir(), `sealvault-bench-${tag}-`),
  );
  const port = opts.port ?? (await freePort());
  const base = `http://localhost:${port}`;
  const publicUrl = opts.publicUrl ?? base;
  const logFile = path.join(dataDir, 'server.log');
  // BENCH_SERVER_NODE_ARGS: extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const launch = () =>
    spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        ...opts.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: publicUrl,
        LOG_FILE: logFile,
      },
      stdio: nodeArgs.length ? ['ignore', 'inherit', 'inherit'] : 'ignore',
    });
  let server = launch();
  const exited = (child: typeof server) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitUp = async () => {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null || server.signalCode !== null) {
        throw new Error(`server exited (${server.exitCode ?? server.signalCode}); see ${logFile}`);
      }
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (i > 300) throw new Error('server did not start');
      await sleep(100);
    }
  };
  const stop = async () => {
    server.kill('SIGTERM');
    await sleep(nodeArgs.length ? 3000 : 300);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUp();
    const signUpAs = async (who: string) =>
      (
        await signUp(
          base,
          logFile,
          `bench-${who}-${Date.now()}-${crypto.randomUUID().slice(0, 8)}@example.test`,
          'account-password-1',
          publicUrl,
        )
      ).cookie;
    const cookie = await signUpAs(tag);
    return {
      base,
      dataDir,
      logFile,
      cookie,
      get pid() {
        return server.pid ?? -1;
      },
      withDb(fn) {
        const file = fs.readdirSync(dataDir).find((f) => /\.(db|sqlite)$/.test(f));
        if (!file) throw new Error(`no database in ${dataDir}`);
        const db = new SQLite(path.join(dataDir, file));
        try {
          return fn(db);
        } finally {
          db.close();
        }
      },
      signUpAnother: signUpAs,
      signIn: (ctx) =>
        ctx.addCookies(
          cookie.split('; ').map((c) => {
            const eq = c.indexOf('=');
            return { name: c.slice(0, eq), value: c.slice(eq + 1), url: base };
          }),
        ),
      async crash() {
        server.kill('SIGKILL');
        await exited(server);
      },
      async restart() {
        await exited(server);
        server = launch();
        await waitUp();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Opens a vault in `page` and types its password as a fast typist would (40 ms a key: the page
 * starts the crypto Worker meanwhile); returns the unlock dialog, Unlock not yet pressed.
 */
export async function typeVaultPassword(page: Page, vaultId: string, password: string) {
  await page.goto(`/vault/${vaultId}`);
  const dialog = page.getByRole('dialog', { name: 'Unlock Vault' });
  await dialog.getByLabel('Vault password').pressSequentially(password, { delay: 40 });
  return dialog;
}

/**
 * Runs `fn` with Playwright attached over CDP to the browser at `wsUrl`, on the page showing
 * `base` (else the first page), and disconnects after: the browser and its page stay as they are,
 * so the measured browser carries no Playwright connection between steps.
 */
export async function withPageOver<T>(
  wsUrl: string,
  base: string,
  fn: (page: Page) => Promise<T>,
): Promise<T> {
  const pw = await chromium.connectOverCDP(wsUrl);
  try {
    const ctx = pw.contexts()[0]!;
    const page = ctx.pages().find((p) => p.url().startsWith(base)) ?? ctx.pages()[0]!;
    return await fn(page);
  } finally {
    await pw.close();
  }
}

/**
 * Run in the page (pass `plainDownloadInPage.toString()` to an evaluate): the ciphertext of every
 * file of `vault`, fetched one after the other with the page's session; answers the bytes read.
 * The speed a download of the same bytes could have without decryption.
 */
export const plainDownloadInPage = async (vault: string): Promise<number> => {
  const { files } = (await (await fetch(`/api/vaults/${vault}/files`)).json()) as {
    files: { id: string }[];
  };
  let bytes = 0;
  for (const f of files) {
    const res = await fetch(`/api/vaults/${vault}/files/${f.id}/content`);
    if (!res.ok || !res.body) throw new Error(`content ${res.status}`);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
  }
  return bytes;
};
