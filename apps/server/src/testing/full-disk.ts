// Test helper: the database of a test app on a full disk. Every write (INSERT, UPDATE, DELETE)
// fails as the real database fails when its disk is full, and reads still work: SQLite with
// SQLITE_FULL ("database or disk is full"), PostgreSQL with 53100 disk_full. The fault tier
// (apps/server/faults/full-disk*.test.ts) fills a real disk; this is the in-process stand-in.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestApp } from './harness.ts';

const WRITE = /^\s*(insert|update|delete|replace)\b/i;

/** Makes the app's database refuse every write until the returned `free()` is called. */
export function fillDatabase(t: TestApp): { free: () => void } {
  if (t.db.kind === 'sqlite') {
    const sqlite = t.db.raw as SQLite.Database;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((sql: string) => {
      const stmt = prepare(sql);
      if (!WRITE.test(sql)) return stmt;
      const full = () => {
        throw new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL');
      };
      // A stand-in, not the statement changed: the real one stays usable once space is back.
      return { reader: stmt.reader, run: full, all: full, get: full, iterate: full };
    }) as unknown as typeof sqlite.prepare;
    // The statements kept so far were prepared before the disk filled: they go, and so do the
    // stand-ins when it is freed.
    t.db.forgetStatements();
    return {
      free: () => {
        Reflect.deleteProperty(sqlite, 'prepare');
        t.db.forgetStatements();
      },
    };
  }
  // Kysely's PostgreSQL driver queries through pool clients, which are pg.Client instances.
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const sql = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    if (sql && WRITE.test(sql)) {
      const err = Object.assign(
        new Error('could not extend file "base/16384/16385": No space left on device'),
        { code: '53100', severity: 'ERROR' },
      );
      return Promise.reject(err);
    }
    return query.apply(this, args);
  };
  return {
    free: () => {
      proto.query = query;
    },
  };
}
