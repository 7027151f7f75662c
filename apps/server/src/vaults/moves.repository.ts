// Rows of vault_moves and vault_move_items (issue 27). Callers check that the vault is the user's
// first; every query here is scoped by the vault id.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { MoveItem, VaultMove } from '@sealvault/protocol';
import type { Database, VaultMoveItemsTable, VaultMovesTable } from '../db/schema.ts';

export type Q = Kysely<Database> | Transaction<Database>;

export const toItem = (r: Selectable<VaultMoveItemsTable>): MoveItem => ({
  id: r.item_id,
  kind: r.kind,
  ref: r.ref,
  checksum: r.checksum,
  size: Number(r.size),
});

export const toMove = (r: Selectable<VaultMovesTable>, items: MoveItem[]): VaultMove => ({
  vault_id: r.vault_id,
  source_provider: r.source_provider as VaultMove['source_provider'],
  target_provider: r.target_provider as VaultMove['target_provider'],
  target_folder: r.target_folder,
  delete_source: r.delete_source === 1,
  started_at: r.started_at,
  updated_at: r.updated_at,
  items,
});

export const findMove = (db: Q, vaultId: string) =>
  db.selectFrom('vault_moves').selectAll().where('vault_id', '=', vaultId).executeTakeFirst();

export const listItems = (db: Q, vaultId: string) =>
  db
    .selectFrom('vault_move_items')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .orderBy('item_id')
    .execute();

export const insertMove = (db: Q, row: VaultMovesTable) =>
  db.insertInto('vault_moves').values(row).execute();

export const updateMove = (
  db: Q,
  vaultId: string,
  values: Partial<Pick<VaultMovesTable, 'delete_source' | 'updated_at'>>,
) => db.updateTable('vault_moves').set(values).where('vault_id', '=', vaultId).execute();

/** Deletes the move and its items; answers the items it had. */
export async function deleteMove(
  db: Q,
  vaultId: string,
): Promise<Selectable<VaultMoveItemsTable>[]> {
  const items = await listItems(db, vaultId);
  await db.deleteFrom('vault_move_items').where('vault_id', '=', vaultId).execute();
  await db.deleteFrom('vault_moves').where('vault_id', '=', vaultId).execute();
  return items;
}

/** Rows per statement: 6 parameters each, well under SQLite's and PostgreSQL's caps. */
const BATCH = 500;

/** Inserts or replaces the items (by vault and item id); answers the ones they replaced. */
export async function upsertItems(
  db: Q,
  vaultId: string,
  items: readonly MoveItem[],
): Promise<Selectable<VaultMoveItemsTable>[]> {
  const replaced: Selectable<VaultMoveItemsTable>[] = [];
  for (let at = 0; at < items.length; at += BATCH) {
    const batch = items.slice(at, at + BATCH);
    replaced.push(
      ...(await db
        .selectFrom('vault_move_items')
        .selectAll()
        .where('vault_id', '=', vaultId)
        .where(
          'item_id',
          'in',
          batch.map((i) => i.id),
        )
        .execute()),
    );
    await db
      .insertInto('vault_move_items')
      .values(
        batch.map((i) => ({
          vault_id: vaultId,
          item_id: i.id,
          kind: i.kind,
          ref: i.ref,
          checksum: i.checksum,
          size: i.size,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['vault_id', 'item_id']).doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          ref: eb.ref('excluded.ref'),
          checksum: eb.ref('excluded.checksum'),
          size: eb.ref('excluded.size'),
        })),
      )
      .execute();
  }
  return replaced;
}

/** Bytes staged on this server by the user's moves to it, except `exceptVault`'s. */
export async function stagedBytesOf(db: Q, userId: string, exceptVault?: string): Promise<number> {
  let q = db
    .selectFrom('vault_move_items as i')
    .innerJoin('vault_moves as m', 'm.vault_id', 'i.vault_id')
    .select((eb) => eb.fn.sum<string | number | null>('i.size').as('bytes'))
    .where('m.user_id', '=', userId)
    .where('m.target_provider', '=', 'server')
    .where('i.kind', '=', 'file');
  if (exceptVault) q = q.where('m.vault_id', '!=', exceptVault);
  const row = await q.executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Makes the vault's unfinished move-mode uploads expire now: refused from here on, and swept. */
export const expireMoveUploads = (db: Q, vaultId: string, now: string) =>
  db
    .updateTable('file_uploads')
    .set({ expires_at: now })
    .where('vault_id', '=', vaultId)
    .where('mode', 'is not', null)
    .where('state', '!=', 'done')
    .execute();
