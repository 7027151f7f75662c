// The blob store the config asks for (blobs/blobs.config.ts): built once at start-up and handed
// to whatever needs it (files/storage.ts, the backup commands), never looked up from a global.
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { createFsBlobStore } from './fs-blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';

/** `s3Client`: settings over the AWS SDK's default chain, for tests; production passes none. */
export function createBlobStore(
  config: Pick<Config, 'blobs'>,
  s3Client?: S3ClientConfig,
): BlobStore {
  const { blobs } = config;
  if (blobs.kind === 'fs') return createFsBlobStore(blobs.dir);
  return createS3BlobStore({
    bucket: blobs.bucket,
    forcePathStyle: blobs.forcePathStyle,
    ...(s3Client ? { client: s3Client } : {}),
  });
}
