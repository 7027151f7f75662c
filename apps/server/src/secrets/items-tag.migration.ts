// Migration 0250 (issue 31, conditional list reads): `vaults.items_tag`, a random token that the
// database itself replaces whenever a row of `secret_items` of the vault is inserted, changed or
// deleted, by any code path (routes, imports, key rotation, moves, cascades). The secrets list
// answers it as its ETag ([Note: conditional secrets list] in secrets.routes.ts).
// Random rather than a counter: a tag is never used for two different lists, so a database
// restored from a backup cannot answer 304 to a list the browser cached after the backup.
// Triggers rather than writes in the services, so that no future path can forget it.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** A fresh 16-hex-digit token, in each dialect's SQL. */
const SQLITE_TAG = 'lower(hex(randomblob(8)))';
const PG_TAG = 'substr(md5(random()::text || clock_timestamp()::text), 1, 16)';

async function sqliteTriggers(db: Kysely<unknown>) {
  const tag = sql.raw(SQLITE_TAG);
  await sql`update vaults set items_tag = ${tag}`.execute(db);
  await sql`create trigger secret_items_tag_insert after insert on secret_items begin
    update vaults set items_tag = ${tag} where id = new.vault_id; end`.execute(db);
  await sql`create trigger secret_items_tag_update after update on secret_items begin
    update vaults set items_tag = ${tag} where id in (old.vault_id, new.vault_id); end`.execute(db);
  await sql`create trigger secret_items_tag_delete after delete on secret_items begin
    update vaults set items_tag = ${tag} where id = old.vault_id; end`.execute(db);
}

/**
 * PostgreSQL: statement-level triggers with transition tables, so that an import of thousands of
 * items rewrites its vault's row once, not once per item (one trigger per event: a trigger with
 * transition tables takes a single event).
 */
async function postgresTriggers(db: Kysely<unknown>) {
  const tag = sql.raw(PG_TAG);
  await sql`update vaults set items_tag = ${tag}`.execute(db);
  await sql`create function secret_items_tag() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        update vaults set items_tag = ${tag} where id in (select vault_id from old_rows);
      end if;
      if tg_op <> 'DELETE' then
        update vaults set items_tag = ${tag} where id in (select vault_id from new_rows);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger secret_items_tag_insert after insert on secret_items
    referencing new table as new_rows for each statement execute function secret_items_tag()`.execute(
    db,
  );
  await sql`create trigger secret_items_tag_update after update on secret_items
    referencing old table as old_rows new table as new_rows
    for each statement execute function secret_items_tag()`.execute(db);
  await sql`create trigger secret_items_tag_delete after delete on secret_items
    referencing old table as old_rows for each statement execute function secret_items_tag()`.execute(
    db,
  );
}

export const itemsTagMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('vaults').addColumn('items_tag', 'text').execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
    else await sqliteTriggers(db);
  },
};
