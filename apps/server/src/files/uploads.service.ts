// The checks in front of @tus/server (uploads.routes.ts): a new upload is refused before a byte
// is stored unless its metadata, vault, declared length, plan limits and free space are right
// (a move-mode creation, issue 27, is checked in uploads.move.ts)
// (storage-guard.ts); a running one
// is reachable only by the user who created it [Note: upload ownership in uploads.ts]; a body's
// Upload-Checksum must name an algorithm we support (the tus checksum extension).
import { Metadata } from '@tus/server';
import {
  fileTooLargeMessage,
  maxCiphertextLength,
  messages,
  plaintextLength,
  checksumSchema,
  MOVE_FILE_ID_METADATA,
  UPLOAD_CHECKSUM_HEADER,
  uploadMetadataSchema,
} from '@sealvault/protocol';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { getLimits } from '../plans/limits.service.ts';
import { assertVaultWritable, whose } from '../plans/read-only.ts';
import { staleKey } from '../vaults/key-revision.ts';
import { findVault } from '../vaults/vaults.repository.ts';
import * as repo from './files.repository.ts';
import { findUpload } from './uploads.repository.ts';
import type { FilesDeps } from './files.service.ts';
import { checkFreeSpace, checkUploadAllowance } from './storage-guard.ts';
import { checkMoveUpload, type UploadMode } from './uploads.move.ts';
import { texts } from './uploads.errors.ts';
import { CHECKSUM_ALGORITHMS, type BodyCheck } from './uploads.hashes.ts';
import { UPLOAD_ID_PATTERN, type CreationMetadata } from './uploads.ts';

/**
 * The creation metadata. `checksum` (the content hash) may be left out when the client streams
 * its encryption and only knows it at the end: it then sends it on the PATCH that completes the
 * upload, as UPLOAD_FINAL_CHECKSUM_HEADER ([Note: deferred checksum] in uploads.ts).
 */
const creationMetadataSchema = uploadMetadataSchema.extend({ checksum: checksumSchema.optional() });

function parseRawMetadata(header: string | null): Record<string, string | null> {
  if (!header) throw badRequest('Upload-Metadata is required.');
  try {
    return Metadata.parse(header);
  } catch {
    throw badRequest('Upload-Metadata is not valid tus metadata.');
  }
}

function parseMetadata(raw: Record<string, string | null>): CreationMetadata {
  const parsed = creationMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw badRequest(`Upload-Metadata ${where}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Everything a creation request (tus POST) must pass; nothing has been stored yet. */
export async function checkNewUpload(
  deps: FilesDeps,
  userId: string,
  headers: Headers,
): Promise<{ meta: CreationMetadata; length: number; mode?: UploadMode }> {
  if (headers.get('upload-defer-length') !== null) {
    throw badRequest('Upload-Defer-Length is not supported: declare Upload-Length.');
  }
  if (headers.get('upload-concat') !== null) {
    throw badRequest('Upload-Concat is not supported.');
  }
  const lengthHeader = headers.get('upload-length');
  if (lengthHeader === null || !/^\d{1,16}$/.test(lengthHeader)) {
    throw badRequest('Upload-Length is required.');
  }
  const length = Number(lengthHeader);
  const plain = plaintextLength(length);
  if (plain === null) throw badRequest('Upload-Length is not the length of a vf1 ciphertext.');
  const raw = parseRawMetadata(headers.get('upload-metadata'));
  // Issue 27: the copy of an existing file for a vault moving here (uploads.move.ts).
  if (Object.hasOwn(raw, MOVE_FILE_ID_METADATA)) return checkMoveUpload(deps, userId, raw, length);
  const meta = parseMetadata(raw);

  const db = deps.db.kysely;
  const vault = await findVault(db, userId, meta.vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  if (vault.vault_type !== 'files' || vault.provider_type !== 'server') {
    throw badRequest('This vault does not keep files on this server.');
  }
  await assertVaultWritable(db, whose(deps, userId), vault.id, deps.logger);
  // [Note: key revision of a write]; checked again when the record is made (uploads.record.ts).
  if (Number(vault.key_revision) !== Number(meta.keyRevision)) throw staleKey();
  const limits = await getLimits(db, userId, deps.logger);
  const max = maxCiphertextLength(limits.max_file_size_mb);
  if (max !== null && length > max) {
    throw new HttpError(413, 'payload_too_large', fileTooLargeMessage(plain));
  }
  await checkUploadAllowance(deps, userId, length, limits.max_storage_mb);
  await checkFreeSpace(deps, deps.files, length);
  if (await repo.fileIdTaken(db, meta.fileId))
    throw new HttpError(409, 'conflict', texts.duplicateId);
  if (await repo.lookupTaken(db, meta.vaultId, meta.lookup)) {
    throw new HttpError(409, 'conflict', texts.duplicateName);
  }
  return { meta, length };
}

/** The running upload `id` of this user: 404 for anyone else's or none, 410 once expired. */
export async function ownUpload(deps: FilesDeps, userId: string, id: string) {
  if (!UPLOAD_ID_PATTERN.test(id)) throw notFound(texts.uploadNotFound);
  const row = await findUpload(deps.db.kysely, id);
  if (!row || row.user_id !== userId) throw notFound(texts.uploadNotFound);
  if (new Date(row.expires_at).getTime() <= deps.now().getTime()) {
    throw new HttpError(410, 'not_found', texts.uploadExpired);
  }
  return row;
}

const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The request's Upload-Checksum (tus checksum extension: `<algorithm> <base64 digest>` of the
 * body), or null without one. An algorithm other than sha256, or a value that is not a SHA-256
 * in base64, is refused (400) before a byte is read [Note: checksum per PATCH in uploads.store.ts].
 */
export function parseUploadChecksum(headers: Headers, uploadLength: number): BodyCheck | null {
  const header = headers.get(UPLOAD_CHECKSUM_HEADER);
  if (header === null) return null;
  const malformed = () =>
    badRequest(
      `${UPLOAD_CHECKSUM_HEADER} must be "sha256 <the base64 SHA-256 of the request body>".`,
    );
  const [, algorithm = '', value = ''] = /^(\S+) (\S+)$/.exec(header.trim()) ?? [];
  if (!algorithm) throw malformed();
  if (!(CHECKSUM_ALGORITHMS as readonly string[]).includes(algorithm.toLowerCase())) {
    throw badRequest(
      `${UPLOAD_CHECKSUM_HEADER} uses an algorithm this server does not support: use ${CHECKSUM_ALGORITHMS.join(' or ')}.`,
    );
  }
  if (!SHA256_BASE64.test(value)) throw malformed();
  const length = headers.get('content-length');
  return {
    digest: Buffer.from(value, 'base64'),
    contentLength: length !== null && /^\d{1,16}$/.test(length) ? Number(length) : null,
    uploadLength,
  };
}
