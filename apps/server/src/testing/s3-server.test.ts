// The test S3 server does what S3 does for the calls our code makes: s3rver's own behaviour where
// it is right, testing/s3rver-fixups.ts where it is not. A real SDK client against it.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from './s3-server.ts';

let s3: S3TestServer;
let client: S3Client;
let Bucket: string;
beforeAll(async () => {
  s3 = await startS3Server();
  client = new S3Client(s3.clientConfig());
  Bucket = s3.bucket;
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

const MiB = 1024 * 1024;
const statusOf = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
async function bytesOf(key: string, Range?: string) {
  const res = await client.send(new GetObjectCommand({ Bucket, Key: key, Range }));
  return { range: res.ContentRange, body: Buffer.from(await res.Body!.transformToByteArray()) };
}
async function put(key: string, body: Buffer) {
  await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body }));
}

describe('the test S3 server', () => {
  it('answers every kind of byte range as S3 does', async () => {
    const data = randomBytes(1000);
    await put('r/obj', data);
    expect(await bytesOf('r/obj', 'bytes=0-0')).toEqual({
      range: 'bytes 0-0/1000',
      body: data.subarray(0, 1),
    });
    expect(await bytesOf('r/obj', 'bytes=-10')).toEqual({
      range: 'bytes 990-999/1000',
      body: data.subarray(990),
    });
    expect(await bytesOf('r/obj', 'bytes=995-')).toEqual({
      range: 'bytes 995-999/1000',
      body: data.subarray(995),
    });
    // S3 cuts an end past the object at its last byte.
    expect(await bytesOf('r/obj', 'bytes=998-5000')).toEqual({
      range: 'bytes 998-999/1000',
      body: data.subarray(998),
    });
    const err = await client
      .send(new GetObjectCommand({ Bucket, Key: 'r/obj', Range: 'bytes=1000-1001' }))
      .catch((e: unknown) => e);
    expect(statusOf(err)).toBe(416);
    const head = await client.send(
      new HeadObjectCommand({ Bucket, Key: 'r/obj', Range: 'bytes=0-0' }),
    );
    expect(head.ContentLength).toBe(1);
  });

  it('answers 404 to HeadObject and GetObject of a missing key, 204 to deleting one', async () => {
    const head = await client
      .send(new HeadObjectCommand({ Bucket, Key: 'missing' }))
      .catch((e: unknown) => e);
    expect(statusOf(head)).toBe(404);
    const get = await client
      .send(new GetObjectCommand({ Bucket, Key: 'missing' }))
      .catch((e: unknown) => e);
    expect((get as Error).name).toBe('NoSuchKey');
    const del = await client.send(new DeleteObjectCommand({ Bucket, Key: 'missing' }));
    expect(del.$metadata.httpStatusCode).toBe(204);
  });

  it('pages ListObjectsV2 with a small MaxKeys', async () => {
    const keys = ['p/a', 'p/b', 'p/c', 'p/d', 'p/e'];
    for (const k of keys) await put(k, Buffer.from(k));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: 'p/', MaxKeys: 2, ContinuationToken: token }),
      );
      pages += 1;
      seen.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    expect(seen).toEqual(keys);
    expect(pages).toBe(3);
  });

  it('runs a multipart upload with ListParts, ListMultipartUploads and abort', async () => {
    const Key = 'm/obj';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const p1 = randomBytes(5 * MiB);
    const p2 = randomBytes(1000);
    const etags = [];
    for (const [i, body] of [p1, p2].entries()) {
      const res = await client.send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body: body }),
      );
      etags.push(res.ETag);
    }
    const parts = await client.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
      [1, p1.length, etags[0]],
      [2, p2.length, etags[1]],
    ]);
    const listed = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: 'm/' }));
    expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([[Key, UploadId]]);
    expect(listed.Uploads?.[0]?.Initiated?.getTime()).toBeGreaterThan(Date.now() - 60_000);

    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    expect((await bytesOf(Key)).body.equals(Buffer.concat([p1, p2]))).toBe(true);

    const second = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: 'm/two' }));
    await client.send(
      new AbortMultipartUploadCommand({ Bucket, Key: 'm/two', UploadId: second.UploadId }),
    );
    const after = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: 'm/' }));
    expect(after.Uploads ?? []).toEqual([]);
    const again = await client
      .send(new AbortMultipartUploadCommand({ Bucket, Key: 'm/two', UploadId: second.UploadId }))
      .catch((e: unknown) => e);
    expect(statusOf(again)).toBe(404);
  });

  it('copies objects, whole and by part ranges, honouring If-Match', async () => {
    const data = randomBytes(6 * MiB + 3);
    await put('c/src', data);
    const etag = (await client.send(new HeadObjectCommand({ Bucket, Key: 'c/src' }))).ETag;
    await client.send(
      new CopyObjectCommand({ Bucket, Key: 'c/whole', CopySource: `${Bucket}/c/src` }),
    );
    expect((await bytesOf('c/whole')).body.equals(data)).toBe(true);
    const stale = await client
      .send(
        new CopyObjectCommand({
          Bucket,
          Key: 'c/stale',
          CopySource: `${Bucket}/c/src`,
          CopySourceIfMatch: '"0123"',
        }),
      )
      .catch((e: unknown) => e);
    expect(statusOf(stale)).toBe(412);

    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket, Key: 'c/parts' }),
    );
    const split = 5 * MiB;
    const parts = [];
    for (const [n, range] of [
      `bytes=0-${split - 1}`,
      `bytes=${split}-${data.length - 1}`,
    ].entries()) {
      const res = await client.send(
        new UploadPartCopyCommand({
          Bucket,
          Key: 'c/parts',
          UploadId,
          PartNumber: n + 1,
          CopySource: `${Bucket}/c/src`,
          CopySourceRange: range,
          CopySourceIfMatch: etag,
        }),
      );
      parts.push({ PartNumber: n + 1, ETag: res.CopyPartResult?.ETag });
    }
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: 'c/parts',
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    expect((await bytesOf('c/parts')).body.equals(data)).toBe(true);
  });

  it('refuses aws-chunked bodies instead of storing their framing', async () => {
    // The SDK's defaults: a CRC32 trailer on a streamed body.
    const plain = new S3Client({
      ...s3.clientConfig(),
      requestChecksumCalculation: 'WHEN_SUPPORTED',
      responseChecksumValidation: 'WHEN_SUPPORTED',
    });
    try {
      const err = await plain
        .send(
          new PutObjectCommand({
            Bucket,
            Key: 'chunked',
            Body: Readable.from([Buffer.from('hello')]),
            ContentLength: 5,
          }),
        )
        .catch((e: unknown) => e);
      expect(statusOf(err)).toBe(400);
      expect(String((err as Error).message)).toMatch(/WHEN_REQUIRED/);
    } finally {
      plain.destroy();
    }
  });

  it('gives the environment that points the app at it', () => {
    expect(s3.env()).toMatchObject({
      BLOB_STORE: 's3',
      S3_BUCKET: s3.bucket,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
    });
    expect(s3.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
