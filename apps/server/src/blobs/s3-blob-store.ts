// The S3 BlobStore: each blob is the object `blobs/<key>` in one bucket of any S3-compatible
// service (AWS S3, MinIO, Cloudflare R2, Ceph). The key is 128 random bits in hex that this module
// generates, as in the filesystem store, and is checked before an object key is built from it.
// - Puts stream through @aws-sdk/lib-storage's Upload: parts of PART_SIZE, QUEUE_SIZE of them in
//   flight, so a put holds about PART_SIZE × (QUEUE_SIZE + 1) in memory whatever the blob's size,
//   and a blob becomes visible only when its PutObject or CompleteMultipartUpload succeeds (S3
//   writes are atomic). A failed multipart put is aborted; removeStaleTemp aborts any a crash left.
// - Gets stream the response body one chunk per pull; a range is a `Range: bytes=a-b` request
//   (RFC 9110 §14.1.2), so a range download never reads the rest of the object.
// - adoptObject turns an object that is already in the bucket (a finished upload) into a blob by
//   a server-side copy, CopyObject up to 5 GiB and UploadPartCopy above, so no byte passes
//   through this process.
// Credentials, region and endpoint come from the SDK's default chain (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3, or ~/.aws); tests pass a client config.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
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
  S3Client,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  isBlobKey,
  randomBlobKey,
  type BlobKey,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from './blob-store.ts';

const PREFIX = 'blobs/';
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** S3 allows 10,000 parts: 8 MiB parts carry a blob of up to 78 GiB. */
const PART_SIZE = 8 * MiB;
const QUEUE_SIZE = 3;
/** CopyObject's limit; larger objects are copied part by part. */
const COPY_OBJECT_MAX = 5 * GiB;
const COPY_PART_SIZE = 512 * MiB;
const COPY_PARTS_IN_FLIGHT = 4;
const MAX_PARTS = 10_000;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** Client settings over the SDK's default chain (tests: endpoint, region, credentials). */
  client?: S3ClientConfig;
  /** Bytes per uploaded part (at least 5 MiB) and parts in flight per put. */
  partSize?: number;
  queueSize?: number;
  /** Objects larger than this are adopted with UploadPartCopy in parts of `copyPartSize`. */
  copyObjectMax?: number;
  copyPartSize?: number;
  /** Keys per ListObjectsV2 / ListMultipartUploads page (S3 answers at most 1000). */
  listPageSize?: number;
}

export interface S3BlobStore extends BlobStore {
  readonly bucket: string;
  readonly client: S3Client;
  /**
   * Makes the object `sourceKey` of the same bucket (a finished upload, never a blob) the blob
   * `key` by a server-side copy, then deletes the source; BlobNotFoundError if there is no source.
   */
  adoptObject(sourceKey: string, key?: BlobKey): Promise<StoredBlob>;
}

/** The HTTP status of an SDK error, if it has one. */
function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('$metadata' in err)) return undefined;
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

const objectKeyOf = (key: BlobKey): string => {
  if (!isBlobKey(key)) throw new BlobNotFoundError();
  return PREFIX + key;
};

/** x-amz-copy-source: `bucket/key`, URL-encoded per segment (the slashes stay). */
const copySource = (bucket: string, key: string) =>
  [bucket, ...key.split('/')].map(encodeURIComponent).join('/');

