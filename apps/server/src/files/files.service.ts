// File operations for the vault's owner (docs/product.md §4 and §5 files, issue 6): list, rename (replace
// the encrypted metadata), delete (record and blob), and the storage shared by routes and the
// sweep (files/storage.ts, one per app, passed in as `deps.files`). A blob's deletion is queued in the transaction that removes its record and carried out
// right after it commits; the sweep retries whatever is left (uploads.sweep.ts). A file its vault's
// provider holds has only a record here, and deleting it removes only that ([Note: provider-held
// files] in files.repository.ts); the browser removes the provider's copy.
import type { RenameFileRequest, TrashFilesRequest, VaultFile } from '@sealvault/protocol';
import { messages, purgedFileMessage } from '@sealvault/protocol';
import type { Transaction } from 'kysely';
import type { BlobKey } from '../blobs/blob-store.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps, WithUser } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { assertVaultWritable, whose } from '../plans/read-only.ts';
import { assertCurrentKey } from '../vaults/key-revision.ts';
import { findVault } from '../vaults/vaults.repository.ts';
import * as repo from './files.repository.ts';
import {
  dueBlobDeletions,
  queueBlobDeletions,
  unqueueBlobDeletions,
} from './blob-deletions.repository.ts';
import { expireUploadsOfVault } from './uploads.repository.ts';
import * as trash from './trash.repository.ts';
import { texts } from './uploads.errors.ts';
import { deleteOnFullDisk } from './storage-guard.ts';

export type FilesDeps = Pick<AppDeps, 'db' | 'now' | 'logger' | 'config' | 'files' | 'metrics'> &
  WithUser;

export const fileNotFound = () => notFound(messages.files.notFound);

/** The user's vault, or 404 'Vault not found' (another user's vault reads as missing). */
export async function ownVault(deps: FilesDeps, userId: string, vaultId: string) {
  const vault = await findVault(deps.db.kysely, userId, vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  return vault;
}

export async function listFiles(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
): Promise<VaultFile[]> {
  await ownVault(deps, userId, vaultId);
  return (await repo.listFiles(deps.db.kysely, vaultId)).map(repo.toFile);
}

export async function getFile(deps: FilesDeps, userId: string, vaultId: string, fileId: string) {
  await ownVault(deps, userId, vaultId);
  const row = await repo.findFile(deps.db.kysely, vaultId, fileId);
  if (!row) throw fileNotFound();
  return row;
}

export async function renameFile(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  fileId: string,
  input: RenameFileRequest,
): Promise<VaultFile> {
  await getFile(deps, userId, vaultId, fileId);
  const db = deps.db.kysely;
  await assertVaultWritable(db, whose(deps, userId), vaultId, deps.logger);
  const duplicate = () => new HttpError(409, 'conflict', texts.duplicateName);
  await db
    .transaction()
    .execute(async (trx) => {
      // [Note: key revision of a write]: the new metadata is sealed under the vault's keys.
      await assertCurrentKey(trx, deps.db.kind, userId, vaultId, input.key_revision);
      if (await repo.lookupTaken(trx, vaultId, input.name_lookup, fileId)) throw duplicate();
      const values = {
        enc_meta: input.enc_meta,
        name_lookup: input.name_lookup,
        updated_at: deps.now().toISOString(),
      };
      if (!(await repo.renameFile(trx, vaultId, fileId, values))) throw fileNotFound();
    })
    .catch((err: unknown) => {
      throw repo.isUniqueViolation(err) ? duplicate() : err;
    });
  return repo.toFile((await repo.findFile(db, vaultId, fileId))!);
}

/**
 * POST /files/trash ([Note: trash] in the protocol's files.ts): every id a file of the vault or
 * 404, a purged record taken out of the trash 409, and then nothing changed. Only `trashed_at`
 * changes (not updated_at: the record is the same), so it is no write under the vault's keys.
 * A read-only vault refuses it as it refuses a file's deletion (assertVaultWritable).
 */
export async function trashFiles(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  input: TrashFilesRequest,
): Promise<VaultFile[]> {
  await ownVault(deps, userId, vaultId);
  const db = deps.db.kysely;
  await assertVaultWritable(db, whose(deps, userId), vaultId, deps.logger);
  const ids = [...new Set(input.ids)];
  const purged = () => new HttpError(409, 'conflict', purgedFileMessage);
  await db.transaction().execute(async (trx) => {
    const rows = await trash.lockFilesForTrash(trx, deps.db.kind, vaultId, ids);
    if (rows.length !== ids.length) throw fileNotFound();
    if (input.trashed) {
      await trash.setTrashed(trx, vaultId, ids, deps.now().toISOString());
      return;
    }
    if (rows.some((r) => r.purged_at !== null)) throw purged();
    // The rows are locked (or SQLite's writer is alone), so this only confirms the check.
    if ((await trash.setTrashed(trx, vaultId, ids, null)) !== ids.length) throw purged();
  });
  return (await trash.filesByIds(db, vaultId, ids)).map(repo.toFile);
}

export async function deleteFile(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  fileId: string,
): Promise<void> {
  await ownVault(deps, userId, vaultId);
  const db = deps.db.kysely;
  await assertVaultWritable(db, whose(deps, userId), vaultId, deps.logger);
  const keys = await deleteOnFullDisk(
    () =>
      db.transaction().execute(async (trx) => {
        const removed = await repo.deleteFileRows(trx, vaultId, fileId);
        if (removed.count === 0) throw fileNotFound();
        await queueBlobDeletions(trx, removed.blobKeys, deps.now().toISOString());
        return removed.blobKeys;
      }),
    async () => {
      const row = await repo.findFile(db, vaultId, fileId);
      const key = row ? repo.blobKeyOf(row) : null;
      if (key) await deps.files.blobs.delete(key);
    },
  );
  await purgeBlobs(deps, keys);
}

/** On a full disk, before a vault's deletion is tried again: its files' blobs, freed first. */
export async function freeBlobsOfVault(deps: FilesDeps, vaultId: string): Promise<void> {
  const { blobs } = deps.files;
  for (const row of await repo.listFiles(deps.db.kysely, vaultId)) {
    const key = repo.blobKeyOf(row);
    if (key) await blobs.delete(key);
  }
}

/**
 * For vault deletion, inside its transaction: removes the vault's file rows, queues their blobs
 * and expires its unfinished uploads. Returns the blob keys for purgeBlobs after the commit.
 */
export async function deleteFilesOfVault(
  trx: Transaction<Database>,
  vaultId: string,
  now: Date,
): Promise<string[]> {
  const { blobKeys } = await repo.deleteFileRows(trx, vaultId);
  await queueBlobDeletions(trx, blobKeys, now.toISOString());
  await expireUploadsOfVault(trx, vaultId, now.toISOString());
  return blobKeys;
}

/**
 * Deletes queued blobs that are due (all due ones without `keys`); a failure is logged and left
 * queued for the sweep. Returns how many were deleted.
 */
export async function purgeBlobs(deps: FilesDeps, keys?: string[]): Promise<number> {
  const db = deps.db.kysely;
  const due = await dueBlobDeletions(db, deps.now().toISOString(), keys);
  const { blobs } = deps.files;
  let deleted = 0;
  for (const key of due) {
    try {
      await blobs.delete(key as BlobKey);
      await unqueueBlobDeletions(db, [key]);
      deleted += 1;
    } catch (err) {
      deps.logger.warn(
        { err: err instanceof Error ? err.message : 'unknown' },
        'blob delete failed',
      );
    }
  }
  return deleted;
}
