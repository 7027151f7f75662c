// The tus checksum extension on PATCH (Upload-Checksum, [Note: checksum per PATCH] in
// uploads.store.ts) and the content hash of whole uploads ([Note: content hash],
// [Note: running hash]).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CONTENT_HASH_BLOCK_BYTES,
  UPLOAD_CHECKSUM_HEADER,
  UPLOAD_FINAL_CHECKSUM_HEADER,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { ContentHasher } from './content-hash.ts';
import {
  asMeta,
  contentHash,
  errorOf,
  fakeCiphertext,
  fileContent,
  listFiles,
  metadataHeader,
  tus,
  uploadChecksum,
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';

const BLOCK = CONTENT_HASH_BLOCK_BYTES;
const pieceCorrupted = {
  code: 'bad_request',
  message: 'This piece of the upload was corrupted in transit. Send it again.',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** Watches for reads of a stored upload file (the fallback of [Note: running hash]). */
const readsOf = (file: string) => {
  const spy = vi.spyOn(fs, 'createReadStream');
  return () => spy.mock.calls.filter(([p]) => p === file).length;
};

/** The body with one bit flipped, as a bad link might deliver it. */
function corrupted(piece: Uint8Array): Buffer {
  const copy = Buffer.from(piece);
  copy[copy.length >> 1]! ^= 0x10;
  return copy;
}

/** A new upload of `bytes` (checksum deferred unless `declare`): its location and stored file. */
async function start(bytes: Uint8Array, declare = false) {
  const { user, vaultId } = await userWithVault(t);
  const { checksum, ...rest } = asMeta(uploadMetadata(vaultId, bytes));
  const created = await tus(t, user.cookie).create(
    declare ? { ...rest, checksum: checksum! } : rest,
    bytes.length,
  );
  expect(created.status).toBe(201);
  const location = created.headers.get('location') ?? '';
  const stored = path.join(t.config.dataDir, 'uploads', location.split('/').pop() ?? '');
  return { user, vaultId, location, stored, fileId: rest.fileId!, checksum: checksum! };
}

const offsetOf = async (cookie: string, location: string) =>
  (await tus(t, cookie).head(location)).headers.get('upload-offset');

describe('tus checksum extension', () => {
  it('advertises checksum and sha256 on OPTIONS', async () => {
    const res = await t.request('/api/uploads', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-extension')?.split(',')).toContain('checksum');
    expect(res.headers.get('tus-checksum-algorithm')).toBe('sha256');
  });

  it('refuses a piece that does not match its Upload-Checksum (460) and keeps nothing of it; sent again it is accepted', async () => {
    const bytes = fakeCiphertext(2 * BLOCK); // two blocks and 584 bytes
    const { user, vaultId, location, stored, fileId, checksum } = await start(bytes);
    const reads = readsOf(stored);
    const up = tus(t, user.cookie);
    // One block declared by Content-Length (its digest is the block's); one without it; one that
    // starts inside a block and spans into the next; the unaligned piece that completes it.
    const pieces: [number, number, Record<string, string>][] = [
      [0, BLOCK, { 'content-length': String(BLOCK) }],
      [BLOCK, BLOCK + 1000, {}],
      [BLOCK + 1000, 2 * BLOCK + 100, {}],
      [2 * BLOCK + 100, bytes.length, { [UPLOAD_FINAL_CHECKSUM_HEADER]: checksum }],
    ];
    for (const [from, to, extra] of pieces) {
      const piece = bytes.subarray(from, to);
      const headers = { ...uploadChecksum(piece), ...extra };
      const refused = await up.patch(location, from, corrupted(piece), headers);
      expect(refused.status, `${from}-${to}`).toBe(460);
      expect(await errorOf(refused)).toEqual(pieceCorrupted);
      expect(await offsetOf(user.cookie, location)).toBe(String(from));
      expect(fs.statSync(stored).size).toBe(from);
      // Even when it was the completing piece: no file, the upload still waits for its bytes.
      expect(await listFiles(t, user, vaultId)).toEqual([]);
      expect(await uploadRows(t, vaultId)).toMatchObject([{ state: 'receiving' }]);

      const accepted = await up.patch(location, from, piece, headers);
      expect(accepted.status, `${from}-${to}`).toBe(204);
      expect(accepted.headers.get('upload-offset')).toBe(String(to));
    }
    // The block hashes were rolled back with each refused piece: the file was never read again.
    expect(reads()).toBe(0);
    expect(await listFiles(t, user, vaultId)).toMatchObject([
      { id: fileId, checksum: contentHash(bytes), checksum_algorithm: 'content-hash-4m' },
    ]);
    expect((await fileContent(t, user, vaultId, fileId)).equals(bytes)).toBe(true);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('completes a multi-block upload sent one checked 4 MiB block per PATCH', async () => {
    const bytes = fakeCiphertext(3 * BLOCK); // three blocks and 840 bytes
    const { user, vaultId, location, stored, fileId, checksum } = await start(bytes);
    const reads = readsOf(stored);
    const tails = vi.spyOn(ContentHasher.prototype, 'tailDigest');
    const up = tus(t, user.cookie);
    for (let from = 0; from < bytes.length; from += BLOCK) {
      const piece = bytes.subarray(from, from + BLOCK);
      const last = from + BLOCK >= bytes.length;
      const headers = {
        ...uploadChecksum(piece),
        'content-length': String(piece.length),
        ...(last ? { [UPLOAD_FINAL_CHECKSUM_HEADER]: checksum } : {}),
      };
      if (last) {
        // The short last block is checked too.
        expect((await up.patch(location, from, corrupted(piece), headers)).status).toBe(460);
      }
      const res = await up.patch(location, from, piece, headers);
      expect(res.status, String(from)).toBe(204);
    }
    // Each PATCH's digest was its block's (hashed once), and the content hash came from memory.
    expect(tails).toHaveBeenCalledTimes(5);
    expect(reads()).toBe(0);
    const [file] = await listFiles(t, user, vaultId);
    expect(file).toMatchObject({ id: fileId, ciphertext_size: bytes.length });
    expect(file?.checksum).toBe(contentHash(bytes));
    expect(file?.checksum_algorithm).toBe('content-hash-4m');
    expect((await fileContent(t, user, vaultId, fileId)).equals(bytes)).toBe(true);
  });

  it('refuses an unsupported algorithm or a malformed Upload-Checksum (400) before storing a byte', async () => {
    const bytes = fakeCiphertext(1000);
    const { user, vaultId, location, stored } = await start(bytes, true);
    const up = tus(t, user.cookie);
    const cases: [string, RegExp][] = [
      ['md5 1B2M2Y8AsgTpgAmY4PhCfg==', /algorithm this server does not support: use sha256/],
      ['sha1 2jmj7l5rSw0yVb/vlWAYkK/YBwk=', /does not support/],
      ['sha256', /must be "sha256 <the base64 SHA-256/],
      ['', /must be/],
      ['sha256 not*base64!', /must be/],
      [`sha256 ${randomBytes(16).toString('base64')}`, /must be/], // too short for a SHA-256
      [`sha256 ${randomBytes(32).toString('hex')}`, /must be/], // hex, not base64
      [`sha256 ${randomBytes(32).toString('base64')} extra`, /must be/],
    ];
    for (const [value, message] of cases) {
      const res = await up.patch(location, 0, bytes, { [UPLOAD_CHECKSUM_HEADER]: value });
      expect(res.status, value).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('bad_request');
      expect(error.message, value).toMatch(message);
    }
    expect(await offsetOf(user.cookie, location)).toBe('0');
    expect(fs.statSync(stored).size).toBe(0);
    // On creation too.
    const post = await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length, {
      [UPLOAD_CHECKSUM_HEADER]: 'md5 1B2M2Y8AsgTpgAmY4PhCfg==',
    });
    expect(post.status).toBe(400);
    expect(await uploadRows(t, vaultId)).toHaveLength(1);
    // The header is optional: without it the same bytes are taken as they come.
    expect((await up.patch(location, 0, bytes)).status).toBe(204);
    expect(await listFiles(t, user, vaultId)).toHaveLength(1);
  });

  it('keeps nothing of a checked PATCH whose body is cut short (all or nothing)', async () => {
    const bytes = fakeCiphertext(3_000_000);
    const { user, vaultId, location, stored, fileId } = await start(bytes, true);
    const up = tus(t, user.cookie);
    let reached = 0;
    // 1.2 MB: more than the store gathers before a write ([Note: body written in batches]).
    const dropping = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, 600_000));
        controller.enqueue(bytes.subarray(600_000, 1_200_000));
        for (let i = 0; i < 200 && reached < 1_200_000; i++) {
          await new Promise((r) => setTimeout(r, 10));
          reached = fs.statSync(stored).size;
        }
        controller.error(new Error('connection reset'));
      },
    });
    const broken = await up.patch(location, 0, dropping, uploadChecksum(bytes)).catch(() => null);
    expect(broken?.status).not.toBe(204);
    expect(reached).toBe(1_200_000); // the bytes had reached the disk, and were taken back
    expect(await offsetOf(user.cookie, location)).toBe('0');
    expect(fs.statSync(stored).size).toBe(0);
    expect((await up.patch(location, 0, bytes, uploadChecksum(bytes))).status).toBe(204);
    expect((await fileContent(t, user, vaultId, fileId)).equals(bytes)).toBe(true);
  });

  it('checks the body of a creation-with-upload POST the same way', async () => {
    const { user, vaultId } = await userWithVault(t);
    const bytes = fakeCiphertext(5000);
    const post = (body: Uint8Array, meta = uploadMetadata(vaultId, bytes)) =>
      t.request('/api/uploads', {
        method: 'POST',
        headers: {
          'tus-resumable': '1.0.0',
          cookie: user.cookie,
          'upload-length': String(bytes.length),
          'upload-metadata': metadataHeader(asMeta(meta)),
          'content-type': 'application/offset+octet-stream',
          ...uploadChecksum(bytes),
        },
        body,
      });
    const refused = await post(corrupted(bytes));
    expect(refused.status).toBe(460);
    expect(await errorOf(refused)).toEqual(pieceCorrupted);
    const meta = uploadMetadata(vaultId, bytes);
    const created = await post(bytes, meta);
    expect(created.status).toBe(201);
    expect(await listFiles(t, user, vaultId)).toMatchObject([
      { id: meta.fileId, checksum: contentHash(bytes) },
    ]);
  });

  it('verifies an upload whose block hashes a restart lost, by reading the stored file', async () => {
    const bytes = fakeCiphertext(2 * BLOCK);
    const good = await start(bytes);
    const bad = await start(bytes);
    const first = bytes.subarray(0, BLOCK);
    for (const { user, location } of [good, bad]) {
      const res = await tus(t, user.cookie).patch(location, 0, first, uploadChecksum(first));
      expect(res.status).toBe(204);
    }
    t.restart();
    const reads = [readsOf(good.stored), readsOf(bad.stored)];
    // A byte that went bad on disk: only a hash of the stored file can see it.
    const fd = fs.openSync(bad.stored, 'r+');
    fs.writeSync(fd, Buffer.from([bytes[10]! ^ 0xff]), 0, 1, 10);
    fs.closeSync(fd);
    for (const { user, location, checksum } of [good, bad]) {
      const up = tus(t, user.cookie);
      const second = bytes.subarray(BLOCK, 2 * BLOCK);
      // Without block hashes to share, a checked PATCH still gets its body checked.
      expect(
        (await up.patch(location, BLOCK, corrupted(second), uploadChecksum(second))).status,
      ).toBe(460);
      expect((await up.patch(location, BLOCK, second, uploadChecksum(second))).status).toBe(204);
      const rest = bytes.subarray(2 * BLOCK);
      const done = await up.patch(location, 2 * BLOCK, rest, {
        ...uploadChecksum(rest),
        [UPLOAD_FINAL_CHECKSUM_HEADER]: checksum,
      });
      if (location === good.location) {
        expect(done.status).toBe(204);
      } else {
        expect(done.status).toBe(460);
        expect((await errorOf(done)).message).toMatch(/does not match its checksum/);
      }
    }
    expect(reads.map((count) => count())).toEqual([1, 1]);
    expect(await listFiles(t, good.user, good.vaultId)).toMatchObject([
      { id: good.fileId, checksum: contentHash(bytes), checksum_algorithm: 'content-hash-4m' },
    ]);
    expect((await fileContent(t, good.user, good.vaultId, good.fileId)).equals(bytes)).toBe(true);
    expect(await listFiles(t, bad.user, bad.vaultId)).toEqual([]);
    expect(await uploadRows(t, bad.vaultId)).toEqual([]);
  });
});
