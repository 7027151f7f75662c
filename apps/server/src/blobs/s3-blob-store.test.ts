import { randomBytes } from 'node:crypto';
import {
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../testing/s3-server.ts';
import { BlobNotFoundError, type BlobKey } from './blob-store.ts';
import { blobStoreSuite, chunks, listAll, readAll } from './blob-store.suite.ts';
import { createS3BlobStore, type S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts';

const MiB = 1024 * 1024;
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

/** Stores on the one test bucket, which is emptied after each test. */
const stores: S3BlobStore[] = [];
function openStore(over: Partial<S3BlobStoreOptions> = {}): S3BlobStore {
  const store = createS3BlobStore({ bucket: s3.bucket, client: s3.clientConfig(), ...over });
  stores.push(store);
  return store;
}
async function emptyBucket(store: S3BlobStore) {
  const Bucket = store.bucket;
  const { Contents = [] } = await store.client.send(new ListObjectsV2Command({ Bucket }));
  for (const { Key } of Contents) await store.client.send(new DeleteObjectCommand({ Bucket, Key }));
  await store.removeStaleTemp(new Date(Date.now() + 3_600_000));
}
afterEach(async () => {
  for (const store of stores.splice(0)) {
    await emptyBucket(store);
    store.client.destroy();
  }
});

/** The names of the S3 commands the store sends, in order. */
function recordCommands(store: S3BlobStore): string[] {
  const names: string[] = [];
  store.client.middlewareStack.add(
    (next, context) => (args) => {
      names.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize' },
  );
  return names;
}

async function unfinishedUploads(store: S3BlobStore): Promise<string[]> {
  const res = await store.client.send(
    new ListMultipartUploadsCommand({ Bucket: store.bucket, Prefix: 'blobs/' }),
  );
  return (res.Uploads ?? []).map((u) => `${u.Key}#${u.UploadId}`);
}

blobStoreSuite('S3BlobStore', () => {
  // A small page size, so that listing pages through ListObjectsV2.
  const store = openStore({ listPageSize: 2 });
  return Promise.resolve({
    store,
    partSize: 8 * MiB, // the store's default
    leftovers: () => unfinishedUploads(store),
    makeLeftover: async () => {
      const Key = `blobs/${store.newKey()}`;
      const { UploadId } = await store.client.send(
        new CreateMultipartUploadCommand({ Bucket: store.bucket, Key }),
      );
      await store.client.send(
        new UploadPartCommand({
          Bucket: store.bucket,
          Key,
          UploadId,
          PartNumber: 1,
          Body: randomBytes(1000),
        }),
      );
    },
    close: () => Promise.resolve(), // afterEach empties the bucket
  });
});

describe('S3BlobStore against S3', () => {
  it('puts a large stream as a multipart upload of 8 MiB parts, and keeps it under blobs/', async () => {
    const store = openStore();
    const sent = recordCommands(store);
    const data = randomBytes(20 * MiB + 5);
    const { key } = await store.put(chunks(data, 3 * MiB + 1));
    expect(sent.filter((n) => n !== 'UploadPart')).toEqual([
      'CreateMultipartUpload',
      'CompleteMultipartUpload',
    ]);
    expect(sent.filter((n) => n === 'UploadPart')).toHaveLength(3);
    const head = await store.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `blobs/${key}` }),
    );
    expect(head.ContentLength).toBe(data.length);
  });

  it('aborts a multipart put whose source fails, leaving no parts behind', async () => {
    const store = openStore();
    const sent = recordCommands(store);
    async function* failing() {
      yield randomBytes(9 * MiB);
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('connection dropped');
    }
    await expect(store.put(failing())).rejects.toThrow('connection dropped');
    expect(sent).toContain('AbortMultipartUpload');
    expect(await unfinishedUploads(store)).toEqual([]);
    expect(await listAll(store)).toEqual([]);
  });

  it('reads a range with one ranged GET', async () => {
    const store = openStore();
    const data = randomBytes(100_000);
    const { key } = await store.put([data]);
    const sent = recordCommands(store);
    const got = await readAll(await store.get(key, { start: 10, end: 20 }));
    expect(got.equals(data.subarray(10, 21))).toBe(true);
    expect(sent).toEqual(['GetObject']);
  });

  it('lists only blob keys under its prefix, page by page', async () => {
    const store = openStore({ listPageSize: 2 });
    const put = [];
    for (let i = 0; i < 5; i++) put.push(await store.put([randomBytes(i + 1)]));
    for (const Key of ['uploads/abc', 'blobs/not-a-key', 'blobsx/0123']) {
      await store.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'x' }));
    }
    const sent = recordCommands(store);
    const listed = await listAll(store);
    expect(listed).toEqual(
      put.map((b) => ({ key: b.key, size: b.size })).sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(sent.filter((n) => n === 'ListObjectsV2').length).toBeGreaterThanOrEqual(3);
  });
});

describe('S3BlobStore.adoptObject', () => {
  async function upload(store: S3BlobStore, Key: string, Body: Buffer) {
    await store.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body }));
  }
  const exists = (store: S3BlobStore, Key: string) =>
    store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key })).then(
      () => true,
      () => false,
    );

  it('turns an object of the bucket into a blob by CopyObject, then deletes the source', async () => {
    const store = openStore();
    const data = randomBytes(3 * MiB + 17);
    await upload(store, 'uploads/0f1e2d', data);
    const key = store.newKey();
    const sent = recordCommands(store);
    expect(await store.adoptObject('uploads/0f1e2d', key)).toEqual({ key, size: data.length });
    expect(sent).toEqual(['HeadObject', 'CopyObject', 'DeleteObject']);
    expect(await exists(store, 'uploads/0f1e2d')).toBe(false);
    expect((await readAll(await store.get(key))).equals(data)).toBe(true);
    expect(await store.stat(key)).toEqual({ size: data.length });
  });

  it('copies an object above the CopyObject limit in parts (UploadPartCopy)', async () => {
    // The limit is 5 GiB on S3; lowered here so that a small object takes the same path.
    const store = openStore({ copyObjectMax: 6 * MiB, copyPartSize: 5 * MiB });
    const data = randomBytes(12 * MiB + 5);
    await upload(store, 'uploads/big', data);
    const sent = recordCommands(store);
    const { key, size } = await store.adoptObject('uploads/big');
    expect(size).toBe(data.length);
    expect(sent.filter((n) => n === 'UploadPartCopy')).toHaveLength(3);
    expect(sent).toContain('CompleteMultipartUpload');
    expect(sent).not.toContain('CopyObject');
    expect((await readAll(await store.get(key))).equals(data)).toBe(true);
    expect(await exists(store, 'uploads/big')).toBe(false);
    expect(await unfinishedUploads(store)).toEqual([]);
  });

  it('refuses a missing source, a blob as the source, and a key not of our form', async () => {
    const store = openStore();
    await expect(store.adoptObject('uploads/none')).rejects.toBeInstanceOf(BlobNotFoundError);
    const { key } = await store.put([randomBytes(10)]);
    await expect(store.adoptObject(`blobs/${key}`)).rejects.toThrow(/no blob/);
    expect(await store.stat(key)).toEqual({ size: 10 });
    await upload(store, 'uploads/kept', randomBytes(10));
    await expect(store.adoptObject('uploads/kept', '../x' as BlobKey)).rejects.toBeInstanceOf(
      BlobNotFoundError,
    );
    expect(await exists(store, 'uploads/kept')).toBe(true);
  });
});
