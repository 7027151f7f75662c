// The blob store's environment variables (issue 17): BLOB_STORE picks the filesystem store (the
// default, `${DATA_DIR}/blobs`) or the S3 store, whose bucket is S3_BUCKET. The S3 client's
// credentials, region and endpoint are deliberately not read here: the AWS SDK's default chain
// reads AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION and AWS_ENDPOINT_URL_S3 itself (or
// ~/.aws, or an instance role), as it does for every other tool on the machine.
import path from 'node:path';
import { z } from 'zod';

export const blobsEnv = {
  BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  S3_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/, 'must be a bucket name')
    .optional(),
  /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key`: most S3-compatible servers. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
};

type BlobsEnv = z.infer<z.ZodObject<typeof blobsEnv>>;

export type BlobsConfig =
  { kind: 'fs'; dir: string } | { kind: 's3'; bucket: string; forcePathStyle: boolean };

/** Throws an Error naming the variable when BLOB_STORE=s3 comes without S3_BUCKET. */
export function blobsConfigFrom(e: BlobsEnv, dataDir: string): BlobsConfig {
  if (e.BLOB_STORE === 'fs') return { kind: 'fs', dir: path.join(dataDir, 'blobs') };
  if (!e.S3_BUCKET) throw new Error('S3_BUCKET: required when BLOB_STORE=s3');
  return { kind: 's3', bucket: e.S3_BUCKET, forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' };
}
