// Entry point: read the configuration, start, and shut down gracefully on SIGTERM/SIGINT.
// Standard output carries JSON log lines only (issue 33), even a configuration error: a log
// collector reads one format.
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { PROCESS_UMASK } from './db/file-modes.ts';
import { startServer } from './server.ts';
import { createLogger } from './logger.ts';

// [Note: data file modes] in db/file-modes.ts: everything this process creates is owner-only.
process.umask(PROCESS_UMASK);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      // No configuration, so no LOG_LEVEL or LOG_FILE: one line, written before the exit.
      createLogger('info', pino.destination({ dest: 1, sync: true })).fatal(err.message);
      process.exit(1);
    }
    throw err;
  }
  // startServer logs 'listening' with the port, the database and the version.
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
