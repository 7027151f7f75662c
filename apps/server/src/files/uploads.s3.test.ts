// tus uploads with BLOB_STORE=s3: unfinished uploads in the bucket (uploads.s3.ts), blobs under
// blobs/, against a real S3-protocol server on loopback (testing/s3-server.ts).
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_HASH_BLOCK_BYTES, UPLOAD_FINAL_CHECKSUM_HEADER } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { startS3Server, type S3TestServer } from '../testing/s3-server.ts';
import {
  asMeta,
  contentHash,
  errorOf,
  fileContent,
  listFiles,
  tus,
  uploadChecksum,
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';
import { randomBytes } from 'node:crypto';
import { texts } from './uploads.errors.ts';

const BLOCK = CONTENT_HASH_BLOCK_BYTES;
let s3: S3TestServer;
let t: TestApp;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3Server();
  // The SDK finds endpoint, region and credentials in the environment, as in production.
  const env = s3.env();
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION']) {
    process.env[name] = env[name];
  }
  process.env.AWS_ENDPOINT_URL_S3 = env.AWS_ENDPOINT_URL_S3;
  t = await createTestApp(env);
  client = new S3Client(s3.clientConfig());
});
afterAll(async () => {
  client.destroy();
  await t.close();
  await s3.close();
});

async function bucketKeys(): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** Sends `bytes` as the app does: one 4 MiB block per PATCH with its Upload-Checksum. */
async function sendBlocks(
  up: ReturnType<typeof tus>,
  location: string,
  bytes: Buffer,
  from = 0,
  last: Record<string, string> = {},
) {
  for (let at = from; at < bytes.length; at += BLOCK) {
    const piece = bytes.subarray(at, Math.min(at + BLOCK, bytes.length));
    const final = at + piece.length === bytes.length ? last : {};
    const res = await up.patch(location, at, piece, { ...uploadChecksum(piece), ...final });
    expect(res.status, `PATCH at ${at}`).toBe(204);
  }
}

describe('tus uploads kept in S3', () => {
  it('stores a 9 MiB upload sent in 4 MiB PATCHes as one blob, whole and in ranges', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = randomBytes(9 * 1024 * 1024 + 123);
    const meta = uploadMetadata(vaultId, bytes);
    // The checksum deferred to the last PATCH, as the app sends it ([Note: deferred checksum]).
    const deferred = Object.fromEntries(
      Object.entries(asMeta(meta)).filter(([name]) => name !== 'checksum'),
    );
    const created = await up.create(deferred, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    await sendBlocks(up, location, bytes, 0, {
      [UPLOAD_FINAL_CHECKSUM_HEADER]: contentHash(bytes),
    });

    const [file] = await listFiles(t, user, vaultId);
    expect(file).toMatchObject({ id: meta.fileId, ciphertext_size: bytes.length });
    expect((await fileContent(t, user, vaultId, meta.fileId)).equals(bytes)).toBe(true);
    const ranged = await t.request(`/api/vaults/${vaultId}/files/${meta.fileId}/content`, {
      headers: { cookie: user.cookie, range: `bytes=${BLOCK - 10}-${BLOCK + 9}` },
    });
    expect(ranged.status).toBe(206);
    const part = Buffer.from(await ranged.arrayBuffer());
    expect(part.equals(bytes.subarray(BLOCK - 10, BLOCK + 10))).toBe(true);
    // Only the blob is left in the bucket: the upload's object, info and piece are gone.
    const keys = await bucketKeys();
    expect(keys.filter((k) => k.includes(id))).toEqual([]);
    expect(keys.filter((k) => k.startsWith('blobs/'))).toHaveLength(1);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('refuses a corrupted PATCH with 460 and writes none of it; sent again it completes', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = randomBytes(2 * BLOCK + 5000);
    const meta = uploadMetadata(vaultId, bytes);
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    await sendBlocks(up, location, bytes.subarray(0, BLOCK));
    const piece = Buffer.from(bytes.subarray(BLOCK, 2 * BLOCK));
    const corrupted = Buffer.from(piece);
    corrupted.writeUInt8(corrupted.readUInt8(1000) ^ 0xff, 1000);
    const refused = await up.patch(location, BLOCK, corrupted, uploadChecksum(piece));
    expect(refused.status).toBe(460);
    expect((await errorOf(refused)).message).toBe(texts.pieceCorrupted);
    expect((await up.head(location)).headers.get('upload-offset')).toBe(String(BLOCK));
    const rest = Buffer.from(bytes);
    await sendBlocks(up, location, rest, BLOCK);
    expect((await fileContent(t, user, vaultId, meta.fileId)).equals(bytes)).toBe(true);
  });

  it('finishes an upload whose PATCHes reached another process, from the bytes in the bucket', async () => {
    const { user, vaultId } = await userWithVault(t);
    const bytes = randomBytes(BLOCK + 777);
    const meta = uploadMetadata(vaultId, bytes);
    const location =
      (await tus(t, user.cookie).create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    await sendBlocks(tus(t, user.cookie), location, bytes.subarray(0, BLOCK));
    t.restart(); // a new process: no block hashes, no memory of the upload
    const head = await tus(t, user.cookie).head(location);
    expect(head.headers.get('upload-offset')).toBe(String(BLOCK));
    await sendBlocks(tus(t, user.cookie), location, Buffer.from(bytes), BLOCK);
    expect((await fileContent(t, user, vaultId, meta.fileId)).equals(bytes)).toBe(true);
  });

  it('refuses bytes that do not match the declared content hash, and leaves nothing behind', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = randomBytes(300_000);
    const meta = uploadMetadata(vaultId, randomBytes(300_000)); // the checksum of other bytes
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    const res = await up.patch(location, 0, bytes);
    expect(res.status).toBe(460);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect((await bucketKeys()).filter((k) => k.includes(id))).toEqual([]);
  });

  it('cancels an upload (tus termination): its objects leave the bucket', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = randomBytes(BLOCK + 10);
    const location =
      (await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length)).headers.get(
        'location',
      ) ?? '';
    const id = location.split('/').pop() ?? '';
    await sendBlocks(up, location, bytes.subarray(0, BLOCK));
    expect((await bucketKeys()).some((k) => k.startsWith(id))).toBe(true);
    expect((await up.remove(location)).status).toBe(204);
    expect((await bucketKeys()).filter((k) => k.startsWith(id))).toEqual([]);
  });
});
