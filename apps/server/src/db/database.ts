// Opens the database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is
// set. SQLite runs in WAL mode with a busy timeout, and its write transactions begin IMMEDIATE so
// two writers never deadlock upgrading a read lock (architecture.md, Server).
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE, tightenMode } from './file-modes.ts';

export type DatabaseKind = Config['database']['kind'];

export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** The raw better-sqlite3 handle or pg pool, for libraries that bring their own queries. */
  raw: SQLite.Database | pg.Pool;
  /**
   * Drops the SQLite statements kept by withStatementCache, so that the next queries prepare
   * theirs through `raw.prepare` again (tests that stand in for a full disk replace it); nothing
   * on PostgreSQL.
   */
  forgetStatements(): void;
  close(): Promise<void>;
}

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    private readonly database: SQLite.Database,
    statements: SQLite.Database,
  ) {
    super({ database: statements });
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * On some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY, SQLITE_NOMEM) SQLite may roll the
   * whole transaction back itself (https://www.sqlite.org/lang_transaction.html, "Response To
   * Errors Within A Transaction"). A ROLLBACK then fails with "cannot rollback - no transaction
   * is active", and Kysely would throw that instead of the error that matters: a full disk
   * would read as a 500 rather than SQLITE_FULL, which files/storage-guard.ts answers.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

/** How many prepared statements a SQLite database keeps (by SQL text, least recently used out). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The better-sqlite3 handle as Kysely's SQLite driver sees it, with its statements kept by SQL
 * text: the driver prepares every query anew, which was about a tenth of the server's CPU per API
 * request (bench/RESULTS.md, "API load"). Kysely runs one query at a time on its one connection,
 * so a statement is never asked for again while it is still iterating; SQLite re-prepares a kept
 * statement itself after a schema change (a migration).
 */
export function withStatementCache(
  sqlite: SQLite.Database,
  size = STATEMENT_CACHE_SIZE,
): { database: SQLite.Database; forget: () => void } {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (sql: string): SQLite.Statement => {
    const kept = cache.get(sql);
    if (kept) {
      // Most recently used last: a Map iterates in insertion order.
      cache.delete(sql);
      cache.set(sql, kept);
      return kept;
    }
    const statement = sqlite.prepare(sql);
    cache.set(sql, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  const database = new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { database, forget: () => cache.clear() };
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SQLite.Database,
    private readonly statements: SQLite.Database,
  ) {
    super({ database });
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.database, this.statements);
  }
}

/**
 * Opens the configured database. `onIdleError` hears errors of idle PostgreSQL connections (the
 * server restarted, a connection was terminated): pg emits them on the pool, and a pool without a
 * listener would turn them into an uncaught exception that stops the process.
 */
export function openDatabase(
  config: Config['database'],
  onIdleError: (err: Error) => void = () => undefined,
): Db {
  if (config.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(config.file), { recursive: true, mode: DATA_DIR_MODE });
    // The file exists with owner-only access before SQLite opens it; SQLite gives the -wal and
    // -shm files the database file's mode. A file made by an older version is tightened too.
    fs.closeSync(fs.openSync(config.file, 'a', DATA_FILE_MODE));
    for (const file of [config.file, `${config.file}-wal`, `${config.file}-shm`])
      tightenMode(file, DATA_FILE_MODE);
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    const statements = withStatementCache(sqlite);
    const kysely = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect(sqlite, statements.database),
    });
    return {
      kysely,
      kind: 'sqlite',
      raw: sqlite,
      forgetStatements: statements.forget,
      close: () => kysely.destroy(),
    };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10 });
  pool.on('error', onIdleError);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely's destroy ends the pool too.
  return {
    kysely,
    kind: 'postgres',
    raw: pool,
    forgetStatements: () => undefined,
    close: () => kysely.destroy(),
  };
}
