// Issue 25, finding 2: uploads on a full disk. Each accepted upload reserves the bytes it has yet
// to send, counted against the free-space watermark, so uploads started side by side cannot
// overflow the disk between two checks ([Note: space reservations] in files/reservations.ts);
// bytes or database writes that meet a full disk anyway are answered 507 JSON, never 500; and an
// upload whose finishing met a full disk is not left 'finishing' (HEAD 423, DELETE 409) until a
// restart: once space returns, HEAD finishes it and DELETE cancels it.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverStorageFullMessage, UPLOAD_FINAL_CHECKSUM_HEADER } from '@sealvault/protocol';
import { fillDatabase } from '../testing/full-disk.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  asMeta,
  contentHash,
  errorOf,
  fakeCiphertext,
  fileContent,
  filesDeps,
  filesIn,
  listFiles,
  tus,
  tusFiles,
  uploadChecksum,
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';
import type { TestUser } from '../testing/users.ts';
import { sweepFiles } from './uploads.sweep.ts';

const MiB = 1024 * 1024;
const WATERMARK_MB = 10;
let t: TestApp;
let disk: { free: () => void } | null = null;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MIN_FREE_MB: String(WATERMARK_MB) });
});
afterEach(() => {
  disk?.free();
  disk = null;
  vi.restoreAllMocks();
});
afterAll(() => t.close());

async function expectStorageFull(res: Response) {
  expect(res.status).toBe(507);
  expect(await errorOf(res)).toEqual({ code: 'storage_full', message: serverStorageFullMessage });
}

const freeDisk = () => {
  disk?.free();
  disk = null;
};

describe('space reservations', () => {
  it('counts the declared bytes of accepted uploads against the watermark: side by side, only what fits is accepted', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(MiB);
    // Room above the watermark for three such uploads, and a little.
    vi.spyOn(t.files, 'freeBytes').mockResolvedValue(WATERMARK_MB * MiB + 3 * bytes.length + 1000);
    const create = () => up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length);
    const answers = await Promise.all(Array.from({ length: 6 }, create));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 507, 507, 507]);
    for (const res of answers.filter((r) => r.status === 507)) await expectStorageFull(res);
    const [a, b, c] = answers
      .filter((r) => r.status === 201)
      .map((r) => r.headers.get('location')!);
    expect((await create()).status).toBe(507);
    // A PATCH brings only bytes its upload has reserved: it passes.
    expect((await up.patch(b!, 0, bytes.subarray(0, 1000))).status).toBe(204);
    expect((await create()).status).toBe(507);
    // Released when an upload is cancelled, ...
    expect((await up.remove(b!)).status).toBe(204);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(507);
    // ... when it is complete, ...
    expect((await up.patch(a!, 0, bytes)).status).toBe(204);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(507);

    // ... and when an upload expires and is swept.
    t.clock.now = new Date(t.clock.now.getTime() + (t.config.uploadExpiryHours + 1) * 3_600_000);
    await sweepFiles(filesDeps(t));
    t.clock.now = new Date();
    expect(await uploadRows(t, vaultId)).toEqual([]);
    expect(tusFiles(t, c!)).toEqual([]);
    const again = await Promise.all(Array.from({ length: 4 }, create));
    expect(again.map((r) => r.status).sort()).toEqual([201, 201, 201, 507]);
  });

  it('answers 507 JSON, not 500, when the bytes of a PATCH meet a full disk; the upload resumes', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(100_000);
    const meta = uploadMetadata(vaultId, bytes);
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location')!;
    // The file system refuses the bytes (tus's FileStore used to turn this into its own 500):
    // the upload's file opens, its writes fail ([Note: body written in batches] in uploads.store.ts).
    const open = fsp.open.bind(fsp);
    const spy = vi.spyOn(fsp, 'open').mockImplementation(async (file, ...rest) => {
      const handle = await open(file, ...rest);
      if (String(file).includes(`${path.sep}uploads${path.sep}`)) {
        handle.writev = () =>
          Promise.reject(
            Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
              errno: -28,
            }),
          );
      }
      return handle;
    });
    // With the checksum of the body (the app's PATCH) and without.
    await expectStorageFull(await up.patch(location, 0, bytes, uploadChecksum(bytes)));
    await expectStorageFull(await up.patch(location, 0, bytes));
    spy.mockRestore();
    expect(t.logs()).not.toMatch(/upload failed/);
    expect((await up.head(location)).headers.get('upload-offset')).toBe('0');
    expect((await up.patch(location, 0, bytes)).status).toBe(204);
    expect(await listFiles(t, user, vaultId)).toHaveLength(1);
  });

  it('answers 507 JSON when the database cannot record a new upload', async () => {
    const { user, vaultId } = await userWithVault(t);
    const bytes = fakeCiphertext(1000);
    const up = tus(t, user.cookie);
    // The checks read; the upload's row is the first write.
    disk = fillDatabase(t);
    await expectStorageFull(await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length));
    freeDisk();
    expect((await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length)).status).toBe(
      201,
    );
  });
});

