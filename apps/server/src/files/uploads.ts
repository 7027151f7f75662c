// The tus 1.0 upload pipeline (https://tus.io/protocols/resumable-upload; architecture.md,
// Server: Uploads). uploads.routes.ts checks the session, the vault, the metadata and the plan's
// size limit before handing a request to @tus/server; the hooks here record the upload, and on
// its last byte verify the ciphertext's content hash ([Note: content hash] in
// packages/protocol/src/files.ts), move the bytes into the BlobStore and only then create the
// vault_files row. [Note: upload ownership] An upload's owner lives in file_uploads, written on
// creation; every later tus request is refused (404) unless it comes from that user. The last
// step, finishUpload, lives in uploads.finish.ts ([Note: recoverable finish]).
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type DataStore, type Locker } from '@tus/server';
import {
  CONTENT_HASH_BLOCK_BYTES,
  messages,
  serverStorageFullMessage,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  uploadChecksumTexts,
  UPLOADS_PATH,
  type ErrorCode,
  type UploadMetadata,
} from '@sealvault/protocol';
import { isDiskFull } from '../http/disk-full.ts';
import { errorBody } from '../http/errors.ts';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import { ContentHasher, type ContentHashMark } from './content-hash.ts';
import type { SpaceReservations } from './reservations.ts';
import { insertUpload } from './uploads.repository.ts';
import type { FilesDeps } from './files.service.ts';

export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;
const TUS_FILE = /^([0-9a-f]{32})(?:\.json)?$/;
const BLOCK = CONTENT_HASH_BLOCK_BYTES;
/** [Note: body written in batches]: about this many bytes of a body go to the file per writev. */
const WRITE_BATCH = 1024 * 1024;

/** `buffers` without their first `written` bytes (what a short writev left), without a copy. */
function unwritten(buffers: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (written >= buffers[i]!.length) written -= buffers[i++]!.length;
  return [buffers[i]!.subarray(written), ...buffers.slice(i + 1)];
}
// [Note: deferred checksum] A client that encrypts while it uploads learns the ciphertext's
// content hash only after the last byte, so it may leave `checksum` out of the creation metadata
// and send it (64 lowercase hex) as UPLOAD_FINAL_CHECKSUM_HEADER on the PATCH that completes the
// upload. The bytes are verified against it exactly as against a checksum given at creation; if
// both are given they must agree; with neither the upload fails with a checksum mismatch. The file
// record keeps the content hash the server computed, with checksum_algorithm 'content-hash-4m'.

