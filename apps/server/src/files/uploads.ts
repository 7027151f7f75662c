// The tus 1.0 upload pipeline (https://tus.io/protocols/resumable-upload; architecture.md,
// Server: Uploads). uploads.routes.ts checks the session, the vault, the metadata and the plan's
// size limit before handing a request to @tus/server; the hooks here record the upload, and on
// its last byte verify the ciphertext's SHA-256, move the bytes into the BlobStore and only then
// create the vault_files row. [Note: upload ownership] An upload's owner lives in file_uploads,
// written on creation; every later tus request is refused (404) unless it comes from that user.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import { messages, UPLOADS_PATH, type ErrorCode, type UploadMetadata } from '@sealvault/protocol';
import { errorBody } from '../http/errors.ts';
import type { StoredBlob } from '../blobs/blob-store.ts';
import type { FsBlobStore } from '../blobs/fs-blob-store.ts';
import * as repo from './files.repository.ts';
import type { FilesDeps } from './files.service.ts';

export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;
/**
 * [Note: deferred checksum] A client that encrypts while it uploads learns the ciphertext's
 * SHA-256 only after the last byte, so it may leave `checksum` out of the creation metadata and
 * send it (64 lowercase hex) in this header on the PATCH that completes the upload. The bytes are
 * verified against it exactly as against a checksum given at creation; if both are given they
 * must agree; with neither the upload fails with a checksum mismatch.
 */
export const FINAL_CHECKSUM_HEADER = 'Upload-Final-Checksum';
/** The creation metadata as checked: the checksum may be deferred to the last PATCH. */
export type CreationMetadata = Omit<UploadMetadata, 'checksum'> & { checksum?: string | undefined };
export const CHECKSUM_MISMATCH_STATUS = 460; // the tus checksum extension's "Checksum Mismatch"
export const texts = {
  checksumMismatch:
    'The uploaded file does not match its checksum (it was corrupted in transit). Please upload it again.',
  duplicateName: 'A file with this name already exists in this vault.',
  duplicateId: 'A file with this id already exists.',
  uploadNotFound: 'Upload not found',
  uploadExpired: 'This upload has expired. Please upload the file again.',
  busy: 'This upload is being completed.',
};

/** An error a tus hook throws: @tus/server answers with its status_code and body. */
export class TusHttpError extends Error {
  readonly status_code: number;
  readonly body: string;
  constructor(status: number, code: ErrorCode, message: string) {
    super(message);
    this.name = 'TusHttpError';
    this.status_code = status;
    this.body = JSON.stringify(errorBody(code, message));
  }
}

/**
 * The tus file store, without creation-defer-length: a size must be declared and checked first.
 * It also hashes the bytes as they are written, so the last PATCH need not read the whole file
 * again. [Note: running hash] The running SHA-256 is kept only while every byte from 0 went
 * through successful writes in this process; after a failed or partial write, a restart or a
 * PATCH on another instance, it is dropped and finishUpload hashes the stored file instead.
 */
export class UploadStore extends FileStore {
  private readonly hashes = new Map<string, { hash: Hash; offset: number }>();

  constructor(directory: string) {
    super({ directory });
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const prior = this.hashes.get(id);
    this.hashes.delete(id); // invalid until this write has succeeded
    const state =
      offset === 0
        ? { hash: createHash('sha256'), offset: 0 }
        : prior?.offset === offset
          ? prior
          : undefined;
    if (!state) return super.write(readable, id, offset);
    let hashed = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        state.hash.update(chunk);
        hashed += chunk.length;
        callback(null, chunk);
      },
    });
    readable.on('error', (err) => tap.destroy(err));
    const newOffset = await super.write(readable.pipe(tap), id, offset);
    if (newOffset === offset + hashed) this.hashes.set(id, { hash: state.hash, offset: newOffset });
    return newOffset;
  }

  /** The SHA-256 (hex) of all `length` bytes if the running hash covers exactly them. */
  takeDigest(id: string, length: number): string | null {
    const state = this.hashes.get(id);
    this.hashes.delete(id);
    return state?.offset === length ? state.hash.digest('hex') : null;
  }

  dataPath(id: string): string {
    if (!UPLOAD_ID_PATTERN.test(id)) throw new Error('not an upload id');
    return path.join(this.directory, id);
  }
  /** Removes the upload's bytes and tus info file, whichever of them exist. */
  async discard(id: string): Promise<void> {
    const data = this.dataPath(id);
    this.hashes.delete(id);
    await fsp.rm(data, { force: true });
    await fsp.rm(`${data}.json`, { force: true });
  }
}

export interface FileStorage {
  blobs: FsBlobStore;
  uploads: UploadStore;
  tus: Server;
}

/** What the routes learned about a request, for the hooks that @tus/server calls with it. */
export interface UploadScope {
  deps: FilesDeps;
  storage: FileStorage;
  userId: string;
  create?: { meta: CreationMetadata; length: number; expiresAt?: Date };
}
const scopes = new WeakMap<Request, UploadScope>();
export const bindScope = (req: Request, scope: UploadScope) => scopes.set(req, scope);
function scopeOf(req: Request): UploadScope {
  const scope = scopes.get(req);
  if (!scope) throw new Error('tus request without a scope');
  return scope;
}

