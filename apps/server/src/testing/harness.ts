// Test harness for server tests: a real database per test app, in-process requests.
// SQLite: a fresh file in a temp dir. PostgreSQL (when TEST_DATABASE_URL is set, as
// scripts/with-postgres.sh does): a fresh database on that cluster, dropped at close.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { migrateAll } from '../db/migrations.ts';
import { applyInstancePlan } from '../plans/instance-plan.ts';
import { createFileStorage } from '../files/storage.ts';
import { sharedLocks } from '../db/locks.ts';
import { accountDeletionHooks } from '../account-deletion.ts';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import type { FileStorage } from '../files/uploads.ts';
import { createLogger } from '../logger.ts';
import { createAuth, type PasswordHashing } from '../auth/auth.ts';
import { createMailer, type Mailer, type MailMessage } from '../mail/mailer.ts';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  /** The app's file storage (blobs, tus uploads); a new one after restart(). */
  files: FileStorage;
  db: Db;
  config: Config;
  /** What deleting an account runs (account-deletion.ts); a test may add a hook and remove it. */
  userDeletion: UserDeletedHook[];
  /** Everything the server logged, as raw text (for zero-knowledge checks). */
  logs: () => string;
  /** Every mail the app sent, in order (the harness's Mailer; no SMTP unless SMTP_URL is set). */
  mails: MailMessage[];
  /** Resolves with the next mail to `to` (or one already sent and not yet taken). */
  takeMail: (to: string) => Promise<MailMessage>;
  /** Moves the app's clock. */
  clock: { now: Date };
  /** A request from the app's own origin, as a browser on the page would send it. */
  request: (path: string, init?: RequestInit) => Promise<Response>;
  /**
   * A new app on the same database and data dir, as after a restart: nothing kept in memory
   * survives (the tus store's block hashes, its locks). `app` and `files` are replaced.
   */
  restart: () => void;
  /**
   * A request to a second instance on the same database and configuration, with its own Better
   * Auth (nothing in memory shared with the first), as behind a load balancer.
   */
  otherInstance: () => (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

async function createPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

// [Note: test password hashing] Better Auth hashes account passwords with scrypt at N = 16384,
// r = 16: about 160 ms of CPU each on this machine, and the server tests hash or check one
// thousands of times (every test user signs up and signs in; the attempt-budget tests guess
// many). Test apps hash with the same scrypt at N = 1024, r = 8 (under 2 ms), in the same
// `salt:key` form. Every server process (server.ts, admin.ts, the faults and multi tiers, e2e)
// keeps Better Auth's own, and auth.password.test.ts checks that it is what createAuth uses by
// default.
const scryptKey = (password: string, salt: string) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
const testPasswordHashing: PasswordHashing = {
  hash: async (password) => {
    const salt = randomBytes(16).toString('hex');
    return `${salt}:${(await scryptKey(password, salt)).toString('hex')}`;
  },
  verify: async ({ hash, password }) => {
    const [salt, key] = hash.split(':');
    if (!salt || !key) return false;
    const expected = Buffer.from(key, 'hex');
    const actual = await scryptKey(password, salt);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};

/** The Better Auth secret of test apps on PostgreSQL, where one must be configured. */
export const TEST_AUTH_SECRET = 'sealvault-test-secret-0123456789abcdef';
/** The OPAQUE server setup of test apps on PostgreSQL, where one must be configured too. */
export const TEST_OPAQUE_SERVER_SETUP =
  '5P9nRACoFXKZldtRVH93EZb-bP3dNiI9HCG-UyL3f141pvJecEaJRvjp7zBxUde1n7YMCmWDU_8qLul0ujgGQRnLJs2d2tU3pRoU7nDSXnJY2R8noyaZC53SrNNqieIKYjviEtA3P_UZH5vVrCtrKay-5JH37yzp4uoglofHYDA';

export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    betterAuthPasswordHashing?: boolean;
    /** No password in the clear is accepted: sign-up, change and reset take OPAQUE records only. */
    opaqueOnly?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-test-'));
  const pgBase = process.env.TEST_DATABASE_URL;
  const pgDb = pgBase ? await createPostgresDatabase(pgBase) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'debug',
    // Rate limits stay on in tests, high enough for suites that create many users; the rate
    // limit tests lower them.
    AUTH_RATE_LIMIT_MAX: '10000',
    WEB_DIST: path.join(dataDir, 'web'),
    // No free-space watermark: tests must not depend on the host's disk; the storage tests
    // replace the statfs of the data dir instead (files/storage-guard.ts).
    UPLOAD_MIN_FREE_MB: '0',
    ...(pgDb
      ? {
          DATABASE_URL: pgDb.url,
          BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
          OPAQUE_SERVER_SETUP: TEST_OPAQUE_SERVER_SETUP,
        }
      : {}),
    ...env,
  });
  let logText = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logText += chunk.toString('utf8');
      cb();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  // Dropping the test database at close terminates what is left of the pool: expected here.
  const db = openDatabase(config.database, (err) => logger.debug({ err: err.message }, 'idle db'));
  const mails: MailMessage[] = [];
  const taken = new Set<MailMessage>();
  const mailer: Mailer = {
    send: (m) => {
      mails.push(m);
      return Promise.resolve();
    },
  };
  const userDeletion = accountDeletionHooks();
  const newAuth = () =>
    createAuth({
      config,
      db,
      logger,
      mailer: config.auth.mail.smtpUrl ? createMailer(config.auth.mail, logger) : mailer,
      userDeletion,
      ...(opts.betterAuthPasswordHashing ? {} : { passwordHashing: testPasswordHashing }),
      // The suites that predate OPAQUE sign users up with passwords in the clear ([Note: OPAQUE
      // passwords] in auth/opaque.password.ts); those accounts are legacy ones.
      acceptPlainPasswords: !opts.opaqueOnly,
    });
  const auth = newAuth();
  await migrateAll(db, auth);
  await applyInstancePlan(db.kysely, config.plans, new Date());
  const clock = { now: new Date() };
  // A new file storage with each app, as a new process would have [Note: recoverable finish].
  // On PostgreSQL the tus locks are shared ones, as with several instances (db/locks.ts).
  const locks = sharedLocks(db);
  const start = (cfg: Config) => {
    const files = createFileStorage(cfg, db.kind === 'postgres' ? locks : null);
    return {
      files,
      app: createApp({ config: cfg, db, logger, now: () => new Date(clock.now), auth, files }),
    };
  };
  const first = start(config);
  const takeMail = async (to: string): Promise<MailMessage> => {
    for (let i = 0; i < 200; i++) {
      const m = mails.find((x) => !taken.has(x) && x.to === to);
      if (m) {
        taken.add(m);
        return m;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no mail to ${to}`);
  };
  const t: TestApp = {
    app: first.app,
    files: first.files,
    db,
    config,
    clock,
    userDeletion,
    mails,
    takeMail,
    logs: () => logText,
    request: (p, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('origin')) headers.set('origin', config.publicUrl);
      return Promise.resolve(t.app.request(p, { ...init, headers }));
    },
    restart: () => {
      ({ app: t.app, files: t.files } = start(t.config));
    },
    otherInstance: () => {
      const other = createApp({
        config,
        db,
        logger,
        now: () => new Date(clock.now),
        auth: newAuth(),
        files: createFileStorage(config, db.kind === 'postgres' ? locks : null),
      });
      return (p, init = {}) => {
        const headers = new Headers(init.headers);
        if (!headers.has('origin')) headers.set('origin', config.publicUrl);
        return Promise.resolve(other.request(p, { ...init, headers }));
      };
    },
    close: async () => {
      await locks.close();
      await db.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}
