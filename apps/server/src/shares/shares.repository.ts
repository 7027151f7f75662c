// Rows of share_links (issue 29). The owner's queries take the user id, so one user never reaches
// another's link; the public routes find a link by its id alone and then hold the access token's
// hash to it (public.routes.ts).
//
// [Note: share link data] A link's data is its ciphertext: the payload (secret, text), the
// wrapped key and the blob (file), the metadata, the note and the owner's copy of the key. A link
// is *active* while it is not expired, its data is not deleted and its opens are not used up
// (activeWhere). The plan's share limits count active links; the storage quota counts a file
// link's bytes for as long as they are on this server, from creation until the sweep deletes
// them (shares.sweep.ts), because that is what the disk holds. The sweep clears the data of a
// link past its expiry or used up (with a download's margin) and keeps the row, with
// data_deleted_at, 30 days for its owner's list; revoking deletes row and blob at once.
import type { ExpressionBuilder, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { ShareLink, ShareStatus } from '@sealvault/protocol';
import type { Database, ShareLinksTable } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;
export type ShareRow = Selectable<ShareLinksTable>;

/** SQL: the link is active at `now` ([Note: share link data]). */
export const activeWhere = (eb: ExpressionBuilder<Database, 'share_links'>, now: string) =>
  eb.and([
    eb('share_links.expires_at', '>', now),
    eb('share_links.data_deleted_at', 'is', null),
    eb.or([
      eb('share_links.max_opens', 'is', null),
      eb('share_links.opens', '<', eb.ref('share_links.max_opens')),
    ]),
  ]);

export const isUsedUp = (r: Pick<ShareRow, 'max_opens' | 'opens'>) =>
  r.max_opens !== null && Number(r.opens) >= Number(r.max_opens);

/** The same test as activeWhere, on a row read. */
export const isActive = (r: ShareRow, now: string) =>
  r.expires_at > now && r.data_deleted_at === null && !isUsedUp(r);

export function statusOf(r: ShareRow, now: string): ShareStatus {
  if (isUsedUp(r)) return 'used-up';
  return isActive(r, now) ? 'active' : 'expired';
}

export const sizeOf = (r: Pick<ShareRow, 'ciphertext_size'>) => Number(r.ciphertext_size ?? 0);

export const toShareLink = (r: ShareRow, now: string): ShareLink => ({
  id: r.id,
  kind: r.kind,
  vault_id: r.vault_id,
  created_at: r.created_at,
  expires_at: r.expires_at,
  max_opens: r.max_opens === null ? null : Number(r.max_opens),
  opens: Number(r.opens),
  size: sizeOf(r),
  owner_key: r.owner_key,
  status: statusOf(r, now),
  complete: r.content_complete === 1,
});

export const insertShare = (db: Q, row: Insertable<ShareLinksTable>) =>
  db.insertInto('share_links').values(row).execute();

export const findOwnShare = (db: Q, userId: string, id: string) =>
  db
    .selectFrom('share_links')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** The user's link, locked until the transaction ends on PostgreSQL (SQLite's writer is alone). */