/** The creation metadata as checked: the checksum may be deferred to the last PATCH. */
export type CreationMetadata = Omit<UploadMetadata, 'checksum'> & { checksum?: string | undefined };
export const CHECKSUM_MISMATCH_STATUS = 460; // the tus checksum extension's "Checksum Mismatch"
/** Tus-Checksum-Algorithm: the algorithms a PATCH's Upload-Checksum may use. */
export const CHECKSUM_ALGORITHMS = ['sha256'] as const;
export const texts = {
  checksumMismatch: uploadChecksumTexts.fileMismatch,
  pieceCorrupted: uploadChecksumTexts.blockCorrupted,
  duplicateName: 'A file with this name already exists in this vault.',
  duplicateId: 'A file with this id already exists.',
  uploadNotFound: 'Upload not found',
  uploadExpired: 'This upload has expired. Please upload the file again.',
  busy: 'This upload is being completed.',
  uploadLost: 'This upload could not be completed. Please upload the file again.',
  offsetMismatch: 'Upload-Offset does not match: this upload is complete.',
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
 * What a request declared in Upload-Checksum (the tus checksum extension), for the store's write
 * of its body: uploads.service.ts parses it, the onIncomingRequest hook hands it to the store.
 */
export interface BodyCheck {
  /** The SHA-256 the body must have. */
  digest: Buffer;
  /** The request's Content-Length, if it had a valid one. */
  contentLength: number | null;
  /** The upload's declared length: the body can bring no more than what is left of it. */
  uploadLength: number;
}

/**
 * What both tus stores (this directory's, and S3's in uploads.s3.ts) keep per upload in this
 * process: the digest declared for the next body [Note: checksum per PATCH] and the running block
 * hashes [Note: running hash].
 */
export class UploadHashes {
  private readonly hashers = new Map<string, ContentHasher>();
  private readonly checks = new Map<string, BodyCheck>();

  /**
   * Declares the digest of the next body written to upload `id`. Keyed by upload only, as write()
   * sees no request: two requests racing on one upload (tus's lock lets one write at a time and
   * cancels the other) may swap declarations, so one may be refused with 460 although its body was
   * right, or written unchecked. An accepted race: the final content hash still covers every byte.
   */
  expectBody(id: string, check: BodyCheck): void {
    this.checks.set(id, check);
  }
  /** Drops `check` if no write took it (its request failed before reaching its body). */
  withdraw(check: BodyCheck): void {
    for (const [id, declared] of this.checks) if (declared === check) this.checks.delete(id);
  }
  /**
   * For a write of upload `id` from `offset`: its declared check, and the hasher to go on with
   * (a new one at 0, the kept one if it has hashed exactly `offset` bytes). Both are taken: the
   * hasher is kept again (keep) only once the write has succeeded.
   */
  takeForWrite(id: string, offset: number): { check?: BodyCheck; hasher?: ContentHasher } {
    const check = this.checks.get(id);
    this.checks.delete(id);
    const prior = this.hashers.get(id);
    this.hashers.delete(id);
    const hasher =
      offset === 0 ? new ContentHasher() : prior?.length === offset ? prior : undefined;
    return { check, hasher };
  }
  keep(id: string, hasher: ContentHasher): void {
    this.hashers.set(id, hasher);
  }
  /** The content hash (hex) of all `length` bytes if the running block hashes cover exactly them. */
  takeContentHash(id: string, length: number): string | null {
    const hasher = this.hashers.get(id);
    this.hashers.delete(id);
    return hasher?.length === length ? hasher.digest() : null;
  }
  forget(id: string): void {
    this.hashers.delete(id);
    this.checks.delete(id);
  }
}

/**
 * The tus file store, without creation-defer-length: a size must be declared and checked first.
 *
 * [Note: running hash] It computes the content hash while the bytes are written, so the last
 * PATCH need not read the whole file again: per upload, a ContentHasher (content-hash.ts) holds
 * the digests of the 4 MiB blocks received so far and the running SHA-256 of the unfinished one.
 * It is kept only while every byte from 0 went through successful writes in this process; after a
 * failed write, a restart or a PATCH on another instance it is dropped, and finishUpload hashes
 * the stored file instead, block by block.
 *
 * [Note: checksum per PATCH] With the tus checksum extension a request declares its body's
 * SHA-256 (Upload-Checksum). The body is all or nothing: when it does not match (corrupted, or
 * cut short by a dropped connection) the file is truncated back to where the body started, the
 * block hashes are rewound with it, and the request fails with 460; sent again, it appends at the
 * same offset. The app sends one 4 MiB block per PATCH, so a body that starts on a block boundary
 * and cannot pass the block's end is digested by the block hash itself (hashed once); any other
 * body, or one without block hashes to share, gets a hash of its own. Without the header a PATCH
 * is kept as it arrives (a dropped one resumes from what reached the disk) and only the final
 * content hash covers it.
 */
export class UploadStore extends FileStore implements UploadBytes {
  private readonly hashes = new UploadHashes();

  /** `reservations`: what the bytes written count against ([Note: space reservations]). */
  constructor(
    directory: string,
    private readonly reservations?: SpaceReservations,
  ) {
    super({ directory });
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum'];
  }

  expectBody(id: string, check: BodyCheck): void {
    this.hashes.expectBody(id, check);
  }
  withdraw(check: BodyCheck): void {
    this.hashes.withdraw(check);
  }
  takeContentHash(id: string, length: number): string | null {
    return this.hashes.takeContentHash(id, length);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { check, hasher } = this.hashes.takeForWrite(id, offset);
    const mark = check && hasher?.mark();
    // A body that starts a block and cannot pass its end (tus cuts a body at its Content-Length,
    // and always at the upload's end) is digested by the block hash; any other gets its own.
    const inOneBlock =
      !!check &&
      offset % BLOCK === 0 &&
      Math.min(check.contentLength ?? Infinity, check.uploadLength - offset) <= BLOCK;
    const own = check && !(hasher && inOneBlock) ? createHash('sha256') : undefined;
    let newOffset: number;
    try {
      newOffset = await this.writeBody(readable, id, offset, hasher, own);
    } catch (err) {
      if (check) await this.rollBack(id, offset, hasher, mark);
      throw err;
    }
    if (check) {
      const seen = newOffset - offset;
      const digest = own ? own.digest() : seen <= BLOCK ? hasher?.tailDigest(seen) : undefined;
      if (!digest?.equals(check.digest)) {
        await this.rollBack(id, offset, hasher, mark);
        throw new TusHttpError(CHECKSUM_MISMATCH_STATUS, 'bad_request', texts.pieceCorrupted);
      }
    }
    if (hasher) this.hashes.keep(id, hasher);
    return newOffset;
  }

  /**
   * [Note: body written in batches] The body appended at `offset`, each chunk hashed (the block
   * hashes, and the body's own digest if it has one) as it arrives; returns the new offset. The
   * socket's chunks (64 KiB at most) are gathered and written about a MiB at a time with one
   * writev, without a copy. A fs.WriteStream wrote each chunk with a write of its own, through
   * two Transforms: the server spent 10–20% more CPU on the app's checked uploads
   * (bench/RESULTS.md, "Speed II, sixth round: PATCH bodies written a MiB at a time").
   * Back-pressure is the same: nothing more is read while a batch is written. When the body fails
   * (a dropped connection) what arrived is still written, as before: a PATCH without a checksum
   * resumes from what reached the disk. A failed write keeps its cause: FileStore answered every
   * failed write with tus's FILE_WRITE_ERROR, a 500, so a full disk read as a server error instead
   * of 507.
   */
  private async writeBody(
    readable: Readable,
    id: string,
    offset: number,
    hasher: ContentHasher | undefined,
    own: Hash | undefined,
  ): Promise<number> {
    const reservations = this.reservations;
    let position = offset;
    let batch: Buffer[] = [];
    let batched = 0;
    let file: FileHandle | undefined;
    let writeFailed = false;
    const flush = async () => {
      let buffers = batch;
      let left = batched;
      if (left === 0) return;
      batch = [];
      batched = 0;
      try {
        file ??= await fsp.open(this.dataPath(id), 'r+');
        while (left > 0) {
          const { bytesWritten } = await file.writev(buffers, position);
          if (bytesWritten <= 0) throw new Error('the upload file took no bytes');
          position += bytesWritten;
          left -= bytesWritten;
          if (left > 0) buffers = unwritten(buffers, bytesWritten);
        }
      } catch (err) {
        writeFailed = true;
        throw err;
      }
    };
    try {
      try {
        for await (const chunk of readable as AsyncIterable<Buffer>) {
          hasher?.update(chunk);
          own?.update(chunk);
          reservations?.consume(id, chunk.length);
          batch.push(chunk);
          batched += chunk.length;
          if (batched >= WRITE_BATCH) await flush();
        }
      } catch (err) {
        if (writeFailed) throw err;
        await flush(); // the body failed: what arrived is kept all the same
        throw err;
      }
      await flush();
    } catch (err) {
      if (isDiskFull(err)) throw new TusHttpError(507, 'storage_full', serverStorageFullMessage);
      // Anything else (a dropped connection, mostly) as FileStore answers it.
      const { status_code, body } = ERRORS.FILE_WRITE_ERROR;
      throw Object.assign(new Error(body.trim()), { status_code, body });
    } finally {
      await file?.close();
    }
    return position;
  }

  /** Undoes a refused body: the file back to `offset`, the block hashes back to `mark`. */
  private async rollBack(
    id: string,
    offset: number,
    hasher: ContentHasher | undefined,
    mark: ContentHashMark | undefined,
  ): Promise<void> {
    await fsp.truncate(this.dataPath(id), offset);
    if (hasher && mark) {
      hasher.rewind(mark);
      this.hashes.keep(id, hasher);
    }
  }

  dataPath(id: string): string {
    if (!UPLOAD_ID_PATTERN.test(id)) throw new Error('not an upload id');
    return path.join(this.directory, id);
  }

  async received(id: string): Promise<{ size: number; mtime: Date } | null> {
    const stat = await fsp.stat(this.dataPath(id)).catch(() => null);
    return stat && { size: stat.size, mtime: stat.mtime };
  }

  bytesOf(id: string): AsyncIterable<Uint8Array> {
    return fs.createReadStream(this.dataPath(id), { highWaterMark: BLOCK });
  }

  async moveToBlob(id: string, blobs: BlobStore, key: BlobKey): Promise<void> {
    await blobs.adopt(this.dataPath(id), key);
  }

  async held(): Promise<{ id: string; mtime: Date }[]> {
    const names = await fsp.readdir(this.directory).catch(() => [] as string[]);
    const ids = [...new Set(names.flatMap((n) => TUS_FILE.exec(n)?.[1] ?? []))];
    return Promise.all(
      ids.map(async (id) => {
        const data = this.dataPath(id);
        const stats = await Promise.all(
          [fsp.stat(data), fsp.stat(`${data}.json`)].map((p) => p.catch(() => null)),
        );
        const mtime = Math.max(0, ...stats.map((s) => s?.mtime.getTime() ?? 0));
        return { id, mtime: new Date(mtime) };
      }),
    );
  }
  /** Removes the upload's bytes and tus info file, whichever of them exist. */
  async discard(id: string): Promise<void> {
    const data = this.dataPath(id);
    this.hashes.forget(id);
    await fsp.rm(data, { force: true });
    await fsp.rm(`${data}.json`, { force: true });
  }
}

/**
 * What the routes, the finishing and the sweep need of the tus store, whichever keeps the bytes:
 * this directory (UploadStore) or the S3 bucket (uploads.s3.ts, with several instances).
 */
export interface UploadBytes {
  /** [Note: checksum per PATCH]: the digest the next body written to `id` must have. */
  expectBody(id: string, check: BodyCheck): void;
  withdraw(check: BodyCheck): void;
  /** [Note: running hash]: the content hash of all `length` bytes, if this process saw them all. */
  takeContentHash(id: string, length: number): string | null;
  /** The bytes received so far and when the last arrived; null if the store has none of `id`. */
  received(id: string): Promise<{ size: number; mtime: Date } | null>;
  /** The received bytes, in order. */
  bytesOf(id: string): AsyncIterable<Uint8Array>;
  /** Makes the complete bytes of `id` the blob `key`. */
  moveToBlob(id: string, blobs: BlobStore, key: BlobKey): Promise<void>;
  /** Removes whatever the store keeps of `id` (bytes, tus info); fine if nothing is left. */
  discard(id: string): Promise<void>;
  /** Every upload the store keeps, with the time it was last written (the sweep's strays). */
  held(): Promise<{ id: string; mtime: Date }[]>;
}
export type TusUploadStore = DataStore & UploadBytes;

export interface FileStorage {
  blobs: BlobStore;
  uploads: TusUploadStore;
  tus: Server;
  /** Random per storage (per process): names this process's claims [Note: recoverable finish]. */
  instance: string;
  /** Uploads that a request of this process is finishing now. */
  finishing: Set<string>;
  /**
   * Claims of this process's finishing attempts that failed and whose release the database did
   * not take (a full disk): free to take at once [Note: recoverable finish].
   */
  abandonedClaims: Set<string>;
  /** Uploads whose finishing met a full disk, tried again in the background (uploads.finish.ts). */
  finishRetries: Map<string, { failures: number; timer: ReturnType<typeof setTimeout> | null }>;
  /** [Note: space reservations] in reservations.ts: the bytes accepted uploads have yet to send. */
  reservations: SpaceReservations;
  /** Free bytes on the data dir's filesystem (statfs; tests replace it). */
  freeBytes: () => Promise<number>;
}

/** Finishes an upload whose last byte has arrived (uploads.finish.ts). */
export type FinishUpload = (
  scope: UploadScope,
  id: string,
  finalChecksum: string | null,
) => Promise<void>;

/** What the routes learned about a request, for the hooks that @tus/server calls with it. */
export interface UploadScope {
  deps: FilesDeps;
  storage: FileStorage;
  userId: string;
  /** `mode`: a move-mode creation (issue 27, uploads.move.ts), none for a new file. */
  create?: {
    meta: CreationMetadata;
    length: number;
    mode?: 'move' | 'move-sha256' | undefined;
    expiresAt?: Date;
  };
  /** The request's Upload-Checksum, for the store's write of its body [Note: checksum per PATCH]. */
  bodyCheck?: BodyCheck | null;
}
const scopes = new WeakMap<Request, UploadScope>();
export const bindScope = (req: Request, scope: UploadScope) => scopes.set(req, scope);
function scopeOf(req: Request): UploadScope {
  const scope = scopes.get(req);
  if (!scope) throw new Error('tus request without a scope');
  return scope;
}

export function createTusServer(
  uploads: TusUploadStore,
  finishUpload: FinishUpload,
  locker: Locker,
): Server {
  return new Server({
    path: UPLOADS_PATH,
    datastore: uploads,
    locker,
    relativeLocation: true,
    allowedOrigins: [], // same-origin only: no CORS headers at all
    // Right before the lock and the body: a PATCH's (or a creation-with-upload POST's) checksum.
    onIncomingRequest: (req, id) => {
      const check = scopes.get(req)?.bodyCheck;
      if (check) uploads.expectBody(id, check);
      return Promise.resolve();
    },
    onUploadCreate: async (req, upload) => {
      await recordUpload(scopeOf(req), upload.id);
      return {};
    },
    onUploadFinish: async (req, upload) => {
      await finishUpload(scopeOf(req), upload.id, req.headers.get(UPLOAD_FINAL_CHECKSUM_HEADER));
      return {};
    },
    onResponseError: (req, err) => {
      if ('status_code' in err) return undefined; // a tus protocol error or one of ours
      // Bytes, a tus info file or the upload's row that the full disk had no room for.
      if (isDiskFull(err)) {
        return {
          status_code: 507,
          body: JSON.stringify(errorBody('storage_full', serverStorageFullMessage)),
        };
      }
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
  await insertUpload(deps.db.kysely, {
    id,
    user_id: scope.userId,
    vault_id: create.meta.vaultId,
    file_id: create.meta.fileId,
    enc_meta: create.meta.encMeta,
    name_lookup: create.meta.lookup,
    wrapped_key: create.meta.wrappedKey,
    checksum: create.meta.checksum ?? '', // '' = deferred [Note: deferred checksum]
    upload_length: create.length,
    // A move-mode copy wraps no key: nothing for a rotation to retire.
    key_revision: create.mode ? null : Number(create.meta.keyRevision),
    mode: create.mode ?? null,
    state: 'receiving',
    claim_id: null,
    claimed_at: null,
    blob_key: null,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
  });
}
