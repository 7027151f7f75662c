// The tus 1.0 upload pipeline (https://tus.io/protocols/resumable-upload; architecture.md,
// Server: Uploads). uploads.routes.ts checks the session, the vault, the metadata and the plan's
// size limit before handing a request to @tus/server; the hooks here record the upload, and on
// its last byte verify the ciphertext's content hash ([Note: content hash] in
// packages/protocol/src/files.ts), move the bytes into the BlobStore and only then create the
// vault_files row. [Note: upload ownership] An upload's owner lives in file_uploads, written on
// creation; every later tus request is refused (404) unless it comes from that user. The last
// step, finishUpload, lives in uploads.finish.ts ([Note: recoverable finish]). The bytes are kept
// by a tus store, uploads.store.ts (in DATA_DIR) or uploads.s3.ts (in the bucket), that offers
// what UploadBytes below promises; the hooks' errors and texts are in uploads.errors.ts.
import { Server, type DataStore, type Locker } from '@tus/server';
import {
  messages,
  serverStorageFullMessage,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  UPLOADS_PATH,
  type UploadMetadata,
} from '@sealvault/protocol';
import { isDiskFull } from '../http/disk-full.ts';
import { errorBody } from '../http/errors.ts';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import type { SpaceReservations } from './reservations.ts';
import { insertUpload } from './uploads.repository.ts';
import type { BodyCheck } from './uploads.hashes.ts';
import type { FilesDeps } from './files.service.ts';

export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

// [Note: deferred checksum] A client that encrypts while it uploads learns the ciphertext's
// content hash only after the last byte, so it may leave `checksum` out of the creation metadata
// and send it (64 lowercase hex) as UPLOAD_FINAL_CHECKSUM_HEADER on the PATCH that completes the
// upload. The bytes are verified against it exactly as against a checksum given at creation; if
// both are given they must agree; with neither the upload fails with a checksum mismatch. The file
// record keeps the content hash the server computed, with checksum_algorithm 'content-hash-4m'.

/** The creation metadata as checked: the checksum may be deferred to the last PATCH. */
export type CreationMetadata = Omit<UploadMetadata, 'checksum'> & { checksum?: string | undefined };

/**
 * What the routes, the finishing and the sweep need of the tus store, whichever keeps the bytes:
 * DATA_DIR/uploads (UploadStore, uploads.store.ts) or the S3 bucket (uploads.s3.ts, with several
 * instances). [Note: checksum per PATCH] and [Note: running hash] are in uploads.store.ts.
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
