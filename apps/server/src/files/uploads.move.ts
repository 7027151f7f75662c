// tus in move mode (issue 27, [Note: vault moves] in vaults/moves.service.ts): the ciphertext of
// an EXISTING file of a files vault that is moving to this server. The creation names the file
// (Upload-Metadata `move_file_id`, protocol files.ts) instead of a new file's encrypted metadata,
// name look-up and wrapped key; it is accepted only while the vault has a recorded move to
// 'server', for a file of that vault, with the file's exact size, under the plan's limits as any
// upload (the file-size limit, and the storage quota counting what the user's moves have staged
// here). On the last byte the content hash the server computed is held to the file record's
// checksum (a mismatch: 460, the blob is deleted, as for any upload), the bytes become a blob
// under a fresh key as usual, and instead of a vault_files row the move's item
// {id: file id, kind 'file', ref: blob key, checksum, size} is recorded, in one transaction with
// the upload's move to 'done'. The client learns it as it learns a normal finish: the final PATCH
// answers 204 with the complete Upload-Offset (HEAD: 200 with Upload-Offset = Upload-Length), and
// GET /api/vaults/:id/move lists the item. The switch then makes the blob the file's.
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  fileTooLargeMessage,
  maxCiphertextLength,
  messages,
  moveUploadMetadataSchema,
  plaintextLength,
  type MoveUploadMetadata,
} from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import type { FileUploadsTable } from '../db/schema.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { getLimits } from '../plans/limits.service.ts';
import * as moves from '../vaults/moves.repository.ts';
import { copyMismatch, noMove } from '../vaults/moves.service.ts';
import { findVault } from '../vaults/vaults.repository.ts';
import * as repo from './files.repository.ts';
import { queueBlobDeletions, unqueueBlobDeletions } from './blob-deletions.repository.ts';
import { fileNotFound, purgeBlobs, type FilesDeps } from './files.service.ts';
import { checkFreeSpace, checkUploadAllowance, quotaExceededAtRecord } from './storage-guard.ts';
import { TusHttpError } from './uploads.errors.ts';
import type { CreationMetadata, FileStorage } from './uploads.ts';

export type UploadMode = 'move' | 'move-sha256';

/** Everything a move-mode creation must pass; `raw` is its parsed Upload-Metadata. */
export async function checkMoveUpload(
  deps: FilesDeps,
  userId: string,
  raw: Record<string, string | null>,
  length: number,
): Promise<{ meta: CreationMetadata; length: number; mode: UploadMode }> {
  const parsed = moveUploadMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw badRequest(`Upload-Metadata ${where}${issue?.message ?? 'invalid'}`);
  }
  const meta: MoveUploadMetadata = parsed.data;
  const db = deps.db.kysely;
  const vault = await findVault(db, userId, meta.vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  if (vault.vault_type !== 'files') throw badRequest(messages.moves.notFilesVault);
  const move = await moves.findMove(db, vault.id);
  if (!move || move.target_provider !== 'server') throw noMove();
  const file = await repo.findFile(db, vault.id, meta.move_file_id);
  if (!file) throw fileNotFound();
  if (Number(file.ciphertext_size) !== length) throw copyMismatch();
  if (meta.checksum !== undefined && meta.checksum !== file.checksum) throw copyMismatch();
  const limits = await getLimits(db, userId, deps.logger);
  const max = maxCiphertextLength(limits.max_file_size_mb);
  if (max !== null && length > max) {
    throw new HttpError(
      413,
      'payload_too_large',
      fileTooLargeMessage(plaintextLength(length) ?? length),
    );
  }
  // The quota counts what the user's moves have staged here as well as files and uploads.
  const staged = await moves.stagedBytesOf(db, userId);
  await checkUploadAllowance(deps, userId, length + staged, limits.max_storage_mb);
  await checkFreeSpace(deps, deps.files, length);
  return {
    meta: {
      vaultId: vault.id,
      fileId: file.id,
      checksum: file.checksum,
      encMeta: '',
      lookup: '',
      wrappedKey: '',
      keyRevision: String(vault.key_revision),
    },
    length,
    mode: file.checksum_algorithm === 'sha256' ? 'move-sha256' : 'move',
  };
}

/** A file recorded before the content hash carries a whole-file SHA-256 (0070_checksum_algorithm). */
export async function sha256Of(storage: FileStorage, id: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of storage.uploads.bytesOf(id)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * The move-mode end of finishUpload (uploads.finish.ts): in one transaction with the upload's
 * move to 'done' (under its claim: `claimDone` answers false when another attempt holds it), the
 * copy is recorded as the move's item. A move gone or retargeted meanwhile, or a file deleted,
 * fails the upload for good (its blob is removed by the caller). A copy that replaces an earlier
 * one of the same file queues that one's blob.
 */
export async function recordMoveCopy(
  deps: FilesDeps,
  row: Selectable<FileUploadsTable>,
  claimDone: (trx: moves.Q) => Promise<void>,
  key: BlobKey,
  size: number,
  checksum: string,
): Promise<void> {
  const now = deps.now().toISOString();
  const replaced = await deps.db.kysely.transaction().execute(async (trx) => {
    await claimDone(trx);
    const vault = await repo.lockVault(trx, deps.db.kind, row.user_id, row.vault_id);
    if (!vault) throw new TusHttpError(404, 'not_found', messages.vaults.notFound);
    const move = await moves.findMove(trx, row.vault_id);
    if (!move || move.target_provider !== 'server')
      throw new TusHttpError(409, 'no_move', messages.moves.noMove);
    const file = await repo.findFile(trx, row.vault_id, row.file_id);
    if (!file) throw new TusHttpError(404, 'not_found', messages.files.notFound);
    if (file.checksum !== checksum || Number(file.ciphertext_size) !== size)
      throw new TusHttpError(409, 'copy_mismatch', messages.moves.copyMismatch);
    const staged = await moves.stagedBytesOf(trx, row.user_id);
    const overQuota = await quotaExceededAtRecord(trx, row.user_id, size + staged);
    if (overQuota) throw new TusHttpError(413, 'payload_too_large', overQuota);
    const item = { id: file.id, kind: 'file' as const, ref: key, checksum, size };
    const old = (await moves.upsertItems(trx, row.vault_id, [item]))
      .map((i) => i.ref)
      .filter((ref) => ref !== key);
    await queueBlobDeletions(trx, old, now);
    await unqueueBlobDeletions(trx, [key]);
    await moves.updateMove(trx, row.vault_id, { updated_at: now });
    return old;
  });
  await purgeBlobs(deps, replaced);
}