export function lockOwnShare(db: Q, kind: 'sqlite' | 'postgres', userId: string, id: string) {
  let q = db
    .selectFrom('share_links')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId);
  if (kind === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

export const listOwnShares = (db: Q, userId: string) =>
  db
    .selectFrom('share_links')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** How many of the user's links are active at `now`, and the bytes they hold together. */
export async function activeUsage(
  db: Q,
  userId: string,
  now: string,
): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('share_links')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('n'),
      eb.fn.sum<string | number | null>('ciphertext_size').as('bytes'),
    ])
    .where('user_id', '=', userId)
    .where((eb) => activeWhere(eb, now))
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export async function setExpiry(db: Q, userId: string, id: string, expiresAt: string) {
  await db
    .updateTable('share_links')
    .set({ expires_at: expiresAt })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * A file link's bytes are in: only once, and only while its data is kept. False when the link
 * is gone, already complete or swept meanwhile.
 */
export async function completeContent(
  db: Q,
  userId: string,
  id: string,
  blobKey: string,
): Promise<boolean> {
  const res = await db
    .updateTable('share_links')
    .set({ blob_key: blobKey, content_complete: 1, content_parts: null })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('kind', '=', 'file')
    .where('content_complete', '=', 0)
    .where('data_deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes links (one of the user's, all of a vault's or all of a user's); their blob keys. */
export async function deleteShares(
  db: Q,
  where: { userId: string; id?: string } | { vaultId: string },
): Promise<{ count: number; blobKeys: string[] }> {
  let sel = db.selectFrom('share_links').select(['id', 'blob_key', 'content_parts']);
  let del = db.deleteFrom('share_links');
  if ('vaultId' in where) {
    sel = sel.where('vault_id', '=', where.vaultId);
    del = del.where('vault_id', '=', where.vaultId);
  } else {
    sel = sel.where('user_id', '=', where.userId);
    del = del.where('user_id', '=', where.userId);
    if (where.id !== undefined) {
      sel = sel.where('id', '=', where.id);
      del = del.where('id', '=', where.id);
    }
  }
  const rows = await sel.execute();
  if (rows.length) await del.execute();
  return { count: rows.length, blobKeys: rows.flatMap(blobKeysOfRow) };
}

// ---- the public routes ----

/** A link by id, with its owner's display name, for the public routes. */
export const findPublicShare = (db: Q, id: string) =>
  db
    .selectFrom('share_links')
    .leftJoin('profiles', 'profiles.id', 'share_links.user_id')
    .selectAll('share_links')
    .select('profiles.full_name as owner_name')
    .where('share_links.id', '=', id)
    .executeTakeFirst();

/**
 * Counts one open, atomically: one conditional UPDATE that only an active link whose token hash
 * matches passes (a file link only once its bytes are in), so concurrent opens on any number of
 * instances never pass max_opens. The open that spends the last one records when. Both
 * databases evaluate the SET expressions against the row as it was. Undefined: no open counted.
 */
export const countOpen = (db: Q, id: string, accessHash: string, now: string) =>
  db
    .updateTable('share_links')
    .set((eb) => ({
      opens: eb('opens', '+', 1),
      used_up_at: sql<string | null>`case when ${eb.ref('max_opens')} is not null and ${eb.ref(
        'opens',
      )} + 1 >= ${eb.ref('max_opens')} then ${now} else ${eb.ref('used_up_at')} end`,
    }))
    .where('id', '=', id)
    .where('access_hash', '=', accessHash)
    .where('content_complete', '=', 1)
    .where((eb) => activeWhere(eb, now))
    .returning(['kind', 'payload'])
    .executeTakeFirst();

// ---- the sweep ----

/** Up to `limit` links whose data is due for deletion at `now`: see shares.sweep.ts. */
export async function dueForDataDeletion(
  db: Q,
  now: string,
  usedUpCutoff: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('share_links')
    .select('id')
    .where('data_deleted_at', 'is', null)
    .where((eb) => dueWhere(eb, now, usedUpCutoff))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

const dueWhere = (
  eb: ExpressionBuilder<Database, 'share_links'>,
  now: string,
  usedUpCutoff: string,
) =>
  eb.or([
    eb('expires_at', '<=', now),
    // A file link's download token lives on after the last open; a payload went with the open.
    eb('used_up_at', '<=', usedUpCutoff),
    eb.and([eb('kind', '!=', 'file'), eb('used_up_at', '<=', now)]),
  ]);

/** Clears the data of those of `ids` still due; answers the ids cleared. */
export async function clearData(
  db: Q,
  ids: string[],
  now: string,
  usedUpCutoff: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('share_links')
    .set({
      payload: null,
      enc_meta: null,
      enc_note: null,
      wrapped_key: null,
      owner_key: null,
      blob_key: null,
      content_parts: null,
      data_deleted_at: now,
    })
    .where('id', 'in', ids)
    .where('data_deleted_at', 'is', null)
    .where((eb) => dueWhere(eb, now, usedUpCutoff))
    .returning(['id'])
    .execute();
  return rows.map((r) => r.id);
}

/** The blob keys of `ids`, parts included (read before clearData clears them, in the same transaction). */
export async function blobKeysOf(db: Q, ids: string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('share_links')
    .select(['id', 'blob_key', 'content_parts'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, blobKeysOfRow(r)]));
}

/** A content part received (shares.content.ts). */
export interface ContentPart {
  key: string;
  size: number;
}

/** The parts a row lists (none when null). */
export const partsOf = (row: { content_parts: string | null }): ContentPart[] =>
  row.content_parts ? (JSON.parse(row.content_parts) as ContentPart[]) : [];

/** Every blob a row holds: its content's, or the parts received so far. */
const blobKeysOfRow = (r: { blob_key: string | null; content_parts: string | null }) => [
  ...(r.blob_key ? [r.blob_key] : []),
  ...partsOf(r).map((p) => p.key),
];

/**
 * Adds a part to a link whose content is not complete, if its parts are still `before` (another
 * request did not add one meanwhile) and its data was not deleted. False when it was not added.
 */
export async function addContentPart(
  db: Q,
  userId: string,
  id: string,
  before: string | null,
  parts: ContentPart[],
): Promise<boolean> {
  let q = db
    .updateTable('share_links')
    .set({ content_parts: JSON.stringify(parts) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('content_complete', '=', 0)
    .where('data_deleted_at', 'is', null);
  q =
    before === null ? q.where('content_parts', 'is', null) : q.where('content_parts', '=', before);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes rows whose data went at or before `cutoff`; how many. */
export async function deleteOldRows(db: Q, cutoff: string): Promise<number> {
  const res = await db
    .deleteFrom('share_links')
    .where('data_deleted_at', '<=', cutoff)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
