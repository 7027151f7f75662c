// Schema migrations, in code, run at start-up on SQLite and PostgreSQL alike. Append new entries;
// never edit one that has shipped. Names sort in the order they apply.
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { seedPlans } from '../plans/plans.seed.ts';
import type { Database } from './schema.ts';

const migrations: Record<string, Migration> = {
  '0001_subscription_plans': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('subscription_plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('max_vaults', 'integer', (c) => c.notNull())
        .addColumn('max_file_size_mb', 'integer', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await seedPlans(db);
    },
  },
};

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : 'see the database log';
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}
