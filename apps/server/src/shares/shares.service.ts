// Share links for their owner (issue 29): create, send a file link's bytes, list, change the
// expiry, revoke; and what deleting a vault or an account removes. The plan's share limits (active
// links and the MiB they hold) and the storage quota are checked inside the write transaction,
// one user's link writes at a time (SQLite's IMMEDIATE transactions; an advisory lock per user on
// PostgreSQL), so parallel requests cannot pass them. [Note: share link data] in
// shares.repository.ts says what counts where.
//
// A vault that only reads after a lapsed trial (plans/read-only.ts) may still share: a link is a
// read of what the vault holds (its owner may download it too), made under the Free plan's share
// limits, and it changes nothing in the vault.
import { sql, type Transaction } from 'kysely';
import {
  isUnlimited,
  messages,
  SHARE_EXPIRIES,
  shareLimitMessage,
  shareMessages,
  shareSizeLimitMessage,
  shareStorageQuotaMessage,
  type CreateShareRequest,
  type ShareExpiry,
  type ShareLink,
} from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import { HttpError, notFound } from '../http/errors.ts';
import * as files from '../files/files.repository.ts';
import { queueBlobDeletions } from '../files/blob-deletions.repository.ts';
import { unfinishedUploadsOf } from '../files/uploads.repository.ts';
import { purgeBlobs, type FilesDeps } from '../files/files.service.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import * as repo from './shares.repository.ts';

export type SharesDeps = FilesDeps;

const MiB = 1024 * 1024;

export const shareNotFound = () => notFound(shareMessages.notFound);

