// Secret items of one vault. Callers check vault ownership first (secrets.service.ts); every
// query here is also scoped by vault id, so an item id alone reaches nothing.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { SecretRecord } from '@sealvault/protocol';
import { prepared } from '../db/prepared.ts';
import type { Database, SecretItemsTable } from '../db/schema.ts';

export type Q = Kysely<Database> | Transaction<Database>;

export const toRecord = (r: Selectable<SecretItemsTable>): SecretRecord => ({
  id: r.id,
  revision: r.revision,
  data: r.data,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const listItems = (db: Q, vaultId: string) =>
  db
    .selectFrom('secret_items')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/**
 * [Note: secrets list as SQLite JSON] On SQLite the list's JSON is built by SQLite itself, in the
 * order and with the fields of toRecord(): making a JS object of every row and stringifying them
 * all cost about twice as much CPU for a list of a few hundred items (issue 31, the API's CPU per
 * request). The text is the same JSON.stringify writes for these fields (ids, base64 and ISO times
 * need no escaping it would write differently). PostgreSQL lists through listItems.
 * The rows come in order from a subquery that the (vault_id, created_at, id) index answers
 * without a sort (migration 0260): SQLite keeps a FROM-clause subquery's ORDER BY under an
 * aggregate other than count, min and max, and json_group_array adds the rows in that order. An
 * ORDER BY inside the aggregate sorted every list again (about 40% of the query's time for 450
 * items, bench/RESULTS.md "Speed II, fourth round").
 */
export async function listItemsJsonSqlite(db: Q, vaultId: string): Promise<string> {
  const { rows } = await sql<{ items: string }>`
    select json_group_array(
      json_object(
        'id', id, 'revision', revision, 'data', data,
        'created_at', created_at, 'updated_at', updated_at
      )
    ) as items
    from (
      select id, revision, data, created_at, updated_at from secret_items
      where vault_id = ${vaultId} order by created_at, id
    )`.execute(db);
  return rows[0]?.items ?? '[]';
}

export const findItem = (db: Q, vaultId: string, id: string) =>
  db
    .selectFrom('secret_items')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Whether any of `ids` is taken, in any vault (ids are unique across the table). */
export async function anyItemIdTaken(db: Q, ids: string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const row = await db
    .selectFrom('secret_items')
    .select('id')
    .where('id', 'in', ids)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Many rows in one statement (callers keep a batch under the databases' parameter caps). */
export const insertItems = (db: Q, rows: SecretItemsTable[]) =>
  db.insertInto('secret_items').values(rows).execute();

/**
 * Inserts one item (built once, [Note: prepared queries] in db/prepared.ts); an id taken in any
 * vault fails as a unique violation (files.repository.ts, isUniqueViolation).
 */
const insertOne = prepared((db, row: SecretItemsTable) =>
  db.insertInto('secret_items').values(row),
);
export const insertItem = (db: Q, row: SecretItemsTable) =>
  insertOne(db, {
    id: row.id,
    vault_id: row.vault_id,
    data: row.data,
    revision: row.revision,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

/** Compare-and-swap on the revision; false when the stored revision moved on (or no such item). */
export async function updateItem(
  db: Q,
  vaultId: string,
  id: string,
  expectedRevision: number,
  data: string,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('secret_items')
    .set({ data, revision: expectedRevision + 1, updated_at: now })
    .where('vault_id', '=', vaultId)
    .where('id', '=', id)
    .where('revision', '=', expectedRevision)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteItem(db: Q, vaultId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('secret_items')
    .where('vault_id', '=', vaultId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

export const deleteItemsOfVault = (db: Q, vaultId: string) =>
  db.deleteFrom('secret_items').where('vault_id', '=', vaultId).execute();

/** Number of secrets per vault, for the dashboard counts (one grouped query). */
// Built once per number of vaults ([Note: prepared queries] in db/prepared.ts): every vault list
// with a secrets vault runs it.
const itemCounts = prepared((db, a: { vaultIds: string[] }) =>
  db
    .selectFrom('secret_items')
    .select((eb) => ['vault_id', eb.fn.countAll<string | number>().as('n')])
    .where('vault_id', 'in', a.vaultIds)
    .groupBy('vault_id'),
);

export async function countItemsByVault(db: Q, vaultIds: string[]): Promise<Map<string, number>> {
  if (vaultIds.length === 0) return new Map();
  const rows = await itemCounts(db, { vaultIds });
  return new Map(rows.map((r) => [r.vault_id, Number(r.n)]));
}
