// Starts the whole server from a Config: opens the database, runs migrations, listens.
// Used by main.ts and by tests that need a real listening server (e2e).
import { serve, type ServerType } from '@hono/node-server';
import type { DestinationStream } from 'pino';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import type SQLite from 'better-sqlite3';
import { startCheckpointer } from './db/checkpointer.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateAll } from './db/migrations.ts';
import { applyInstancePlan } from './plans/instance-plan.ts';
import { createAuth } from './auth/auth.ts';
import { accountDeletionHooks } from './account-deletion.ts';
import { createMailer } from './mail/mailer.ts';
import { pino } from 'pino';
import { createLogger, type Logger } from './logger.ts';
import { createFileStorage } from './files/storage.ts';
import { fileSweepJob } from './files/uploads.sweep.ts';
import { trashPurgeJob } from './files/trash.purge.ts';
import { shareSweepJob } from './shares/shares.sweep.ts';
import { sharedLocks } from './db/locks.ts';
import { startPeriodicJob } from './jobs/periodic.ts';
import { DATA_FILE_MODE } from './db/file-modes.ts';
import { subscriptionJob } from './subscriptions/subscriptions.service.ts';
import { createMetrics, disabledMetrics } from './metrics/metrics.ts';
import { serverVersion } from './version.ts';

export interface RunningServer {
  port: number;
  db: Db;
  logger: Logger;
  close(): Promise<void>;
}

/** Log lines kept in memory while the log file's disk is full, at most (then new ones drop). */
export const LOG_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * The log file, written synchronously. On a full disk its writer (SonicBoom) emits the write's
 * error, which with no listener is thrown into whatever logged: a request that worked (a read on
 * a full disk) would answer 500 for its log line. The unwritten lines stay in memory, up to
 * LOG_BACKLOG_BYTES, and go out with the next line once there is room.
 */
export function logFileDestination(file: string): DestinationStream {
  const destination = pino.destination({
    dest: file,
    append: true,
    sync: true,
    mkdir: true,
    mode: DATA_FILE_MODE,
    maxLength: LOG_BACKLOG_BYTES,
  });
  destination.on('error', () => undefined);
  return destination;
}

export async function startServer(
  config: Config,
  logDestination?: DestinationStream,
): Promise<RunningServer> {
  const logger = createLogger(
    config.logLevel,
    logDestination ?? (config.logFile ? logFileDestination(config.logFile) : undefined),
  );
  const version = serverVersion();
  logger.info({ ...version, database: config.database.kind }, 'starting');
  const db = openDatabase(config.database, (err) =>
    logger.warn(
      { err: { name: err.name, message: err.message } },
      'idle database connection failed',
    ),
  );
  const mailer = createMailer(config.auth.mail, logger);
  const auth = createAuth({ config, db, logger, mailer, userDeletion: accountDeletionHooks() });
  await migrateAll(db, auth);
  // Self-hosted: the operator's plan gets its configured limits (issue 33).
  await applyInstancePlan(db.kysely, config.plans, new Date());
  // [Note: WAL checkpoints off the event loop] in db/checkpointer.ts.
  const checkpointer =
    db.kind === 'sqlite' && config.database.kind === 'sqlite'
      ? startCheckpointer(db.raw as SQLite.Database, config.database.file, (message) =>
          logger.warn({ message }, 'checkpoints are back on the main connection'),
        )
      : undefined;
  const locks = sharedLocks(db);
  const files = createFileStorage(config, locks);
  const now = () => new Date();
  // One set of metrics for the app and the jobs (metrics/metrics.ts); none without METRICS_TOKEN.
  const metrics = config.metricsToken ? createMetrics({ db, logger, version }) : disabledMetrics;
  const app = createApp({ config, db, logger, now, auth, files, metrics, version });
  const deps = { config, db, logger, now, files, metrics };
  const runner = { logger, locks, metrics };
  const jobs = [
    startPeriodicJob(fileSweepJob(deps, config.sweepIntervalMs), runner),
    startPeriodicJob(trashPurgeJob(deps, config.sweepIntervalMs), runner),
    startPeriodicJob(shareSweepJob(deps, config.sweepIntervalMs), runner),
    startPeriodicJob(subscriptionJob({ db, logger, now }, config.sweepIntervalMs), runner),
  ];
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { port, host: config.host, url: config.publicUrl, database: db.kind, ...version },
    'listening',
  );
  return {
    port,
    db,
    logger,
    async close() {
      for (const job of jobs) job.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await locks.close();
      await checkpointer?.stop();
      await db.close();
    },
  };
}
