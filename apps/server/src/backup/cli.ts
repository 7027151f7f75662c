// `npm run backup -- [dir]` and `npm run restore -- <dir> [--force]` (docs/backup.md). They read
// the same environment as the server (config.ts), so they back up and restore what it uses.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { runBackup } from './backup.ts';
import { runRestore } from './restore.ts';

const USAGE =
  'Usage: npm run backup -- [<dir>]   (a new or empty directory; default ./backups/<time>)\n' +
  '       npm run restore -- <dir> [--force]   (with the server stopped)';

export interface CliResult {
  code: 0 | 1;
  message: string;
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

export async function runBackupCli(
  args: string[],
  config: Config,
  log: (message: string) => void = () => undefined,
): Promise<CliResult> {
  const [command, ...rest] = args;
  const force = rest.includes('--force');
  const [dir, ...extra] = rest.filter((a) => a !== '--force');
  if (extra.length > 0 || (command === 'backup' && force)) return { code: 1, message: USAGE };
  try {
    if (command === 'backup') {
      const target = dir ?? path.join('backups', `sealvault-${stamp(new Date())}`);
      const m = await runBackup({ config, dir: target, log });
      return {
        code: 0,
        message: `Backed up the ${m.database.kind} database and ${m.blobs.count} blobs (${m.blobs.bytes} bytes) to ${path.resolve(target)}.`,
      };
    }
    if (command === 'restore' && dir) {
      const r = await runRestore({ config, dir, force, log });
      const lost = r.filesWithoutBlob.length;
      return {
        code: 0,
        message:
          `Restored the ${r.manifest.database.kind} database and ${r.manifest.blobs.count} blobs from ${path.resolve(dir)}.` +
          (lost > 0 ? ` ${lost} file record(s) have no blob (deleted while the backup ran).` : ''),
      };
    }
    return { code: 1, message: USAGE };
  } catch (err) {
    return { code: 1, message: `${command} failed: ${(err as Error).message}` };
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const result = await runBackupCli(process.argv.slice(2), config, (m) => console.log(m));
  (result.code === 0 ? console.log : console.error)(result.message);
  process.exit(result.code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
