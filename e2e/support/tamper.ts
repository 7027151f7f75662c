// The hostile server of the e2e tier (issue 18): reads and rewrites the e2e server's rows behind
// its back, in its SQLite file (E2E_DATA_DIR/vault.db, WAL), between page loads. Nothing here
// goes through the network. Each call opens the file, waits for the server's writes to finish
// (busy_timeout) and closes it again.
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The tables a hostile server rewrites here (apps/server/src/db/schema.ts). */
export type TamperTable =
  'vaults' | 'secret_items' | 'vault_files' | 'vault_manifests' | 'share_links';

export type Row = Record<string, string | number | null>;

/** The key column of each table (vault_manifests has one row per vault). */
const KEY: Record<TamperTable, string> = {
  vaults: 'id',
  secret_items: 'id',
  vault_files: 'id',
  vault_manifests: 'vault_id',
  share_links: 'id',
};

const COLUMN = /^[a-z_]+$/;

function checkColumns(columns: string[]): void {
  for (const c of columns) if (!COLUMN.test(c)) throw new Error(`tamper: bad column name ${c}`);
}

function withDb<T>(fn: (db: SQLite.Database) => T): T {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  const db = new SQLite(path.join(dir, 'vault.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    return fn(db);
  } finally {
    db.close();
  }
}

/** Every row of `table` whose `column` is `value`, ordered by the table's key. */
export function rowsWhere(table: TamperTable, column: string, value: string): Row[] {
  checkColumns([column]);
  return withDb(
    (db) =>
      db
        .prepare(`SELECT * FROM ${table} WHERE ${column} = ? ORDER BY ${KEY[table]}`)
        .all(value) as Row[],
  );
}

/** The row of `table` with this key, or undefined. */
export function rowOf(table: TamperTable, key: string): Row | undefined {
  return rowsWhere(table, KEY[table], key)[0];
}

/** Sets `values` on the row with this key; throws unless exactly one row changed. */
export function updateRow(table: TamperTable, key: string, values: Row): void {
  const columns = Object.keys(values);
  checkColumns(columns);
  const changed = withDb(
    (db) =>
      db
        .prepare(
          `UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE ${KEY[table]} = @__key`,
        )
        .run({ ...values, __key: key }).changes,
  );
  if (changed !== 1) throw new Error(`tamper: ${table} ${key}: ${changed} rows updated`);
}

/** Inserts a whole row (e.g. one saved earlier with rowOf). */
export function insertRow(table: TamperTable, row: Row): void {
  const columns = Object.keys(row);
  checkColumns(columns);
  withDb((db) =>
    db
      .prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
      )
      .run(row),
  );
}

/** Deletes the row with this key; throws unless exactly one row went. */
export function deleteRow(table: TamperTable, key: string): void {
  const changed = withDb(
    (db) => db.prepare(`DELETE FROM ${table} WHERE ${KEY[table]} = ?`).run(key).changes,
  );
  if (changed !== 1) throw new Error(`tamper: ${table} ${key}: ${changed} rows deleted`);
}

/** The parts of a stored manifest (ADR 0007) the tests look at. */
export interface StoredManifest {
  version: number;
  slots: string[];
  files: [string, string][];
  secrets: [string, number, string][];
}

/** The vault's manifest as stored: its version and parsed JSON (null when it has none). */
export function storedManifest(
  vaultId: string,
): { version: number; manifest: StoredManifest } | null {
  const row = rowOf('vault_manifests', vaultId);
  if (!row) return null;
  return {
    version: Number(row.version),
    manifest: JSON.parse(String(row.manifest)) as StoredManifest,
  };
}

/** A stored key (protocol's VaultKey), loosely: the tests copy and relabel its slots. */
export interface StoredKey {
  format: string;
  slots: ({ id: string; kind: string } & Record<string, unknown>)[];
}

/** The vault's key slots as stored. */
export function storedKey(vaultId: string): StoredKey {
  const row = rowOf('vaults', vaultId);
  if (!row) throw new Error(`tamper: no vault ${vaultId}`);
  return JSON.parse(String(row.key_json)) as StoredKey;
}

/** Replaces the vault's key slots (the key revision is left as it is). */
export function replaceKey(vaultId: string, key: unknown): void {
  updateRow('vaults', vaultId, { key_json: JSON.stringify(key) });
}
