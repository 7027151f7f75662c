import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { openDatabase, withStatementCache } from './database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('database', () => {
  it('runs migrations once: running them again changes nothing', async () => {
    const { migrateToLatest } = await import('./migrations.ts');
    await migrateToLatest(t.db.kysely);
    const rows = await t.db.kysely.selectFrom('subscription_plans').select('id').execute();
    expect(rows).toHaveLength(4);
  });

  it('serialises parallel read-modify-write transactions without losing an update', async () => {
    await sql`create table counter (id integer primary key, n integer not null)`.execute(
      t.db.kysely,
    );
    await sql`insert into counter (id, n) values (1, 0)`.execute(t.db.kysely);
    const bump = () =>
      t.db.kysely.transaction().execute(async (trx) => {
        const row = await sql<{ n: number }>`select n from counter where id = 1 for update`
          .execute(trx)
          .catch(() => sql<{ n: number }>`select n from counter where id = 1`.execute(trx));
        await sql`update counter set n = ${Number(row.rows[0]?.n) + 1} where id = 1`.execute(trx);
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    const final = await sql<{ n: number }>`select n from counter where id = 1`.execute(t.db.kysely);
    expect(Number(final.rows[0]?.n)).toBe(20);
  });
});

describe('SQLite transactions', () => {
  it('fail with SQLITE_FULL on a full database, not with the rollback SQLite already did', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-full-'));
    const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'full.db') });
    try {
      await sql`create table t (x blob)`.execute(db.kysely);
      // The database may not grow past 50 pages: the inserts below run out of room, and SQLite
      // undoes the whole transaction itself, as on a full disk.
      (db.raw as SQLite.Database).pragma('max_page_count = 50');
      const filling = db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++) {
          await sql`insert into t (x) values (${Buffer.alloc(3000)})`.execute(trx);
        }
      });
      await expect(filling).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      // Nothing of it was kept, and the connection takes new transactions.
      await db.kysely.transaction().execute(async (trx) => {
        await sql`insert into t (x) values (${Buffer.alloc(10)})`.execute(trx);
      });
      const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
      expect(Number(rows.rows[0]?.n)).toBe(1);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite statement cache', () => {
  it('prepares a statement once per SQL text, keeps the most recent ones, and follows a schema change', () => {
    const sqlite = new SQLite(':memory:');
    try {
      const prepared: string[] = [];
      const original = sqlite.prepare.bind(sqlite);
      sqlite.prepare = (text: string) => {
        prepared.push(text);
        return original(text);
      };
      const cached = withStatementCache(sqlite, 2).database;
      cached.prepare('create table t (x integer)').run();
      const insert = 'insert into t (x) values (?)';
      for (let i = 0; i < 5; i++) cached.prepare(insert).run(i);
      expect(prepared.filter((p) => p === insert)).toHaveLength(1);
      // Two more texts push the insert out (size 2): it is prepared again.
      cached.prepare('select count(*) as n from t').get();
      cached.prepare('select sum(x) as s from t').get();
      cached.prepare(insert).run(5);
      expect(prepared.filter((p) => p === insert)).toHaveLength(2);
      // A kept statement still answers after the table changes shape.
      const all = 'select * from t order by x';
      expect(cached.prepare(all).all()).toHaveLength(6);
      cached.prepare('alter table t add column y text').run();
      expect(cached.prepare(all).get()).toEqual({ x: 0, y: null });
      // Everything else is the handle's own.
      expect(cached.inTransaction).toBe(false);
      expect(cached.open).toBe(true);
    } finally {
      sqlite.close();
    }
  });

  it('serves the whole server: its queries reuse their statements', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-stmt-'));
    const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'cache.db') });
    try {
      const raw = db.raw as SQLite.Database;
      const original = raw.prepare.bind(raw);
      let prepares = 0;
      raw.prepare = (text: string) => {
        prepares++;
        return original(text);
      };
      await sql`create table t (x integer)`.execute(db.kysely);
      for (let i = 0; i < 10; i++) await sql`insert into t (x) values (${i})`.execute(db.kysely);
      await db.kysely.transaction().execute(async (trx) => {
        await sql`insert into t (x) values (${10})`.execute(trx);
      });
      const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
      expect(Number(rows.rows[0]?.n)).toBe(11);
      // create, insert, begin immediate, commit, count: five texts, each prepared once.
      expect(prepares).toBe(5);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL pool', () => {
  it('survives an idle connection being terminated, and reports it', async () => {
    const errors: Error[] = [];
    const db = openDatabase(t.config.database, (err) => errors.push(err));
    try {
      await sql`select 1`.execute(db.kysely); // leaves an idle client in the pool
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name = ''
          and state = 'idle'`.execute(t.db.kysely);
      await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThan(0);
      const again = await sql<{ n: number }>`select 1 as n`.execute(db.kysely);
      expect(Number(again.rows[0]?.n)).toBe(1);
    } finally {
      await db.close();
    }
  });
});
