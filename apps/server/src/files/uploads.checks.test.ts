import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ciphertextLength } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  asMeta,
  createFilesVault,
  errorOf,
  fakeCiphertext,
  filesDeps,
  filesIn,
  listFiles,
  tus,
  tusFiles,
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';
import type { BlobKey } from '../blobs/blob-store.ts';
import { sweepFiles } from './uploads.sweep.ts';
import { queueBlobDeletions } from './blob-deletions.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('tus uploads: refusals, ownership, expiry', () => {
  it('refuses Upload-Defer-Length: the size must be declared', async () => {
    const { user, vaultId } = await userWithVault(t);
    const res = await tus(t, user.cookie).create(
      asMeta(uploadMetadata(vaultId, Buffer.alloc(0))),
      null,
      {
        'upload-defer-length': '1',
      },
    );
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/Upload-Defer-Length/);
  });

  it('answers bad metadata or length with a 4xx naming the problem, never a 500', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const good = asMeta(uploadMetadata(vaultId, Buffer.alloc(0)));
    const len = ciphertextLength(10);
    const cases: [Record<string, string> | null, number | null, RegExp][] = [
      [null, len, /Upload-Metadata is required/],
      [{ ...good, checksum: 'xyz' }, len, /checksum/],
      [{ ...good, fileId: 'not-a-uuid' }, len, /fileId/],
      [{ ...good, vaultId: '../etc' }, len, /vaultId/],
      [{ ...good, filename: 'secret-name.pdf' }, len, /filename/],
      [{ ...good, encMeta: 'A'.repeat(6000) }, len, /encMeta/],
      [{ ...good, wrappedKey: 'A'.repeat(400) }, len, /wrappedKey/],
      [{ ...good, lookup: 'Z'.repeat(64) }, len, /lookup/],
      [good, null, /Upload-Length/],
      [good, 50, /vf1/],
      [good, ciphertextLength(2 ** 18) + 10, /vf1/],
    ];
    for (const [meta, length, message] of cases) {
      const res = await up.create(meta, length);
      expect(res.status, String(message)).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
    const garbled = await t.request('/api/uploads', {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: user.cookie,
        'upload-length': String(len),
        'upload-metadata': 'a b c,,',
      },
    });
    expect(garbled.status).toBe(400);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('keeps names unique per vault by look-up: at creation and again at finish', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const a = fakeCiphertext(100);
    const metaA = uploadMetadata(vaultId, a);
    expect((await up.upload(metaA, a)).patched.status).toBe(204);
    const dup = await up.create(
      asMeta(uploadMetadata(vaultId, a, { lookup: metaA.lookup })),
      a.length,
    );
    expect(dup.status).toBe(409);

    // Two uploads with one new name both start; the second to finish loses.
    const lookup = 'c'.repeat(64);
    const b = fakeCiphertext(200);
    const c = fakeCiphertext(300);
    const metaB = uploadMetadata(vaultId, b, { lookup });
    const metaC = uploadMetadata(vaultId, c, { lookup });
    const locB = (await up.create(asMeta(metaB), b.length)).headers.get('location') ?? '';
    const locC = (await up.create(asMeta(metaC), c.length)).headers.get('location') ?? '';
    const blobsBefore = filesIn(t, 'blobs').length;
    expect((await up.patch(locB, 0, b)).status).toBe(204);
    const lost = await up.patch(locC, 0, c);
    expect(lost.status).toBe(409);
    expect((await listFiles(t, user, vaultId)).map((f) => f.id).sort()).toEqual(
      [metaA.fileId, metaB.fileId].sort(),
    );
    expect(filesIn(t, 'blobs').length).toBe(blobsBefore + 1);
    expect([...tusFiles(t, locB), ...tusFiles(t, locC)]).toEqual([]);
    expect(await uploadRows(t, vaultId)).toEqual([]);
  });

  it('accepts files only into the user’s own files vault stored on this server', async () => {
    const { user } = await userWithVault(t);
    const other = await userWithVault(t);
    const up = tus(t, user.cookie);
    const len = ciphertextLength(10);
    const theirs = await up.create(asMeta(uploadMetadata(other.vaultId, Buffer.alloc(0))), len);
    expect(theirs.status).toBe(404);
    expect((await errorOf(theirs)).message).toBe('Vault not found');
    const secrets = await createFilesVault(t, user.id, { vault_type: 'secrets' });
    expect((await up.create(asMeta(uploadMetadata(secrets, Buffer.alloc(0))), len)).status).toBe(
      400,
    );
    const drive = await createFilesVault(t, user.id, { provider_type: 'googledrive' });
    expect((await up.create(asMeta(uploadMetadata(drive, Buffer.alloc(0))), len)).status).toBe(400);
  });

  it('lets only the creator HEAD, PATCH or cancel an upload', async () => {
    const { user, vaultId } = await userWithVault(t);
    const intruder = await userWithVault(t);
    const bytes = fakeCiphertext(1000);
    const meta = uploadMetadata(vaultId, bytes);
    const location =
      (await tus(t, user.cookie).create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    const them = tus(t, intruder.user.cookie);
    expect((await them.head(location)).status).toBe(404);
    expect((await them.patch(location, 0, bytes)).status).toBe(404);
    expect((await them.remove(location)).status).toBe(404);
    const anonymous = await t.request(location, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: bytes,
    });
    expect(anonymous.status).toBe(401);
    expect((await tus(t, user.cookie).head(location)).headers.get('upload-offset')).toBe('0');
    expect((await tus(t, user.cookie).patch(location, 0, bytes)).status).toBe(204);
    expect(await listFiles(t, user, vaultId)).toHaveLength(1);
  });

  it('expires abandoned uploads and sweeps them, leaving no orphan blob or record', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(50_000);
    const meta = uploadMetadata(vaultId, bytes);
    const location = (await up.create(asMeta(meta), bytes.length)).headers.get('location') ?? '';
    expect((await up.patch(location, 0, bytes.subarray(0, 20_000))).status).toBe(204);
    const blobs = filesIn(t, 'blobs');

    await sweepFiles(filesDeps(t));
    expect(await uploadRows(t, vaultId)).toHaveLength(1);
    t.clock.now = new Date(t.clock.now.getTime() + 25 * 3_600_000);
    expect((await up.patch(location, 20_000, bytes.subarray(20_000))).status).toBe(410);
    const swept = await sweepFiles(filesDeps(t));
    expect(swept.expiredUploads).toBeGreaterThanOrEqual(1);
    expect(tusFiles(t, location)).toEqual([]);
    expect(await uploadRows(t, vaultId)).toEqual([]);
    expect(filesIn(t, 'blobs')).toEqual(blobs);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect((await up.head(location)).status).toBe(404);
  });

  it('sweeps stray tus files and due blob deletions, but never a blob a record names', async () => {
    const { user, vaultId } = await userWithVault(t);
    const bytes = fakeCiphertext(1000);
    const meta = uploadMetadata(vaultId, bytes);
    expect((await tus(t, user.cookie).upload(meta, bytes)).patched.status).toBe(204);
    const db = t.db.kysely;
    const row = await db
      .selectFrom('vault_files')
      .select('blob_key')
      .where('id', '=', meta.fileId)
      .executeTakeFirstOrThrow();
    const { blobs } = t.files;
    const stray = await blobs.put([Buffer.from('orphan')]);
    const now = t.clock.now.toISOString();
    await queueBlobDeletions(db, [row.blob_key, stray.key], now);
    const id = 'f'.repeat(32);
    const strayFiles = [
      path.join(t.config.dataDir, 'uploads', id),
      path.join(t.config.dataDir, 'uploads', `${id}.json`),
    ];
    for (const f of strayFiles) {
      fs.writeFileSync(f, 'x');
      fs.utimesSync(f, new Date(0), new Date(0));
    }

    const swept = await sweepFiles(filesDeps(t));
    expect(swept.strayUploads).toBe(1);
    expect(swept.blobsDeleted).toBe(1);
    expect(await blobs.stat(stray.key)).toBeNull();
    expect(await blobs.stat(row.blob_key as BlobKey)).toEqual({ size: bytes.length });
    expect(strayFiles.filter((f) => fs.existsSync(f))).toEqual([]);
    expect(await db.selectFrom('blob_deletions').selectAll().execute()).toEqual([]);
  });
});
