// A full disk, for real: the server's DATA_DIR (SQLite database, blobs, tus uploads, its log) on
// a 64 MiB tmpfs with UPLOAD_MIN_FREE_MB=16 (src/files/storage-guard.ts). Uploads are refused
// cleanly (507 JSON) under the watermark, before a byte is stored, while everything else keeps
// working; with the disk filled to the last byte, deleting a file still works (it frees the
// blob first); and once space returns, the refused upload resumes and new ones go through,
// every file byte-identical. Mounting needs root (or CAP_SYS_ADMIN): where mount is refused,
// the test is skipped and says why.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ciphertextLength,
  errorBodySchema,
  serverStorageFullMessage,
  UPLOADS_PATH,
} from '@sealvault/protocol';
import type { BenchApp } from '../../../bench/shared/app.ts';
import {
  accounts,
  blobKeysOnDisk,
  contentHash,
  createUpload,
  creationHeaders,
  download,
  errorCode,
  head,
  MiB,
  patch,
  pieceEnd,
  send,
  startServer,
  type Account,
  type Upload,
} from './harness.ts';

const WATERMARK_MB = 16;
let mountPoint = '';
let unavailable: string | null = null;
let app: BenchApp | undefined;
let account: Account;

beforeAll(async () => {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-faults-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint], {
      stdio: 'pipe',
    });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    unavailable = `mount -t tmpfs is not allowed here (${stderr || (err as Error).message})`;
    console.warn(`full-disk tests skipped: ${unavailable}`);
    return;
  }
  app = await startServer('disk', {
    parentDir: mountPoint,
    env: { UPLOAD_MIN_FREE_MB: String(WATERMARK_MB) },
  });
  account = (await accounts(app, 1))[0]!;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  if (!unavailable) execFileSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

const filler = () => path.join(mountPoint, 'filler');
const freeBytes = () => {
  const s = fs.statfsSync(mountPoint);
  return s.bavail * s.bsize;
};

/** Takes the disk's free space down to `leave` bytes (0: until the filesystem refuses a byte). */
function fill(leave: number) {
  const fd = fs.openSync(filler(), 'a');
  const chunk = Buffer.alloc(256 * 1024);
  try {
    for (let free = freeBytes(); free > leave; free = freeBytes()) {
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, free - leave));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** Sends every block of `u` from `offset`; the last answer. */
async function sendRest(u: Upload, offset = 0) {
  let res;
  do {
    res = await patch(app!, u, offset);
    expect(res.status, res.body.toString('utf8')).toBe(204);
    offset = pieceEnd(u, offset);
  } while (offset < u.bytes.length);
  return res;
}

const bytesOf = (plainMiB: number) => randomBytes(ciphertextLength(plainMiB * MiB));
const files: Upload[] = [];
let refused: Upload;

function expectStorageFull(res: { status: number; body: Buffer }) {
  expect(res.status).toBe(507);
  expect(errorBodySchema.parse(JSON.parse(res.body.toString('utf8')))).toEqual({
    error: { code: 'storage_full', message: serverStorageFullMessage },
  });
}

it('refuses uploads with 507 JSON under the free-space watermark, before storing a byte', async (ctx) => {
  if (unavailable || !app) return ctx.skip(unavailable ?? 'no server');
  // 8 MiB files until the next one would take free space under the watermark.
  for (;;) {
    const bytes = bytesOf(8);
    if (freeBytes() - bytes.length < WATERMARK_MB * MiB) {
      const headers = creationHeaders(app, account, bytes.length, randomUUID(), contentHash(bytes));
      expectStorageFull(await send(app.base, 'POST', UPLOADS_PATH, headers));
      break;
    }
    const u = await createUpload(app, account, bytes, false);
    await sendRest(u);
    files.push(u);
  }
  expect(files.length).toBeGreaterThanOrEqual(3);

  // An upload started with room to spare, whose PATCH comes once the disk has filled up.
  refused = await createUpload(app, account, bytesOf(2), true);
  fill(WATERMARK_MB * MiB - 1);
  expectStorageFull(await patch(app, refused, 0));
  const h = await head(app, refused);
  expect(h.status).toBe(200);
  expect(h.headers['upload-offset']).toBe('0');

  // Everything else works: lists, downloads, the account.
  const list = await send(app.base, 'GET', `/api/vaults/${account.vaultId}/files`, {
    cookie: account.cookie,
  });
  expect(list.status).toBe(200);
  expect((await download(app, files[0]!)).body.equals(files[0]!.bytes)).toBe(true);
  expect((await send(app.base, 'GET', '/api/me', { cookie: account.cookie })).status).toBe(200);
});

it('deletes a file when the disk is full to the last byte', async (ctx) => {
  if (unavailable || !app) return ctx.skip(unavailable ?? 'no server');
  fill(0);
  expect(freeBytes()).toBeLessThan(64 * 1024);
  const gone = files.shift()!;
  const blobsBefore = blobKeysOnDisk(app.dataDir).length;
  const res = await send(
    app.base,
    'DELETE',
    `/api/vaults/${account.vaultId}/files/${gone.fileId}`,
    { cookie: account.cookie, origin: app.base },
  );
  expect(res.status, res.body.toString('utf8')).toBe(204);
  expect(blobKeysOnDisk(app.dataDir)).toHaveLength(blobsBefore - 1);
  expect((await download(app, gone)).status).toBe(404);
  // A new upload is still refused: the deletion freed 8 MiB, under the 16 MiB watermark.
  const bytes = bytesOf(1);
  const headers = creationHeaders(app, account, bytes.length, randomUUID(), contentHash(bytes));
  const again = await send(app.base, 'POST', UPLOADS_PATH, headers);
  expect([again.status, errorCode(again)]).toEqual([507, 'storage_full']);
});

it('recovers when space returns: the refused upload resumes, new ones go through', async (ctx) => {
  if (unavailable || !app) return ctx.skip(unavailable ?? 'no server');
  fs.rmSync(filler());
  const last = await sendRest(refused);
  expect(last.headers['upload-offset']).toBe(String(refused.bytes.length));
  const fresh = await createUpload(app, account, bytesOf(4), false);
  await sendRest(fresh);
  for (const u of [...files, refused, fresh]) {
    const got = await download(app, u);
    expect(got.status).toBe(200);
    expect(got.body.equals(u.bytes), u.location).toBe(true);
  }
  // The first process all along: a crash on the full disk would have refused every request.
  expect((await send(app.base, 'GET', '/api/health', {})).status).toBe(200);
});
