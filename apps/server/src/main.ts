// Entry point: read the configuration, start, and shut down gracefully on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config.ts';
import { PROCESS_UMASK } from './db/file-modes.ts';
import { startServer } from './server.ts';

// [Note: data file modes] in db/file-modes.ts: everything this process creates is owner-only.
process.umask(PROCESS_UMASK);

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const server = await startServer(config);
  console.log(`SealVault is running on http://localhost:${server.port} (${server.db.kind})`);
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
