// The tus store for several instances (issue 17): unfinished uploads live in the S3 bucket beside
// the blobs, through the tus project's own S3 store (@tus/s3-store), so a PATCH may reach any
// instance. An upload is an S3 multipart upload of the object `<id>` with its tus info in
// `<id>.info`, and a piece shorter than S3's 5 MiB minimum part waits in `<id>.part` until the next
// PATCH completes it (how @tus/s3-store works; the blobs live under `blobs/`). When the last byte
// arrives the multipart upload completes, finishUpload (uploads.finish.ts) verifies the content
// hash and the S3 blob store copies the object to its blob key inside the bucket.
//
// What uploads.store.ts does for the directory store, done here without truncation:
// - [Note: running hash] The block hashes are kept per process as there, and dropped when a PATCH
//   went to another instance (the offset no longer matches); finishUpload then reads the object.
// - [Note: checksum per PATCH] S3 cannot cut a body back off, so a body with a declared digest is
//   read into memory first (at most MAX_CHECKED_BODY: the app sends 4 MiB per PATCH), checked, and
//   written only when it matches; a mismatch writes nothing and answers 460.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { S3Store } from '@tus/s3-store';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';
import { BlobNotFoundError, type BlobKey, type BlobStore } from '../blobs/blob-store.ts';
import type { S3BlobStore } from '../blobs/s3-blob-store.ts';
import { CHECKSUM_MISMATCH_STATUS, TusHttpError, texts } from './uploads.errors.ts';
import { UploadHashes, type BodyCheck } from './uploads.hashes.ts';
import { UPLOAD_ID_PATTERN, type UploadBytes } from './uploads.ts';

/** The largest body with an Upload-Checksum held in memory to be checked before it is written. */
export const MAX_CHECKED_BODY = 2 * CONTENT_HASH_BLOCK_BYTES;
export const checkedBodyTooLarge = `A piece with Upload-Checksum may carry at most ${MAX_CHECKED_BODY / 1024 / 1024} MiB here.`;
const INFO = /^([0-9a-f]{32})\.info$/;

export interface S3UploadStoreOptions {
  bucket: string;
  forcePathStyle: boolean;
  /** Client settings over the SDK's default chain (tests). */
  client?: S3ClientConfig;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata
    ?.httpStatusCode;
  return name === 'NotFound' || name === 'NoSuchKey' || name === 'NoSuchUpload' || status === 404;
}

export class S3UploadStore extends S3Store implements UploadBytes {
  private readonly hashes = new UploadHashes();
  readonly bucketName: string;

  constructor(options: S3UploadStoreOptions) {
    super({
      // 8 MiB parts: two of the app's 4 MiB PATCHes make one.
      partSize: 8 * 1024 * 1024,
      s3ClientConfig: {
        ...options.client,
        bucket: options.bucket,
        forcePathStyle: options.forcePathStyle,
        // As in the S3 blob store (blobs/s3-blob-store.ts): S3-compatible servers often refuse
        // the aws-chunked trailers of the SDK's default checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
    this.bucketName = options.bucket;
    // As the directory store: a size must be declared first (no creation-defer-length).
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'checksum'];
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

    if (check) {
      const body = await readAtMost(readable, MAX_CHECKED_BODY);
      if (!body) throw new TusHttpError(413, 'payload_too_large', checkedBodyTooLarge);
      if (!createHash('sha256').update(body).digest().equals(check.digest)) {
        if (hasher && offset > 0) this.hashes.keep(id, hasher); // nothing was written
        throw new TusHttpError(CHECKSUM_MISMATCH_STATUS, 'bad_request', texts.pieceCorrupted);
      }
      const newOffset = await super.write(Readable.from([body]), id, offset);
      if (hasher && newOffset === offset + body.length) {
        hasher.update(body);
        this.hashes.keep(id, hasher);
      }
      return newOffset;
    }

    let seen = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hasher?.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    readable.on('error', (err) => tap.destroy(err));
    const newOffset = await super.write(readable.pipe(tap), id, offset);
    if (hasher && newOffset === offset + seen) this.hashes.keep(id, hasher);
    return newOffset;
  }

  async received(id: string): Promise<{ size: number; mtime: Date } | null> {
    if (!UPLOAD_ID_PATTERN.test(id)) return null;
    const lastModified = (Key: string) =>
      this.client
        .headObject({ Bucket: this.bucketName, Key })
        .then((h) => ({ size: h.ContentLength ?? 0, at: h.LastModified?.getTime() ?? 0 }))
        .catch((err: unknown) => {
          if (isNotFound(err)) return null;
          throw err;
        });
    // When the last byte came: the info is rewritten as the multipart upload completes (a
    // completed object's own Last-Modified is when its multipart upload began), and the short
    // piece is written by each PATCH that leaves one.
    const [whole, info, piece] = await Promise.all(
      [id, `${id}.info`, `${id}.part`].map(lastModified),
    );
    const mtime = new Date(Math.max(whole?.at ?? 0, info?.at ?? 0, piece?.at ?? 0));
    if (whole) return { size: whole.size, mtime };
    const upload = await this.getUpload(id).catch(() => null);
    return upload && { size: upload.offset, mtime };
  }

  async *bytesOf(id: string): AsyncIterable<Uint8Array> {
    const { Body } = await this.client.getObject({ Bucket: this.bucketName, Key: id });
    if (!Body) return;
    for await (const chunk of Body as AsyncIterable<Uint8Array>) yield chunk;
  }

  async moveToBlob(id: string, blobs: BlobStore, key: BlobKey): Promise<void> {
    const s3 = blobs as Partial<S3BlobStore>;
    if (!s3.adoptObject || s3.bucket !== this.bucketName) {
      throw new Error('uploads in S3 need the S3 blob store of the same bucket');
    }
    try {
      await s3.adoptObject(id, key);
    } catch (err) {
      if (err instanceof BlobNotFoundError)
        throw new Error('upload object missing', { cause: err });
      throw err;
    }
  }

  /** tus termination: the store's own removal leaves the short piece behind; this does not. */
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.client.deleteObject({ Bucket: this.bucketName, Key: `${id}.part` });
  }

  async discard(id: string): Promise<void> {
    this.hashes.forget(id);
    if (!UPLOAD_ID_PATTERN.test(id)) return;
    // The multipart upload if it is still open, then every object of the upload.
    await this.remove(id).catch(() => undefined);
    await this.client.deleteObjects({
      Bucket: this.bucketName,
      Delete: { Objects: [id, `${id}.info`, `${id}.part`].map((Key) => ({ Key })), Quiet: true },
    });
  }

  async held(): Promise<{ id: string; mtime: Date }[]> {
    const found: { id: string; mtime: Date }[] = [];
    let ContinuationToken: string | undefined;
    do {
      // The bucket's top level: the uploads' objects (the blobs are under blobs/).
      const page = await this.client.listObjectsV2({
        Bucket: this.bucketName,
        Delimiter: '/',
        ContinuationToken,
      });
      for (const object of page.Contents ?? []) {
        const id = INFO.exec(object.Key ?? '')?.[1];
        if (id) found.push({ id, mtime: object.LastModified ?? new Date(0) });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  }
}

/** The whole body if it has at most `limit` bytes, else null (the rest is not read). */
async function readAtMost(readable: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of readable) {
    const buf = chunk as Buffer;
    length += buf.length;
    if (length > limit) {
      readable.destroy();
      return null;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, length);
}