export function createTusServer(uploads: UploadStore): Server {
  return new Server({
    path: UPLOADS_PATH,
    datastore: uploads,
    relativeLocation: true,
    allowedOrigins: [], // same-origin only: no CORS headers at all
    onUploadCreate: async (req, upload) => {
      await recordUpload(scopeOf(req), upload.id);
      return {};
    },
    onUploadFinish: async (req, upload) => {
      await finishUpload(scopeOf(req), upload.id, req.headers.get(FINAL_CHECKSUM_HEADER));
      return {};
    },
    onResponseError: (req, err) => {
      if ('status_code' in err) return undefined; // a tus protocol error or one of ours
      scopes
        .get(req)
        ?.deps.logger.error({ err: { name: err.name, message: err.message } }, 'upload failed');
      return {
        status_code: 500,
        body: JSON.stringify(errorBody('internal', messages.generic.internal)),
      };
    },
  });
}

async function recordUpload(scope: UploadScope, id: string): Promise<void> {
  const { deps, create } = scope;
  if (!create) throw new Error('upload creation without checked metadata');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.uploadExpiryHours * 3_600_000);
  create.expiresAt = expiresAt;
  await repo.insertUpload(deps.db.kysely, {
    id,
    user_id: scope.userId,
    vault_id: create.meta.vaultId,
    file_id: create.meta.fileId,
    enc_meta: create.meta.encMeta,
    name_lookup: create.meta.lookup,
    wrapped_key: create.meta.wrappedKey,
    checksum: create.meta.checksum ?? '', // '' = deferred [Note: deferred checksum]
    upload_length: create.length,
    state: 'receiving',
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
  });
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/**
 * The last byte has arrived: verify, store, record. On any failure nothing stays behind (no
 * record, no blob, no upload) and the client gets the error as the answer to its last PATCH.
 */
export async function finishUpload(
  scope: UploadScope,
  id: string,
  finalChecksum: string | null = null,
): Promise<void> {
  const { deps, storage } = scope;
  const db = deps.db.kysely;
  const row = await repo.findUpload(db, id);
  if (!row) throw new TusHttpError(404, 'not_found', texts.uploadNotFound);
  if (!(await repo.claimUpload(db, id))) throw new TusHttpError(409, 'conflict', texts.busy);
  let stored: StoredBlob | undefined;
  try {
    const digest =
      storage.uploads.takeDigest(id, Number(row.upload_length)) ??
      (await sha256File(storage.uploads.dataPath(id)));
    const expected = row.checksum || finalChecksum;
    const disagree = !!row.checksum && finalChecksum !== null && finalChecksum !== row.checksum;
    if (!expected || disagree || digest !== expected) {
      throw new TusHttpError(CHECKSUM_MISMATCH_STATUS, 'bad_request', texts.checksumMismatch);
    }
    stored = await storage.blobs.adopt(storage.uploads.dataPath(id));
    const key = stored.key;
    // Should the process stop before the record commits, the sweep removes the blob later.
    const inAnHour = new Date(deps.now().getTime() + 3_600_000).toISOString();
    await repo.queueBlobDeletions(db, [key], inAnHour);
    const now = deps.now().toISOString();
    await db
      .transaction()
      .execute(async (trx) => {
        const vault = await repo.lockVault(trx, deps.db.kind, row.user_id, row.vault_id);
        if (!vault) throw new TusHttpError(404, 'not_found', messages.vaults.notFound);
        if (await repo.fileIdTaken(trx, row.file_id)) {
          throw new TusHttpError(409, 'conflict', texts.duplicateId);
        }
        if (await repo.lookupTaken(trx, row.vault_id, row.name_lookup)) {
          throw new TusHttpError(409, 'conflict', texts.duplicateName);
        }
        await repo.insertFile(trx, {
          id: row.file_id,
          vault_id: row.vault_id,
          user_id: row.user_id,
          enc_meta: row.enc_meta,
          name_lookup: row.name_lookup,
          wrapped_key: row.wrapped_key,
          ciphertext_size: stored?.size ?? 0,
          checksum: digest,
          blob_key: key,
          created_at: now,
          updated_at: now,
        });
        await repo.deleteUpload(trx, id);
        await repo.unqueueBlobDeletions(trx, [key]);
      })
      .catch((err: unknown) => {
        if (repo.isUniqueViolation(err))
          throw new TusHttpError(409, 'conflict', texts.duplicateName);
        throw err;
      });
  } catch (err) {
    if (stored) {
      await storage.blobs.delete(stored.key);
      await repo.unqueueBlobDeletions(db, [stored.key]);
    }
    await storage.uploads.discard(id);
    await repo.deleteUpload(db, id);
    throw err;
  }
  await storage.uploads.discard(id); // the tus info file; the bytes now belong to the blob
}
