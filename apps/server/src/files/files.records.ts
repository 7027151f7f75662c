// Records of files that a vault's storage provider holds (issue 14; [Note: provider-held files] in
// files.repository.ts). The browser puts the ciphertext into the provider itself, then records it
// here with the provider's reference and the content hash, so that the provider's copy can be
// checked later. The server never receives those bytes. Files of a vault on this server get
// their record from the tus upload that brought the bytes (uploads.finish.ts,
// uploads.record.ts), never from here.
import {
  fileTooLargeMessage,
  maxCiphertextLength,
  messages,
  plaintextLength,
  vaultMovedMessage,
  type CreateFileRecordRequest,
  type ProviderType,
  type VaultFile,
} from '@sealvault/protocol';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { getLimits } from '../plans/limits.service.ts';
import { assertVaultWritable, whose } from '../plans/read-only.ts';
import { staleKey } from '../vaults/key-revision.ts';
import * as repo from './files.repository.ts';
import { ownVault, type FilesDeps } from './files.service.ts';
import { texts } from './uploads.errors.ts';

export const recordTexts = {
  notFilesVault: 'This vault does not keep files.',
  serverVault: 'This vault keeps its files on this server: upload them instead of recording them.',
  notCiphertextSize: 'ciphertext_size is not the length of a vf1 ciphertext.',
  providerHeld: "This file is kept in the vault's storage provider, not on this server.",
};

/** Checks the vault (the user's files vault on another provider) and the size, then records. */
export async function createFileRecord(
  deps: FilesDeps,
  userId: string,
  vaultId: string,
  input: CreateFileRecordRequest,
): Promise<VaultFile> {
  const vault = await ownVault(deps, userId, vaultId);
  // Issue 27: the browser wrote the bytes to a provider the vault has left on another device.
  const movedTo = (provider: string) =>
    new HttpError(409, 'vault_moved', vaultMovedMessage(provider as ProviderType));
  if (input.provider_type !== undefined && input.provider_type !== vault.provider_type)
    throw movedTo(vault.provider_type);
  if (vault.vault_type !== 'files') throw badRequest(recordTexts.notFilesVault);
  if (vault.provider_type === 'server') throw badRequest(recordTexts.serverVault);
  await assertVaultWritable(deps.db.kysely, whose(deps, userId), vaultId, deps.logger);

  const plain = plaintextLength(input.ciphertext_size);
  if (plain === null) throw badRequest(recordTexts.notCiphertextSize);
  const db = deps.db.kysely;
  // The plan's file-size limit holds whatever the provider. The storage quota does not apply:
  // it is about this server's disk (checkUploadAllowance, storageUsed), and these bytes are not
  // on it; the provider's own quota limits them.
  const max = maxCiphertextLength((await getLimits(db, userId, deps.logger)).max_file_size_mb);
  if (max !== null && input.ciphertext_size > max) {
    throw new HttpError(413, 'payload_too_large', fileTooLargeMessage(plain));
  }

  const now = deps.now().toISOString();
  const row = {
    id: input.id,
    vault_id: vaultId,
    user_id: userId,
    enc_meta: input.enc_meta,
    name_lookup: input.name_lookup,
    wrapped_key: input.wrapped_key,
    ciphertext_size: input.ciphertext_size,
    checksum: input.checksum,
    checksum_algorithm: 'content-hash-4m' as const,
    blob_key: '', // none: the provider holds the bytes
    storage_ref: input.storage_ref,
    created_at: now,
    updated_at: now,
    trashed_at: null,
    purged_at: null,
  };
  await db
    .transaction()
    .execute(async (trx) => {
      // Again under the lock: a vault deleted meanwhile must not gain a record.
      const locked = await repo.lockVault(trx, deps.db.kind, userId, vaultId);
      if (!locked) throw notFound(messages.vaults.notFound);
      // [Note: key revision of a write]: the file key is wrapped under the vault's current keys.
      if (Number(locked.key_revision) !== input.key_revision) throw staleKey();
      // Again under the lock: a move's switch may have committed since (vaults/moves.switch.ts).
      if (locked.provider_type !== vault.provider_type) throw movedTo(locked.provider_type);
      if (await repo.fileIdTaken(trx, input.id)) {
        throw new HttpError(409, 'conflict', texts.duplicateId);
      }
      if (await repo.lookupTaken(trx, vaultId, input.name_lookup)) {
        throw new HttpError(409, 'conflict', texts.duplicateName);
      }
      await repo.insertFile(trx, row);
    })
    .catch(async (err: unknown) => {
      if (!repo.isUniqueViolation(err)) throw err;
      // a racing request took the id or the name between the checks and the insert
      const idTaken = await repo.fileIdTaken(db, input.id);
      throw new HttpError(409, 'conflict', idTaken ? texts.duplicateId : texts.duplicateName);
    });
  return repo.toFile(row);
}
