// [Note: data file modes] (file-modes.ts): the data directory, the database, the auth secret and
// the blobs are owner-only, 0700 for directories and 0600 for files (issue 15, item 8); and the
// server process runs with umask 077, so files that libraries create are owner-only too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '../blobs/fs-blob-store.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
const octal = (m: number) => m.toString(8);

let parent: string;
let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-modes-'));
  dataDir = path.join(parent, 'nested', 'data');
  t = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

describe('data file modes', () => {
  it('creates the data directory 0700 and the database and auth secret 0600', () => {
    if (t.config.auth.secret) {
      // PostgreSQL requires BETTER_AUTH_SECRET (the test harness sets one): none is generated.
      expect(fs.existsSync(path.join(dataDir, 'auth-secret'))).toBe(false);
      return;
    }
    expect(octal(modeOf(dataDir))).toBe('700');
    expect(octal(modeOf(path.join(dataDir, 'auth-secret')))).toBe('600');
    if (t.db.kind === 'sqlite') {
      for (const file of ['vault.db', 'vault.db-wal', 'vault.db-shm']) {
        const p = path.join(dataDir, file);
        if (file === 'vault.db' || fs.existsSync(p)) expect(octal(modeOf(p)), file).toBe('600');
      }
    }
  });

  it('tightens a database file an older version left 0644', async () => {
    if (t.db.kind !== 'sqlite') return;
    const dir = path.join(parent, 'old');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'vault.db'), '', { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'vault.db'), 0o644);
    const old = await createTestApp({ DATA_DIR: dir });
    try {
      expect(octal(modeOf(path.join(dir, 'vault.db')))).toBe('600');
    } finally {
      await old.close();
    }
  });

  it('stores blobs 0600 under 0700 directories, adopted files included', async () => {
    const root = path.join(dataDir, 'blobs');
    const store = createFsBlobStore(root);
    const put = await store.put([new Uint8Array([1, 2, 3])]);
    const outside = path.join(dataDir, 'upload.bin');
    fs.writeFileSync(outside, 'ciphertext', { mode: 0o644 });
    fs.chmodSync(outside, 0o644);
    const adopted = await store.adopt(outside);
    for (const { key } of [put, adopted]) {
      const file = path.join(root, key.slice(0, 2), key.slice(2, 4), key);
      expect(octal(modeOf(file)), key).toBe('600');
      expect(octal(modeOf(path.dirname(file)))).toBe('700');
      expect(octal(modeOf(path.dirname(path.dirname(file))))).toBe('700');
    }
    expect(octal(modeOf(root))).toBe('700');
    expect(octal(modeOf(path.join(root, '.tmp')))).toBe('700');
  });

  it('runs the server process with umask 077 and an owner-only data directory', async () => {
    if (!fs.existsSync('/proc/self/status')) return; // the umask is read from Linux's /proc
    const dir = path.join(parent, 'spawned', 'data');
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const main = path.resolve(import.meta.dirname, '../main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 30_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('"msg":"listening"')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code) => reject(new Error(`exited ${String(code)}: ${out}`)));
      });
      const status = fs.readFileSync(`/proc/${String(child.pid)}/status`, 'utf8');
      expect(/^Umask:\s*(\d+)/m.exec(status)?.[1]).toBe('0077');
      expect(octal(modeOf(dir))).toBe('700');
      expect(octal(modeOf(path.join(dir, 'vault.db')))).toBe('600');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 40_000);
});
