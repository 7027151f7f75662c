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
  '0010_vaults': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vaults')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('vault_type', 'text', (c) => c.notNull())
        .addColumn('provider_type', 'text', (c) => c.notNull())
        .addColumn('key_json', 'text', (c) => c.notNull())
        .addColumn('key_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_accessed', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vaults_user_id').on('vaults').column('user_id').execute();
    },
  },
  '0030_secret_items': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('secret_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vault_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('secret_items_vault_id')
        .on('secret_items')
        .column('vault_id')
        .execute();
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
