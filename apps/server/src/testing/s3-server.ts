// A real S3-protocol server on loopback for tests: s3rver (npm) on 127.0.0.1 and a free port, its
// data in a temp dir, one bucket made, and testing/s3rver-fixups.ts in front of it for what
// s3rver gets wrong or lacks (ranges, UploadPartCopy, abort, ListMultipartUploads, ListParts).
// Path-style only (`endpoint/bucket/key`). Anything may use it: the S3 blob store's suite, the
// backup test, a tier with several server processes (env() is what such a process needs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { s3rverFixups } from './s3rver-fixups.ts';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's one account; it does not verify signatures. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Where s3rver keeps its buckets (`<directory>/<bucket>/…`). */
  directory: string;
  /** An S3Client config for it: path-style, and checksums only where required (s3rver-fixups.ts). */
  clientConfig(): S3ClientConfig;
  /** The environment that makes a server process (or loadConfig) use it as the blob store. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'sealvault-test';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(s3rverFixups(server.store));
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (err) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    region,
    credentials,
    directory,
    clientConfig: () => ({
      endpoint,
      region,
      credentials: { ...credentials },
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
    env: () => ({
      BLOB_STORE: 's3',
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: region,
      AWS_ENDPOINT_URL_S3: endpoint,
    }),
    close: async () => {
      // Keep-alive sockets of SDK clients would hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
