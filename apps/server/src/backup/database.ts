// The database half of a backup: a consistent copy and its way back.
// - SQLite: better-sqlite3's online backup API (https://www.sqlite.org/backup.html) copies a
//   snapshot page by page while the server keeps running; restoring replaces the file (the
//   server stopped), dropping the old -wal and -shm, which would otherwise be replayed into it.
// - PostgreSQL: pg_dump in its custom format (one snapshot of the whole database) and pg_restore
//   --clean --if-exists in one transaction. The password travels in PGPASSWORD, never in argv,
//   where other local users could read it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../db/file-modes.ts';

const run = promisify(execFile);

/** pg_dump / pg_restore: on PATH first, else the newest of Debian's /usr/lib/postgresql/<n>/bin. */
export function findPgTool(name: 'pg_dump' | 'pg_restore'): string | null {
  const isExecutable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    if (isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const file = path.join(root, v, 'bin', name);
    if (isExecutable(file)) return file;
  }
  return null;
}

/** A libpq connection URL without its password, and the environment that carries it. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return {
    dbname: u.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

async function runPgTool(name: 'pg_dump' | 'pg_restore', args: string[], url: string) {
  const tool = findPgTool(name);
  if (!tool) {
    throw new Error(
      `${name} not found on PATH or in /usr/lib/postgresql/*/bin (install postgresql-client)`,
    );
  }
  const { dbname, env } = connection(url);
  try {
    await run(tool, [...args, `--dbname=${dbname}`], { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`${name} failed: ${stderr || (err as Error).message}`, { cause: err });
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes a consistent copy of the database to `dest` (created 0600). */
export async function dumpDatabase(database: Config['database'], dest: string): Promise<void> {
  if (database.kind === 'sqlite') {
    const source = new SQLite(database.file, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      await source.backup(dest);
    } finally {
      source.close();
    }
  } else {
    await runPgTool('pg_dump', ['--format=custom', `--file=${dest}`], database.url);
  }
  await fsp.chmod(dest, DATA_FILE_MODE);
  await fsyncFile(dest);
}

/** Replaces the database with the copy in `source` (SQLite: with the server stopped). */
export async function loadDatabase(database: Config['database'], source: string): Promise<void> {
  if (database.kind === 'postgres') {
    await runPgTool(
      'pg_restore',
      ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', source],
      database.url,
    );
    return;
  }
  const file = database.file;
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: DATA_DIR_MODE });
  const tmp = `${file}.restoring`;
  await fsp.copyFile(source, tmp);
  await fsp.chmod(tmp, DATA_FILE_MODE);
  await fsyncFile(tmp);
  // A -wal of the old database would be replayed into the new one on its first open.
  for (const stale of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    await fsp.rm(stale, { force: true });
  }
  await fsp.rename(tmp, file);
  const dir = await fsp.open(path.dirname(file), 'r');
  await dir.sync().catch(() => undefined);
  await dir.close();
}

/** Whether the database holds any account: restore refuses to overwrite one without --force. */
export async function hasAccounts(database: Config['database']): Promise<boolean> {
  if (database.kind === 'sqlite') {
    if (!fs.existsSync(database.file) || fs.statSync(database.file).size === 0) return false;
    const db = new SQLite(database.file, { readonly: true, fileMustExist: true });
    try {
      const table = db
        .prepare("select 1 from sqlite_master where type = 'table' and name = 'user'")
        .get();
      return !!table && !!db.prepare('select 1 from "user" limit 1').get();
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const table = await client.query<{ t: string | null }>(
      `select to_regclass('public.user') as t`,
    );
    if (!table.rows[0]?.t) return false;
    const { rows } = await client.query<{ found: boolean }>(
      'select exists (select 1 from public."user") as found',
    );
    return rows[0]?.found === true;
  } finally {
    await client.end();
  }
}