export function createS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  const Bucket = options.bucket;
  const partSize = options.partSize ?? PART_SIZE;
  const queueSize = options.queueSize ?? QUEUE_SIZE;
  const copyObjectMax = options.copyObjectMax ?? COPY_OBJECT_MAX;
  const listPageSize = options.listPageSize ?? 1000;
  const client = new S3Client({
    ...options.client,
    forcePathStyle: options.forcePathStyle ?? options.client?.forcePathStyle ?? false,
    // Since late 2024 the SDK adds a CRC32 to every upload by default, and sends a streamed body
    // in the `aws-chunked` encoding with the checksum as a trailer. Many S3-compatible servers
    // reject that encoding, and some (s3rver among them) store the chunk framing as the object's
    // bytes. Checksums only where an operation requires one: the ciphertext carries its own
    // content hash, verified on upload (files/uploads.ts) and by every client that decrypts it.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    // Likewise do not demand checksum headers on responses: S3-compatible servers may omit them,
    // and a range of a multipart object cannot be checked against a whole-object checksum.
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  /** Uploads every byte of `source` as `objectKey`; resolves with the byte count. */
  async function send(
    objectKey: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<number> {
    let size = 0;
    async function* counted() {
      for await (const chunk of source) {
        size += chunk.byteLength;
        yield chunk;
      }
    }
    const upload = new Upload({
      client,
      params: { Bucket, Key: objectKey, Body: Readable.from(counted(), { objectMode: false }) },
      partSize,
      queueSize,
      leavePartsOnError: false, // a failed multipart put is aborted, its parts dropped
    });
    await upload.done();
    return size;
  }

  const newKey = randomBlobKey;

  async function put(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    key: BlobKey = newKey(),
  ): Promise<StoredBlob> {
    const size = await send(objectKeyOf(key), source);
    return { key, size };
  }

  async function adopt(filePath: string, key: BlobKey = newKey()): Promise<StoredBlob> {
    const objectKey = objectKeyOf(key); // a key that is not one of ours is refused first
    const { size } = await fsp.stat(filePath);
    const sent = await send(objectKey, fs.createReadStream(filePath, { highWaterMark: MiB }));
    if (sent !== size) throw new Error('The file changed while it was being adopted');
    await fsp.rm(filePath, { force: true });
    return { key, size };
  }

  async function head(objectKey: string) {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: objectKey }));
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  async function get(key: BlobKey, range?: ByteRange): Promise<ReadableStream<Uint8Array>> {
    const Key = objectKeyOf(key);
    if (range && (range.start < 0 || range.start > range.end + 1)) {
      throw new RangeError('Range outside blob');
    }
    if (range && range.start === range.end + 1) {
      // An empty range has no Range header: check the bounds and the blob by a HEAD.
      const found = await head(Key);
      if (!found) throw new BlobNotFoundError();
      if (range.end >= (found.ContentLength ?? 0)) throw new RangeError('Range outside blob');
      return new ReadableStream({ start: (c) => c.close() });
    }
    let res;
    try {
      res = await client.send(
        new GetObjectCommand({
          Bucket,
          Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) throw new BlobNotFoundError();
      if (status === 416) throw new RangeError('Range outside blob', { cause: err });
      throw err;
    }
    const body = res.Body as Readable | undefined;
    if (!body) throw new Error('S3 answered without a body');
    if (range) {
      // S3 cuts a range that ends past the object at its last byte; the interface refuses it.
      const m = /^bytes (\d+)-(\d+)\/\d+$/.exec(res.ContentRange ?? '');
      if (Number(m?.[1]) !== range.start || Number(m?.[2]) !== range.end) {
        body.destroy();
        throw new RangeError('Range outside blob');
      }
    }
    const chunks = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    // One chunk per pull, so a slow reader holds back the socket; cancel closes the response.
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
        }
      },
      cancel: async () => {
        await chunks.return?.();
        body.destroy();
      },
    });
  }

  async function stat(key: BlobKey): Promise<{ size: number } | null> {
    if (!isBlobKey(key)) return null;
    const found = await head(objectKeyOf(key));
    return found ? { size: found.ContentLength ?? 0 } : null;
  }

  async function remove(key: BlobKey): Promise<void> {
    if (!isBlobKey(key)) return;
    // S3 answers 204 for a key that is not there: deletion is idempotent by itself.
    await client.send(new DeleteObjectCommand({ Bucket, Key: objectKeyOf(key) }));
  }

  async function* list(): AsyncGenerator<StoredBlob> {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket,
          Prefix: PREFIX,
          MaxKeys: listPageSize,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(PREFIX.length) ?? '';
        if (isBlobKey(name)) yield { key: name, size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Aborts the multipart puts under the prefix that were started before `before`. */
  async function removeStaleTemp(before: Date): Promise<number> {
    let removed = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    do {
      const page = await client.send(
        new ListMultipartUploadsCommand({
          Bucket,
          Prefix: PREFIX,
          MaxUploads: listPageSize,
          ...(KeyMarker ? { KeyMarker } : {}),
          ...(UploadIdMarker ? { UploadIdMarker } : {}),
        }),
      );
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || !u.Initiated || u.Initiated >= before) continue;
        await client.send(
          new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }),
        );
        removed += 1;
      }
      const more = page.IsTruncated === true;
      KeyMarker = more ? page.NextKeyMarker : undefined;
      UploadIdMarker = more ? page.NextUploadIdMarker : undefined;
    } while (KeyMarker);
    return removed;
  }

  /** UploadPartCopy of `size` bytes from `source` to `Key`, COPY_PARTS_IN_FLIGHT at a time. */
  async function copyInParts(source: string, etag: string, Key: string, size: number) {
    const step = Math.max(options.copyPartSize ?? COPY_PART_SIZE, Math.ceil(size / MAX_PARTS));
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    if (!UploadId) throw new Error('S3 started a multipart copy without an upload id');
    try {
      const count = Math.ceil(size / step);
      const parts: CompletedPart[] = new Array<CompletedPart>(count);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < count; i = next++) {
          const start = i * step;
          const end = Math.min(size, start + step) - 1;
          const res = await client.send(
            new UploadPartCopyCommand({
              Bucket,
              Key,
              UploadId,
              PartNumber: i + 1,
              CopySource: source,
              CopySourceIfMatch: etag,
              CopySourceRange: `bytes=${start}-${end}`,
            }),
          );
          parts[i] = { PartNumber: i + 1, ETag: res.CopyPartResult?.ETag };
        }
      };
      await Promise.all(Array.from({ length: Math.min(COPY_PARTS_IN_FLIGHT, count) }, worker));
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
        .catch(() => undefined); // removeStaleTemp aborts it later
      throw err;
    }
  }

  async function adoptObject(sourceKey: string, key: BlobKey = newKey()): Promise<StoredBlob> {
    const Key = objectKeyOf(key);
    // Blobs are immutable: one blob is never moved under another key.
    if (sourceKey.startsWith(PREFIX)) throw new Error('adoptObject takes no blob as its source');
    const found = await head(sourceKey);
    if (!found) throw new BlobNotFoundError();
    const size = found.ContentLength ?? 0;
    const source = copySource(Bucket, sourceKey);
    // If-Match: the copy fails rather than take bytes that changed since the HEAD.
    const etag = found.ETag ?? '*';
    if (size <= copyObjectMax) {
      await client.send(
        new CopyObjectCommand({ Bucket, Key, CopySource: source, CopySourceIfMatch: etag }),
      );
    } else {
      await copyInParts(source, etag, Key, size);
    }
    await client.send(new DeleteObjectCommand({ Bucket, Key: sourceKey }));
    return { key, size };
  }

  return {
    bucket: Bucket,
    client,
    put: (source) => put(source), // a key of the caller's choosing only through adopt()/restore()
    newKey,
    adopt,
    adoptObject,
    get,
    stat,
    delete: remove,
    list,
    restore: (key, source) => put(source, key),
    removeStaleTemp,
  };
}
