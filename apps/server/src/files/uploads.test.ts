import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ciphertextLength, UPLOAD_FINAL_CHECKSUM_HEADER } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  asMeta,
  errorOf,
  fakeCiphertext,
  fileContent,
  filesIn,
  listFiles,
  sha256,
  tus,
  tusFiles,
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('tus uploads: storing, resuming, limits, checksum', () => {
  it('creates the record only once the last byte has arrived', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(300_000);
    const meta = uploadMetadata(vaultId, bytes);
    const created = await up.create(asMeta(meta), bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect(created.headers.get('upload-expires')).toBeTruthy();

    expect((await up.patch(location, 0, bytes.subarray(0, 100_000))).status).toBe(204);
    const head = await up.head(location);
    expect(head.headers.get('upload-offset')).toBe('100000');
    expect(head.headers.get('upload-length')).toBe(String(bytes.length));
    expect(await listFiles(t, user, vaultId)).toEqual([]);

    const done = await up.patch(location, 100_000, bytes.subarray(100_000));
    expect(done.status).toBe(204);
    const files = await listFiles(t, user, vaultId);
    expect(files).toMatchObject([{ id: meta.fileId, ciphertext_size: bytes.length }]);
    expect((await fileContent(t, user, vaultId, meta.fileId)).equals(bytes)).toBe(true);
    expect(tusFiles(t, location)).toEqual([]);
    expect(await uploadRows(t, vaultId)).toEqual([]);
    // The finished upload answers complete (a retry of its last request learns it succeeded).
    const complete = await up.head(location);
    expect(complete.status).toBe(200);
    expect(complete.headers.get('upload-offset')).toBe(String(bytes.length));
    expect((await up.patch(location, 100_000, bytes.subarray(100_000))).status).toBe(409);
    expect(await listFiles(t, user, vaultId)).toHaveLength(1);
  });

  it('resumes after a dropped connection: HEAD gives the offset, the rest completes it', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(700_000);
    const meta = uploadMetadata(vaultId, bytes);
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location') ?? '';

    // The connection drops once the first 300,000 bytes have reached the disk.
    const onDisk = path.join(t.config.dataDir, 'uploads', location.split('/').pop() ?? '');
    const dropping = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, 200_000));
        controller.enqueue(bytes.subarray(200_000, 300_000));
        for (let i = 0; i < 200 && fs.statSync(onDisk).size < 300_000; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
        controller.error(new Error('connection reset'));
      },
    });
    const broken = await up.patch(location, 0, dropping).catch(() => null);
    expect(broken?.status).not.toBe(204);

    const offset = Number((await up.head(location)).headers.get('upload-offset'));
    expect(offset).toBe(300_000);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect((await up.patch(location, offset, bytes.subarray(offset))).status).toBe(204);
    expect((await fileContent(t, user, vaultId, meta.fileId)).equals(bytes)).toBe(true);
  });

  it('refuses a declared length over the plan limit before storing a byte (413, spec message)', async () => {
    const { user, vaultId } = await userWithVault(t, 'free'); // 2 MB
    const up = tus(t, user.cookie);
    const onDisk = filesIn(t, 'uploads');
    const length = ciphertextLength(2 * 1024 * 1024 + 200_000);
    const meta = uploadMetadata(vaultId, Buffer.alloc(0));
    const res = await up.create(asMeta(meta), length);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toEqual({
      code: 'payload_too_large',
      message:
        "File size (2.2 MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.",
    });
    expect(filesIn(t, 'uploads')).toEqual(onDisk);
    expect(await uploadRows(t, vaultId)).toEqual([]);

    // Exactly the limit, with exactly the vf1 overhead, is allowed.
    const atLimit = await up.create(asMeta(meta), ciphertextLength(2 * 1024 * 1024));
    expect(atLimit.status).toBe(201);
    expect((await up.remove(atLimit.headers.get('location') ?? '')).status).toBe(204);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('has no size cap on an unlimited plan (-1)', async () => {
    const { user, vaultId } = await userWithVault(t, 'unlimited');
    const up = tus(t, user.cookie);
    const res = await up.create(
      asMeta(uploadMetadata(vaultId, Buffer.alloc(0))),
      ciphertextLength(5 * 1024 ** 3),
    );
    expect(res.status).toBe(201);
    expect((await up.remove(res.headers.get('location') ?? '')).status).toBe(204);
  });

  it('never stores more bytes than the declared Upload-Length', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(1000);
    const meta = uploadMetadata(vaultId, bytes);
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    const tooMuch = Buffer.concat([bytes, fakeCiphertext(5000)]);
    // Declared up front in Content-Length: refused before reading.
    const declared = await up.patch(location, 0, tooMuch, {
      'content-length': String(tooMuch.length),
    });
    expect(declared.status).toBe(413);
    // Not declared: the stream is cut at the upload's length.
    const streamed = await up.patch(location, 0, tooMuch);
    expect(streamed.status).toBe(413);
    const stored = fs.statSync(path.join(t.config.dataDir, 'uploads', id)).size;
    expect(stored).toBeLessThanOrEqual(bytes.length);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect((await up.remove(location)).status).toBe(204);
    expect(tusFiles(t, location)).toEqual([]);
  });

  it('rejects a checksum mismatch: no record, no blob, no upload left', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const blobsBefore = filesIn(t, 'blobs');
    const bytes = fakeCiphertext(5000);
    // A wrong hash, and the whole-file SHA-256 that files were checked with before the content hash.
    for (const checksum of ['ab'.repeat(32), sha256(bytes)]) {
      const meta = uploadMetadata(vaultId, bytes, { checksum });
      const { created, patched } = await up.upload(meta, bytes);
      expect(created.status).toBe(201);
      expect(patched.status).toBe(460);
      expect((await errorOf(patched)).message).toMatch(/checksum/);
      expect(tusFiles(t, created.headers.get('location') ?? '')).toEqual([]);
    }
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect(filesIn(t, 'blobs')).toEqual(blobsBefore);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('accepts a checksum deferred to the completing PATCH, and verifies it like any other', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(300_000);
    const { checksum, ...deferred } = asMeta(uploadMetadata(vaultId, bytes));
    const created = await up.create(deferred, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    // Only the PATCH that completes the upload is checked; a header on an earlier one is ignored.
    const first = await up.patch(location, 0, bytes.subarray(0, 1000), {
      [UPLOAD_FINAL_CHECKSUM_HEADER]: 'cd'.repeat(32),
    });
    expect(first.status).toBe(204);
    const done = await up.patch(location, 1000, bytes.subarray(1000), {
      [UPLOAD_FINAL_CHECKSUM_HEADER]: checksum!,
    });
    expect(done.status).toBe(204);
    const files = await listFiles(t, user, vaultId);
    expect(files).toMatchObject([{ id: deferred.fileId, checksum }]);
    expect((await fileContent(t, user, vaultId, deferred.fileId!)).equals(bytes)).toBe(true);
  });

  it('refuses a deferred checksum that is wrong or missing, and one that contradicts creation', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const blobsBefore = filesIn(t, 'blobs');
    const bytes = fakeCiphertext(5000);
    for (const [withChecksum, header] of [
      [false, 'ab'.repeat(32)],
      [false, null],
      [true, 'ab'.repeat(32)],
    ] as const) {
      const { checksum, ...rest } = asMeta(uploadMetadata(vaultId, bytes));
      const meta = withChecksum ? { ...rest, checksum: checksum! } : rest;
      const created = await up.create(meta, bytes.length);
      expect(created.status).toBe(201);
      const patched = await up.patch(
        created.headers.get('location') ?? '',
        0,
        bytes,
        header ? { [UPLOAD_FINAL_CHECKSUM_HEADER]: header } : {},
      );
      expect(patched.status).toBe(460);
      expect((await errorOf(patched)).message).toMatch(/checksum/);
    }
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect(filesIn(t, 'blobs')).toEqual(blobsBefore);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });
});
