// The server's file storage for one app (one process): the blob store, the tus upload store and
// server, and what the finishing of uploads shares. Built once at start (server.ts) and handed to
// createApp and the sweep as `files` (http/context.ts), never looked up from a global.
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createBlobStore } from '../blobs/create-blob-store.ts';
import type { Config } from '../config.ts';
import { createTusServer, type FileStorage } from './uploads.ts';
import { UploadStore } from './uploads.store.ts';
import { finishUpload } from './uploads.finish.ts';
import { SpaceReservations } from './reservations.ts';
import { createUploadLocker } from './upload-locks.ts';
import type { SharedLocks } from '../db/locks.ts';
import { S3UploadStore } from './uploads.s3.ts';
import type { S3ClientConfig } from '@aws-sdk/client-s3';

/**
 * `locks`: the shared locks of several instances on PostgreSQL (db/locks.ts), else null.
 * `s3Client`: S3 client settings over the SDK's default chain, for tests.
 * With BLOB_STORE=s3 the unfinished uploads live in the bucket too (uploads.s3.ts), so any
 * instance can take any PATCH; otherwise in DATA_DIR/uploads.
 */
export function createFileStorage(
  config: Config,
  locks: SharedLocks | null = null,
  s3Client?: S3ClientConfig,
): FileStorage {
  const { blobs } = config;
  const reservations = new SpaceReservations();
  const uploads =
    blobs.kind === 's3'
      ? new S3UploadStore({
          bucket: blobs.bucket,
          forcePathStyle: blobs.forcePathStyle,
          ...(s3Client ? { client: s3Client } : {}),
        })
      : new UploadStore(path.join(config.dataDir, 'uploads'), reservations);
  return {
    blobs: createBlobStore(config, s3Client),
    uploads,
    tus: createTusServer(uploads, finishUpload, createUploadLocker(locks)),
    instance: randomBytes(8).toString('hex'),
    finishing: new Set(),
    abandonedClaims: new Set(),
    finishRetries: new Map(),
    reservations,
    // The free-space watermark guards the data dir's disk, which holds no file bytes with S3.
    freeBytes:
      blobs.kind === 's3'
        ? () => Promise.resolve(Number.POSITIVE_INFINITY)
        : async () => {
            const stats = await fsp.statfs(config.dataDir);
            return stats.bavail * stats.bsize;
          },
  };
}
