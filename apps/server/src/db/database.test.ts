import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../testing/harness.ts';

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
