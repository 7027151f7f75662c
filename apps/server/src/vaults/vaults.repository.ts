// Vault rows: every query takes the owner's user id, so one user can never reach another's
// vault (another user's vault reads as not found, docs/product.md §6 "own vaults only").
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Vault, VaultKey } from '@sealvault/protocol';
import { prepared } from '../db/prepared.ts';
import type { Database, VaultsTable } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

export interface VaultStats {
  file_count: number;
  secrets_count: number;
  total_size: number;
}

const EMPTY_STATS: VaultStats = { file_count: 0, secrets_count: 0, total_size: 0 };

export function toVault(row: Selectable<VaultsTable>, stats: VaultStats = EMPTY_STATS): Vault {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    vault_type: row.vault_type as Vault['vault_type'],
    provider_type: row.provider_type as Vault['provider_type'],
    storage_folder: row.storage_folder,
    is_hidden: row.is_hidden === 1,
    last_accessed: row.last_accessed,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...stats,
    key: JSON.parse(row.key_json) as VaultKey,
    key_revision: row.key_revision,
  };
}

// Both built once ([Note: prepared queries] in db/prepared.ts): every secrets request and every
// vault list runs one of them.
const vaultById = prepared((db, a: { userId: string; vaultId: string }) =>
  db.selectFrom('vaults').selectAll().where('id', '=', a.vaultId).where('user_id', '=', a.userId),
);
const vaultsOf = prepared((db, a: { userId: string }) =>
  db.selectFrom('vaults').selectAll().where('user_id', '=', a.userId),
);

export async function findVault(db: Q, userId: string, vaultId: string) {
  return (await vaultById(db, { userId, vaultId }))[0];
}

/**
 * The user's vaults, oldest first (ties by id). Sorted here rather than by `order by`: SQLite
 * would plan the statement again at every run ([Note: no joins in the session query] in
 * auth/session-check.ts), and a user has a few vaults.
 */
export async function listVaults(db: Q, userId: string) {
  const rows = await vaultsOf(db, { userId });
  const byAge = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => byAge(a.created_at, b.created_at) || byAge(a.id, b.id));
}

export async function countVaults(db: Q, userId: string): Promise<number> {
  const row = await db
    .selectFrom('vaults')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function vaultExists(db: Q, vaultId: string): Promise<boolean> {
  const row = await db
    .selectFrom('vaults')
    .select('id')
    .where('id', '=', vaultId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertVault(db: Q, row: Insertable<VaultsTable>) {
  return db.insertInto('vaults').values(row).execute();
}

export async function updateVault(
  db: Q,
  userId: string,
  vaultId: string,
  values: Partial<Pick<VaultsTable, 'name' | 'description' | 'is_hidden'>> & {
    updated_at?: string;
    storage_folder?: string;
  },
): Promise<boolean> {
  const res = await db
    .updateTable('vaults')
    .set(values)
    .where('id', '=', vaultId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Compare-and-swap on key_revision: false when another device changed the key first. */
export async function replaceKey(
  db: Q,
  userId: string,
  vaultId: string,
  expectedRevision: number,
  key: VaultKey,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('vaults')
    .set({ key_json: JSON.stringify(key), key_revision: expectedRevision + 1, updated_at: now })
    .where('id', '=', vaultId)
    .where('user_id', '=', userId)
    .where('key_revision', '=', expectedRevision)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteVaultRow(db: Q, userId: string, vaultId: string): Promise<boolean> {
  const res = await db
    .deleteFrom('vaults')
    .where('id', '=', vaultId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

export function deleteVaultsOfUser(db: Q, userId: string) {
  return db.deleteFrom('vaults').where('user_id', '=', userId).execute();
}