interface Stuck {
  user: TestUser;
  vaultId: string;
  fileId: string;
  bytes: Buffer;
  location: string;
}

/**
 * An upload whose last PATCH arrives while the disk is about to fill: the claim is taken, then
 * `whenFull` (a step of the finishing) finds the database full, and so does the release of the
 * claim. Its last PATCH is answered 507.
 */
async function stuckUpload(whenFull: 'naming the blob' | 'recording the file'): Promise<Stuck> {
  const { user, vaultId } = await userWithVault(t);
  const up = tus(t, user.cookie);
  const bytes = fakeCiphertext(300_000);
  const meta = uploadMetadata(vaultId, bytes);
  const header = asMeta(meta);
  delete header.checksum; // deferred: kept on the row with the claim
  const location = (await up.create(header, bytes.length)).headers.get('location')!;
  expect((await up.patch(location, 0, bytes.subarray(0, -1000))).status).toBe(204);
  if (whenFull === 'naming the blob') {
    const newKey = t.files.blobs.newKey.bind(t.files.blobs);
    vi.spyOn(t.files.blobs, 'newKey').mockImplementationOnce(() => {
      disk = fillDatabase(t);
      return newKey();
    });
  } else {
    const move = t.files.uploads.moveToBlob.bind(t.files.uploads);
    vi.spyOn(t.files.uploads, 'moveToBlob').mockImplementationOnce(async (...args) => {
      await move(...args);
      disk = fillDatabase(t);
    });
  }
  const last = await up.patch(location, bytes.length - 1000, bytes.subarray(-1000), {
    [UPLOAD_FINAL_CHECKSUM_HEADER]: contentHash(bytes),
  });
  await expectStorageFull(last);
  const [row] = await uploadRows(t, vaultId);
  expect(row?.state).toBe('finishing');
  return { user, vaultId, fileId: meta.fileId, bytes, location };
}

describe('an upload whose finishing met a full disk', () => {
  it('answers HEAD and DELETE 507 while the disk is full, not 423 and 409', async () => {
    const s = await stuckUpload('naming the blob');
    const up = tus(t, s.user.cookie);
    const head = await up.head(s.location);
    expect(head.status).toBe(507);
    await expectStorageFull(await up.remove(s.location));
    freeDisk();
    expect((await up.head(s.location)).status).toBe(200);
  });

  it('is finished by the next HEAD once space returns, without a restart', async () => {
    for (const step of ['naming the blob', 'recording the file'] as const) {
      const s = await stuckUpload(step);
      freeDisk();
      const head = await tus(t, s.user.cookie).head(s.location);
      expect(head.status, step).toBe(200);
      expect(head.headers.get('upload-offset')).toBe(String(s.bytes.length));
      expect(await listFiles(t, s.user, s.vaultId)).toMatchObject([
        { id: s.fileId, ciphertext_size: s.bytes.length },
      ]);
      expect((await fileContent(t, s.user, s.vaultId, s.fileId)).equals(s.bytes)).toBe(true);
      expect(await uploadRows(t, s.vaultId)).toEqual([]);
    }
  });

  it('is cancelled by DELETE once space returns, leaving no row, tus file or blob', async () => {
    for (const step of ['naming the blob', 'recording the file'] as const) {
      const blobsBefore = filesIn(t, 'blobs');
      const s = await stuckUpload(step);
      freeDisk();
      const up = tus(t, s.user.cookie);
      expect((await up.remove(s.location)).status, step).toBe(204);
      expect((await up.head(s.location)).status).toBe(404);
      expect(await uploadRows(t, s.vaultId)).toEqual([]);
      expect(tusFiles(t, s.location)).toEqual([]);
      expect(filesIn(t, 'blobs')).toEqual(blobsBefore);
      expect(await listFiles(t, s.user, s.vaultId)).toEqual([]);
    }
  });

  it('is finished in the background once space returns, without a request', async () => {
    const s = await stuckUpload('naming the blob');
    freeDisk();
    // The first attempt after a full disk comes 5 s later (uploads.finish.ts).
    await vi.waitFor(async () => expect(await listFiles(t, s.user, s.vaultId)).toHaveLength(1), {
      timeout: 8_000,
      interval: 250,
    });
    expect((await fileContent(t, s.user, s.vaultId, s.fileId)).equals(s.bytes)).toBe(true);
    expect(await uploadRows(t, s.vaultId)).toEqual([]);
  }, 15_000);

  it('is finished by the sweep once space returns', async () => {
    const s = await stuckUpload('recording the file');
    freeDisk();
    const swept = await sweepFiles(filesDeps(t));
    expect(swept.finishedUploads).toBe(1);
    expect(await listFiles(t, s.user, s.vaultId)).toHaveLength(1);
  });
});