/** Bytes of a base64 text, as decoded. */
const decodedLength = (b64: string) =>
  (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

const expiryFrom = (now: Date, expiresIn: ShareExpiry) =>
  new Date(now.getTime() + SHARE_EXPIRIES[expiresIn] * 1000).toISOString();

/** One user's share writes at a time on PostgreSQL; SQLite's write transactions already are. */
async function lockUserShares(deps: SharesDeps, trx: Transaction<Database>, userId: string) {
  if (deps.db.kind === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`shares:${userId}`}))`.execute(trx);
  }
}

/**
 * 403 unless one more active link of `size` bytes fits the plan: its count, its MiB of active
 * links and, for a file link (`stored`), the storage quota with the user's unfinished uploads.
 */
async function assertShareAllowed(
  deps: SharesDeps,
  trx: Transaction<Database>,
  userId: string,
  size: number,
  stored: boolean,
  now: string,
) {
  const limits = await getLimits(trx, userId, deps.logger);
  const usage = await repo.activeUsage(trx, userId, now);
  const maxLinks = limits.max_share_links;
  if (maxLinks !== undefined && !isUnlimited(maxLinks) && usage.count >= maxLinks) {
    throw new HttpError(403, 'limit_reached', shareLimitMessage(maxLinks));
  }
  const maxMb = limits.max_share_mb;
  if (maxMb !== undefined && !isUnlimited(maxMb) && usage.bytes + size > maxMb * MiB) {
    throw new HttpError(403, 'limit_reached', shareSizeLimitMessage(maxMb));
  }
  const quota = limits.max_storage_mb;
  if (!stored || quota === undefined || isUnlimited(quota)) return;
  const pending = await unfinishedUploadsOf(trx, userId, now);
  if ((await storageUsed(trx, userId)) + pending.bytes + size > quota * MiB) {
    throw new HttpError(403, 'limit_reached', shareStorageQuotaMessage(quota));
  }
}

/**
 * The user's vault for a link of `kind`, share-locked until the transaction ends on PostgreSQL,
 * so that a vault deletion (which locks it for update first, deleteSharesOfVault) either sees the
 * new link or comes first and leaves none to make.
 */
async function vaultForLink(
  deps: SharesDeps,
  trx: Transaction<Database>,
  userId: string,
  vaultId: string,
  kind: 'file' | 'secret',
) {
  let q = trx
    .selectFrom('vaults')
    .select(['id', 'vault_type'])
    .where('id', '=', vaultId)
    .where('user_id', '=', userId);
  if (deps.db.kind === 'postgres') q = q.forShare();
  const vault = await q.executeTakeFirst();
  if (!vault) throw notFound(messages.vaults.notFound);
  if (kind === 'file' && vault.vault_type !== 'files') {
    throw new HttpError(400, 'bad_request', shareMessages.fileVaultRequired);
  }
  if (kind === 'secret' && vault.vault_type !== 'secrets') {
    throw new HttpError(400, 'bad_request', shareMessages.secretsVaultRequired);
  }
}

export async function createShare(
  deps: SharesDeps,
  userId: string,
  input: CreateShareRequest,
): Promise<ShareLink> {
  const now = deps.now();
  const at = now.toISOString();
  const isFile = input.kind === 'file';
  const size = isFile ? input.ciphertext_size : decodedLength(input.payload);
  const duplicate = () => new HttpError(409, 'conflict', shareMessages.duplicateId);
  const db = deps.db.kysely;
  await db
    .transaction()
    .execute(async (trx) => {
      await lockUserShares(deps, trx, userId);
      if (input.kind !== 'text') await vaultForLink(deps, trx, userId, input.vault_id, input.kind);
      await assertShareAllowed(deps, trx, userId, size, isFile, at);
      if (
        await trx
          .selectFrom('share_links')
          .select('id')
          .where('id', '=', input.id)
          .executeTakeFirst()
      ) {
        throw duplicate();
      }
      await repo.insertShare(trx, {
        id: input.id,
        user_id: userId,
        vault_id: input.kind === 'text' ? null : input.vault_id,
        kind: input.kind,
        access_hash: input.access_hash,
        kdf: input.kdf ? JSON.stringify(input.kdf) : null,
        enc_note: input.enc_note ?? null,
        enc_meta: input.enc_meta,
        payload: isFile ? null : input.payload,
        wrapped_key: isFile ? input.wrapped_key : null,
        ciphertext_size: size,
        blob_key: null,
        content_complete: isFile ? 0 : 1,
        owner_key: input.owner_key ?? null,
        max_opens: input.max_opens,
        opens: 0,
        used_up_at: null,
        expires_at: expiryFrom(now, input.expires_in),
        created_at: at,
        data_deleted_at: null,
      });
    })
    .catch((err: unknown) => {
      throw files.isUniqueViolation(err) ? duplicate() : err;
    });
  return repo.toShareLink((await repo.findOwnShare(db, userId, input.id))!, at);
}

export async function listShares(deps: SharesDeps, userId: string): Promise<ShareLink[]> {
  const at = deps.now().toISOString();
  return (await repo.listOwnShares(deps.db.kysely, userId)).map((r) => repo.toShareLink(r, at));
}

/**
 * A new expiry from now, for a link whose data is still here (409 once the sweep deleted it).
 * A link that was no longer active and becomes active again must fit the plan as a new one.
 */
export async function updateShareExpiry(
  deps: SharesDeps,
  userId: string,
  id: string,
  expiresIn: ShareExpiry,
): Promise<ShareLink> {
  const now = deps.now();
  const at = now.toISOString();
  const db = deps.db.kysely;
  await db.transaction().execute(async (trx) => {
    await lockUserShares(deps, trx, userId);
    const row = await repo.lockOwnShare(trx, deps.db.kind, userId, id);
    if (!row) throw shareNotFound();
    if (row.data_deleted_at !== null)
      throw new HttpError(409, 'conflict', shareMessages.dataDeleted);
    const expiresAt = expiryFrom(now, expiresIn);
    const revives = !repo.isActive(row, at) && repo.isActive({ ...row, expires_at: expiresAt }, at);
    if (revives) await assertShareAllowed(deps, trx, userId, repo.sizeOf(row), false, at);
    await repo.setExpiry(trx, userId, id, expiresAt);
  });
  return repo.toShareLink((await repo.findOwnShare(db, userId, id))!, at);
}

/** Revokes a link: its row and its blob go at once (a failed blob deletion stays queued). */
export async function revokeShare(deps: SharesDeps, userId: string, id: string): Promise<void> {
  const keys = await deps.db.kysely.transaction().execute(async (trx) => {
    const removed = await repo.deleteShares(trx, { userId, id });
    if (removed.count === 0) throw shareNotFound();
    await queueBlobDeletions(trx, removed.blobKeys, deps.now().toISOString());
    return removed.blobKeys;
  });
  await purgeBlobs(deps, keys);
}

/**
 * For a vault's deletion, inside its transaction and before the vault's row goes: locks the
 * vault (for update on PostgreSQL; see vaultForLink), deletes its links and queues their blobs.
 * Returns the blob keys for purgeBlobs after the commit.
 */
export async function deleteSharesOfVault(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  vaultId: string,
  now: Date,
): Promise<string[]> {
  if (kind === 'postgres') {
    await trx.selectFrom('vaults').select('id').where('id', '=', vaultId).forUpdate().execute();
  }
  const { blobKeys } = await repo.deleteShares(trx, { vaultId });
  await queueBlobDeletions(trx, blobKeys, now.toISOString());
  return blobKeys;
}

/**
 * [Note: user deletion hooks] A deleted account's links go, text links included; their blobs
 * stay queued and the file sweep deletes them. Idempotent.
 */
export const deleteSharesOfUser: UserDeletedHook = async ({ db, userId }) => {
  await db.kysely.transaction().execute(async (trx) => {
    const { blobKeys } = await repo.deleteShares(trx, { userId });
    await queueBlobDeletions(trx, blobKeys, new Date().toISOString());
  });
};
