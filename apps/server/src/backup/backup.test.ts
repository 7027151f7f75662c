// Backup and restore end to end: a user, a vault and a file uploaded through the app; a backup;
// everything wiped (the test app's close removes its data dir and drops its PostgreSQL database,
// the bucket is emptied); a restore into a fresh place; the file downloaded byte-identical with
// the user's old session. On SQLite or PostgreSQL (scripts/with-postgres.sh), with the fs store
// and with the S3 store (testing/s3-server.ts).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBlobKey, type BlobStore } from '../blobs/blob-store.ts';
import { createBlobStore } from '../blobs/create-blob-store.ts';
import { loadConfig, type Config } from '../config.ts';
import {
  fakeCiphertext,
  fileContent,
  listFiles,
  sha256,
  tus,
  uploadMetadata,
  userWithVault,
} from '../testing/files.ts';
import { createTestApp, TEST_AUTH_SECRET, TEST_OPAQUE_SERVER_SETUP } from '../testing/harness.ts';
import { startS3Server, type S3TestServer } from '../testing/s3-server.ts';
import { markVerified } from '../testing/users.ts';
import { opaqueClient } from '../auth/opaque.testkit.ts';
import { runBackup } from './backup.ts';
import { findPgTool, hasAccounts } from './database.ts';
import { blobFile } from './manifest.ts';
import { runRestore } from './restore.ts';

