// The trash's queries on vault_files ([Note: trash] in the protocol's files.ts): the flag the
// browser sets and clears (POST /api/vaults/:vaultId/files/trash, files.service.ts) and the
// records the trash purge takes (trash.purge.ts). Queries of the route are scoped by vault id
// (the caller checked that the vault is the user's); the purge's run over every vault.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

/**
 * The rows of `ids` in the vault, for a change of their trash flag: locked until the transaction
 * ends on PostgreSQL (SQLite write transactions are already exclusive).
 */
export async function lockFilesForTrash(
  db: Q,
  kind: 'sqlite' | 'postgres',
  vaultId: string,
  ids: string[],
) {
  let q = db
    .selectFrom('vault_files')
    .select(['id', 'purged_at'])
    .where('vault_id', '=', vaultId)
    .where('id', 'in', ids)
    .orderBy('id'); // one lock order for every request, so two cannot deadlock
  if (kind === 'postgres') q = q.forUpdate();
  return q.execute();
}

/**
 * Moves the rows into the trash at `trashedAt` (a row already there keeps its time), or out of
 * it with null (never a purged row). Returns how many rows changed.
 */
export async function setTrashed(
  db: Q,
  vaultId: string,
  ids: string[],
  trashedAt: string | null,
): Promise<number> {
  let q = db
    .updateTable('vault_files')
    .set({ trashed_at: trashedAt })
    .where('vault_id', '=', vaultId)
    .where('id', 'in', ids);
  q = trashedAt === null ? q.where('purged_at', 'is', null) : q.where('trashed_at', 'is', null);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/** The vault's rows of `ids`, in the order listFiles gives them. */
export const filesByIds = (db: Q, vaultId: string, ids: string[]) =>
  db
    .selectFrom('vault_files')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('id', 'in', ids)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Whether the vault has a record the trash purge purged ([Note: trash] in the protocol). */
export async function hasPurgedFiles(db: Q, vaultId: string): Promise<boolean> {
  const row = await db
    .selectFrom('vault_files')
    .select('id')
    .where('vault_id', '=', vaultId)
    .where('purged_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Up to `limit` records trashed at or before `cutoff` whose data is not purged yet, oldest first
 * (the index 0180_file_trash made serves it).
 */
export async function dueForPurge(db: Q, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('vault_files')
    .select('id')
    .where('trashed_at', '<=', cutoff)
    .where('purged_at', 'is', null)
    .orderBy('trashed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Sets `purged_at` on those of `ids` that are still due (not taken out of the trash meanwhile,
 * nor purged by another pass), and answers them with what says where their bytes are.
 */
export const markPurged = (db: Q, ids: string[], cutoff: string, now: string) =>
  db
    .updateTable('vault_files')
    .set({ purged_at: now })
    .where('id', 'in', ids)
    .where('purged_at', 'is', null)
    .where('trashed_at', '<=', cutoff)
    .returning(['id', 'blob_key', 'storage_ref'])
    .execute();
