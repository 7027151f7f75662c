// The new-file end of finishUpload (uploads.finish.ts, [Note: recoverable finish]): the bytes are
// verified and under their blob key, so the vault_files row is created, in one transaction with
// the upload's move to 'done'. The move-mode end is recordMoveCopy in uploads.move.ts.
import type { Selectable } from 'kysely';
import {
  messages,
  STALE_KEY_MESSAGE,
  vaultMovedMessage,
  type ProviderType,
} from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import type { FileUploadsTable } from '../db/schema.ts';
import * as repo from './files.repository.ts';
import { unqueueBlobDeletions } from './blob-deletions.repository.ts';
import type { FilesDeps } from './files.service.ts';
import { quotaExceededAtRecord } from './storage-guard.ts';
import { texts, TusHttpError } from './uploads.errors.ts';

/**
 * The record, in one transaction with the row's move to 'done' (only under our claim:
 * `claimDone` throws when another attempt holds it).
 */
export async function recordFile(
  deps: FilesDeps,
  row: Selectable<FileUploadsTable>,
  claimDone: (trx: repo.Q) => Promise<void>,
  key: BlobKey,
  size: number,
  checksum: string,
): Promise<void> {
  const now = deps.now().toISOString();
  await deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      await claimDone(trx);
      const vault = await repo.lockVault(trx, deps.db.kind, row.user_id, row.vault_id);
      if (!vault) throw new TusHttpError(404, 'not_found', messages.vaults.notFound);
      // Issue 27: the vault moved to another provider on another device since the upload began.
      if (vault.provider_type !== 'server')
        throw new TusHttpError(
          409,
          'vault_moved',
          vaultMovedMessage(vault.provider_type as ProviderType),
        );
      // [Note: key revision of a write]: a rotation since the upload began retired its file key.
      if (row.key_revision != null && Number(row.key_revision) !== Number(vault.key_revision))
        throw new TusHttpError(409, 'stale_key', STALE_KEY_MESSAGE);
      if (await repo.fileIdTaken(trx, row.file_id)) {
        throw new TusHttpError(409, 'conflict', texts.duplicateId);
      }
      if (await repo.lookupTaken(trx, row.vault_id, row.name_lookup)) {
        throw new TusHttpError(409, 'conflict', texts.duplicateName);
      }
      const overQuota = await quotaExceededAtRecord(trx, row.user_id, size);
      if (overQuota) throw new TusHttpError(413, 'payload_too_large', overQuota);
      await repo.insertFile(trx, {
        id: row.file_id,
        vault_id: row.vault_id,
        user_id: row.user_id,
        enc_meta: row.enc_meta,
        name_lookup: row.name_lookup,
        wrapped_key: row.wrapped_key,
        ciphertext_size: size,
        checksum,
        checksum_algorithm: 'content-hash-4m',
        blob_key: key,
        created_at: now,
        updated_at: now,
      });
      await unqueueBlobDeletions(trx, [key]);
    })
    .catch((err: unknown) => {
      if (repo.isUniqueViolation(err)) throw new TusHttpError(409, 'conflict', texts.duplicateName);
      throw err;
    });
}