const pgBase = process.env.TEST_DATABASE_URL;
/** On PostgreSQL a backup needs pg_dump and pg_restore; without them these tests are skipped. */
const itDumps = it.skipIf(!!pgBase && !(findPgTool('pg_dump') && findPgTool('pg_restore')));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** An empty place to restore into: a new data dir and, on PostgreSQL, a new database. */
async function freshTarget(env: Record<string, string>): Promise<Record<string, string>> {
  const target: Record<string, string> = { DATA_DIR: tempDir('sealvault-restored-'), ...env };
  if (pgBase) {
    const name = `restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    Object.assign(target, {
      DATABASE_URL: url.toString(),
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      OPAQUE_SERVER_SETUP: TEST_OPAQUE_SERVER_SETUP,
    });
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: pgBase });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
  }
  return target;
}

/** A user with a vault and an uploaded file, on a test app with `env`. */
async function appWithFile(env: Record<string, string>, size = 700_000) {
  const t = await createTestApp(env);
  let closed = false;
  cleanups.push(() => (closed ? undefined : t.close()));
  const { user, vaultId } = await userWithVault(t);
  const bytes = fakeCiphertext(size);
  const meta = uploadMetadata(vaultId, bytes);
  const { patched } = await tus(t, user.cookie).upload(meta, bytes);
  expect(patched.status).toBe(204);
  const wipe = async () => {
    closed = true;
    await t.close(); // its data dir (SQLite file, fs blobs) and its PostgreSQL database are gone
  };
  return { t, user, vaultId, bytes, fileId: meta.fileId, wipe };
}

const keysIn = async (store: BlobStore) => {
  const keys: string[] = [];
  for await (const b of store.list()) keys.push(b.key);
  return keys;
};

async function roundTrip(env: Record<string, string>, emptyStore: () => Promise<void>) {
  const { t, user, vaultId, bytes, fileId, wipe } = await appWithFile(env);
  // An account whose password is an OPAQUE record: it must open after the restore too.
  const opaqueEmail = `opaque-${randomUUID()}@example.test`;
  expect((await opaqueClient(t.request).signUp(opaqueEmail, 'restored opaque pw')).status).toBe(
    200,
  );
  await markVerified(
    t,
    (
      await t.db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', opaqueEmail)
        .executeTakeFirstOrThrow()
    ).id,
  );
  const dir = path.join(tempDir('sealvault-backup-'), 'backup');
  const manifest = await runBackup({ config: t.config, dir, blobs: t.files.blobs });
  expect(manifest.database.kind).toBe(t.db.kind);
  expect(manifest.blobs.count).toBe(1);
  expect(manifest.blobs.items[0]).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
  expect(manifest.authSecret).toBe(t.db.kind === 'sqlite'); // PostgreSQL: BETTER_AUTH_SECRET set
  expect(manifest.opaqueSetup).toBe(t.db.kind === 'sqlite'); // and OPAQUE_SERVER_SETUP
  expect(fs.readFileSync(blobFile(dir, manifest.blobs.items[0]?.key ?? '')).equals(bytes)).toBe(
    true,
  );

  await wipe();
  await emptyStore();
  const target = await freshTarget(env);
  const config = loadConfig(target);
  expect(await keysIn(createBlobStore(config))).toEqual([]);
  const restored = await runRestore({ config, dir });
  expect(restored.filesWithoutBlob).toEqual([]);

  const t2 = await createTestApp(target);
  cleanups.push(() => t2.close());
  // The old session cookie still works: sessions and the auth secret came back too.
  const files = await listFiles(t2, user, vaultId);
  expect(files.map((f) => [f.id, f.ciphertext_size])).toEqual([[fileId, bytes.length]]);
  expect((await fileContent(t2, user, vaultId, fileId)).equals(bytes)).toBe(true);
  // The OPAQUE setup came back (or is the configured one): the record still opens.
  expect((await opaqueClient(t2.request).signIn(opaqueEmail, 'restored opaque pw')).status).toBe(
    200,
  );
  return config;
}

describe('backup and restore', () => {
  itDumps(
    'bring back a file byte-identical after the database and blob store are wiped (fs store)',
    async () => {
      await roundTrip({}, () => Promise.resolve());
    },
  );

  itDumps(
    'name the records whose blob is missing, but not a purged one nor one a provider holds',
    async () => {
      const { t, user, vaultId, wipe } = await appWithFile({}, 1000);
      const now = new Date().toISOString();
      const record = (id: string, over: { blob_key: string; storage_ref?: string }) => ({
        id,
        vault_id: vaultId,
        user_id: user.id,
        enc_meta: 'AAAA',
        name_lookup: id.replaceAll('-', '').padEnd(64, '0'),
        wrapped_key: 'AAAA',
        ciphertext_size: 88,
        checksum: '0'.repeat(64),
        checksum_algorithm: 'content-hash-4m' as const,
        created_at: now,
        updated_at: now,
        ...over,
      });
      const [lost, purged, held] = [randomUUID(), randomUUID(), randomUUID()];
      await t.db.kysely
        .insertInto('vault_files')
        .values([
          record(lost, { blob_key: randomBlobKey() }),
          // [Note: trash] in the protocol's files.ts: the purge deleted its blob for good.
          { ...record(purged, { blob_key: randomBlobKey() }), trashed_at: now, purged_at: now },
          record(held, { blob_key: '', storage_ref: 'id:elsewhere' }),
        ])
        .execute();
      const dir = path.join(tempDir('sealvault-backup-'), 'b');
      await runBackup({ config: t.config, dir, blobs: t.files.blobs });
      await wipe();
      const config = loadConfig(await freshTarget({}));
      const restored = await runRestore({ config, dir });
      expect(restored.filesWithoutBlob).toEqual([lost]);
    },
  );

  itDumps('refuse to replace a database that holds accounts, unless forced', async () => {
    const { t } = await appWithFile({}, 1000);
    const dir = path.join(tempDir('sealvault-backup-'), 'b');
    await runBackup({ config: t.config, dir, blobs: t.files.blobs });
    await expect(runRestore({ config: t.config, dir })).rejects.toThrow(/already holds accounts/);
    await expect(runBackup({ config: t.config, dir })).rejects.toThrow(/not empty/);
  });

  itDumps(
    'stop at a damaged blob copy before it becomes a blob or the database changes',
    async () => {
      const { t, wipe } = await appWithFile({}, 5000);
      const dir = path.join(tempDir('sealvault-backup-'), 'b');
      const manifest = await runBackup({ config: t.config, dir, blobs: t.files.blobs });
      const file = blobFile(dir, manifest.blobs.items[0]?.key ?? '');
      const copy = fs.readFileSync(file);
      copy[100] = (copy[100] ?? 0) ^ 0xff; // same size, other bytes
      fs.writeFileSync(file, copy);
      await wipe();
      const config: Config = loadConfig(await freshTarget({}));
      await expect(runRestore({ config, dir })).rejects.toThrow(/does not match its manifest/);
      expect(await keysIn(createBlobStore(config))).toEqual([]);
      expect(await hasAccounts(config.database)).toBe(false);
      fs.rmSync(path.join(dir, 'manifest.json'));
      await expect(runRestore({ config, dir })).rejects.toThrow(/holds no manifest.json/);
    },
  );

  itDumps(
    'run as npm run backup and npm run restore with the server’s environment',
    async () => {
      const { t, wipe } = await appWithFile({}, 2000);
      const dir = path.join(tempDir('sealvault-backup-'), 'b');
      const envOf = (c: Config, extra: Record<string, string>) => ({
        ...process.env,
        DATA_DIR: c.dataDir,
        LOG_LEVEL: 'silent',
        ...extra,
      });
      const root = path.resolve(import.meta.dirname, '../../../..');
      const npm = (args: string[], env: NodeJS.ProcessEnv) =>
        promisify(execFile)('npm', ['run', '--silent', ...args], { cwd: root, env });
      const pgEnv = (c: Config): Record<string, string> =>
        c.database.kind === 'postgres'
          ? {
              DATABASE_URL: c.database.url,
              BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
              OPAQUE_SERVER_SETUP: TEST_OPAQUE_SERVER_SETUP,
            }
          : {};
      const made = await npm(['backup', '--', dir], envOf(t.config, pgEnv(t.config)));
      expect(made.stdout).toMatch(
        /Backed up the (sqlite|postgres) database and 1 blobs \(\d+ bytes\)/,
      );
      await wipe();
      const target = await freshTarget({});
      const restoreEnv = { ...process.env, ...target, LOG_LEVEL: 'silent' };
      const back = await npm(['restore', '--', dir], restoreEnv);
      expect(back.stdout).toMatch(/Restored the (sqlite|postgres) database and 1 blobs/);
      const again = await npm(['restore', '--', dir], restoreEnv).catch((e: unknown) => e);
      expect((again as { code?: number }).code).toBe(1);
      expect((again as { stderr?: string }).stderr).toMatch(/already holds accounts.*--force/);
      const forced = await npm(['restore', '--', dir, '--force'], restoreEnv);
      expect(forced.stdout).toMatch(/Restored/);
      // Four npm and tsx start-ups: about 10 s on an idle 2-core machine, over 30 s on a loaded one.
    },
    120_000,
  );
});

describe('backup and restore with the S3 store', () => {
  let s3: S3TestServer;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    s3 = await startS3Server();
    // The SDK's default chain reads these, as in production (the app builds its own client).
    for (const [k, v] of Object.entries(s3.env())) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await s3.close();
  });

  itDumps('bring back a file byte-identical after the bucket is emptied', async () => {
    const env = s3.env();
    const config = await roundTrip(env, async () => {
      const store = createBlobStore(loadConfig(env));
      for await (const { key } of store.list()) await store.delete(key);
    });
    expect(await keysIn(createBlobStore(config))).toHaveLength(1);
  });
});
