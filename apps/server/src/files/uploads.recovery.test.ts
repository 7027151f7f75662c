// [Note: recoverable finish] in uploads.finish.ts: the process stops (kill -9) at each point of an
// upload's last step, and a new app on the same database and data dir (t.restart()) completes the
// upload on the client's retry (HEAD, PATCH) or in the sweep, or fails it cleanly; never 409 forever.
// A stop is simulated by a step that never returns: nothing after it runs, as after kill -9.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { UPLOAD_FINAL_CHECKSUM_HEADER } from '@sealvault/protocol';
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
  uploadMetadata,
  uploadRows,
  userWithVault,
} from '../testing/files.ts';
import type { TestUser } from '../testing/users.ts';
import type { BlobKey } from '../blobs/blob-store.ts';
import { FINISH_LEASE_MS } from './uploads.finish.ts';
import { sweepFiles } from './uploads.sweep.ts';
import { UploadStore } from './uploads.store.ts';
import type { TusUploadStore } from './uploads.ts';

/** These tests reach into the uploads directory: the filesystem tus store's. */
function fsStore(uploads: TusUploadStore): UploadStore {
  if (!(uploads instanceof UploadStore)) throw new Error('not the filesystem tus store');
  return uploads;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const never = () => new Promise<never>(() => undefined);
const HEX32 = /^[0-9a-f]{32}$/;

interface Started {
  user: TestUser;
  vaultId: string;
  fileId: string;
  bytes: Buffer;
  location: string;
  id: string;
}

/** An upload with every byte but the last 1,000 sent; `deferred` leaves the checksum to the end. */
async function started(deferred = false): Promise<Started> {
  const { user, vaultId } = await userWithVault(t);
  const bytes = fakeCiphertext(200_000);
  const meta = uploadMetadata(vaultId, bytes);
  const header = asMeta(meta);
  if (deferred) delete header.checksum;
  const created = await tus(t, user.cookie).create(header, bytes.length);
  const location = created.headers.get('location') ?? '';
  const first = await tus(t, user.cookie).patch(location, 0, bytes.subarray(0, -1000));
  expect(first.status).toBe(204);
  return { user, vaultId, fileId: meta.fileId, bytes, location, id: location.split('/').pop()! };
}

/** Sends the last PATCH and waits until the process "stops" in `step`. */
async function lastPatchStopsIn(s: Started, step: Promise<unknown>, deferred = false) {
  const headers: Record<string, string> = deferred
    ? { [UPLOAD_FINAL_CHECKSUM_HEADER]: contentHash(s.bytes) }
    : {};
  void tus(t, s.user.cookie).patch(
    s.location,
    s.bytes.length - 1000,
    s.bytes.subarray(-1000),
    headers,
  );
  await step;
  t.restart();
}

/** Makes `method` of `target` stop the process: calls `before` (the real step, or nothing), then never returns. */
function stopIn<T extends object>(
  target: T,
  method: keyof T,
  before?: (...args: never[]) => unknown,
) {
  let reached!: () => void;
  const step = new Promise<void>((resolve) => (reached = resolve));
  vi.spyOn(target, method as never).mockImplementationOnce((async (...args: never[]) => {
    await before?.(...args);
    reached();
    return never();
  }) as never);
  return step;
}

async function expectFile(s: Started) {
  expect(await listFiles(t, s.user, s.vaultId)).toMatchObject([
    { id: s.fileId, ciphertext_size: s.bytes.length, checksum: contentHash(s.bytes) },
  ]);
  expect((await fileContent(t, s.user, s.vaultId, s.fileId)).equals(s.bytes)).toBe(true);
  expect(await uploadRows(t, s.vaultId)).toEqual([]);
  expect(tusFiles(t, s.location)).toEqual([]);
}

const row = (id: string) =>
  t.db.kysely.selectFrom('file_uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('an upload whose last step a crash interrupted', () => {
  it('is finished by the retried HEAD after a stop right after the claim', async () => {
    const s = await started();
    const { blobs } = t.files;
    await lastPatchStopsIn(s, stopIn(blobs, 'adopt'));
    // The key was named before the move, which never happened: nothing is under it yet.
    const named = await row(s.id);
    expect(named.state).toBe('finishing');
    expect(named.blob_key).toMatch(HEX32);
    expect(await blobs.stat(named.blob_key as BlobKey)).toBeNull();

    const head = await tus(t, s.user.cookie).head(s.location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(s.bytes.length));
    await expectFile(s);
    // Its last PATCH, sent again, is told that it is complete.
    const again = await tus(t, s.user.cookie).patch(s.location, s.bytes.length, new Uint8Array());
    expect(again.status).toBe(204);
    expect(again.headers.get('upload-offset')).toBe(String(s.bytes.length));
  });

  it('is finished by a retried PATCH, and by the sweep, with a deferred checksum', async () => {
    const byPatch = await started(true);
    await lastPatchStopsIn(byPatch, stopIn(t.files.blobs, 'adopt'), true);
    const again = await tus(t, byPatch.user.cookie).patch(
      byPatch.location,
      byPatch.bytes.length,
      new Uint8Array(),
    );
    expect(again.status).toBe(204);
    await expectFile(byPatch);

    const bySweep = await started(true);
    await lastPatchStopsIn(bySweep, stopIn(t.files.blobs, 'adopt'), true);
    const swept = await sweepFiles(filesDeps(t));
    expect(swept).toMatchObject({ finishedUploads: 1, failedUploads: 0 });
    await expectFile(bySweep);
  });

  it('is finished after a stop right after the move, its blob under the named key (no orphan)', async () => {
    const blobsBefore = filesIn(t, 'blobs');
    const adopt = t.files.blobs.adopt.bind(t.files.blobs);
    const byHead = await started();
    await lastPatchStopsIn(byHead, stopIn(t.files.blobs, 'adopt', adopt));
    const bySweep = await started(true);
    await lastPatchStopsIn(bySweep, stopIn(t.files.blobs, 'adopt', adopt), true);
    for (const s of [byHead, bySweep]) {
      // What the stopped process left: the bytes moved under the key the row names.
      const left = await row(s.id);
      expect(left).toMatchObject({ state: 'finishing' });
      expect(await t.files.blobs.stat(left.blob_key as BlobKey)).toEqual({ size: s.bytes.length });
      expect(fs.existsSync(fsStore(t.files.uploads).dataPath(s.id))).toBe(false);
    }

    const head = await tus(t, byHead.user.cookie).head(byHead.location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(byHead.bytes.length));
    expect(await sweepFiles(filesDeps(t))).toMatchObject({ finishedUploads: 1, failedUploads: 0 });
    await expectFile(byHead);
    await expectFile(bySweep);
    // Every new blob is a record's.
    const records = await t.db.kysely
      .selectFrom('vault_files')
      .select('blob_key')
      .where('id', 'in', [byHead.fileId, bySweep.fileId])
      .execute();
    const added = filesIn(t, 'blobs').filter((f) => !blobsBefore.includes(f));
    expect(added.map((f) => path.basename(f)).sort()).toEqual(
      records.map((r) => r.blob_key).sort(),
    );
  });

  it('is finished after a stop once its bytes were moved and named (the record missing)', async () => {
    const s = await started();
    const { blobs, uploads } = t.files;
    await fs.promises.appendFile(fsStore(uploads).dataPath(s.id), s.bytes.subarray(-1000));
    // What the stopped process left: the claim, the blob and its key, its queued deletion.
    const stored = await blobs.adopt(fsStore(uploads).dataPath(s.id));
    await t.db.kysely
      .updateTable('file_uploads')
      .set({
        state: 'finishing',
        claim_id: 'stopped.1',
        claimed_at: t.clock.now.toISOString(),
        blob_key: stored.key,
      })
      .where('id', '=', s.id)
      .execute();
    const inAnHour = new Date(t.clock.now.getTime() + 3_600_000).toISOString();
    await t.db.kysely
      .insertInto('blob_deletions')
      .values({ blob_key: stored.key, delete_after: inAnHour })
      .execute();
    t.restart();

    // Even past the queued deletion's time, the sweep keeps the blob and finishes the upload.
    t.clock.now = new Date(t.clock.now.getTime() + 2 * 3_600_000);
    expect(await sweepFiles(filesDeps(t))).toMatchObject({ finishedUploads: 1, blobsDeleted: 0 });
    await expectFile(s);
    expect(await t.db.kysely.selectFrom('blob_deletions').selectAll().execute()).toEqual([]);
  });

  it('answers complete after a stop between the record and the clean-up; the sweep tidies up', async () => {
    const s = await started();
    await lastPatchStopsIn(s, stopIn(t.files.uploads, 'discard'));
    expect(await row(s.id)).toMatchObject({ state: 'done' });
    expect(tusFiles(t, s.location)).not.toEqual([]);

    const head = await tus(t, s.user.cookie).head(s.location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(s.bytes.length));
    expect(await listFiles(t, s.user, s.vaultId)).toHaveLength(1);
    t.clock.now = new Date(t.clock.now.getTime() + 25 * 3_600_000);
    await sweepFiles(filesDeps(t));
    expect(tusFiles(t, s.location)).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('file_uploads').where('id', '=', s.id).selectAll().execute(),
    ).toEqual([]);
    expect((await fileContent(t, s.user, s.vaultId, s.fileId)).equals(s.bytes)).toBe(true);
  });

  it('is finished when the process stopped after the last byte, before the claim', async () => {
    const s = await started();
    // The last bytes reached the disk; the hook that finishes never ran.
    await fs.promises.appendFile(fsStore(t.files.uploads).dataPath(s.id), s.bytes.subarray(-1000));
    t.restart();
    const head = await tus(t, s.user.cookie).head(s.location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(s.bytes.length));
    await expectFile(s);
  });

  it('fails cleanly when the bytes are neither in the tus store nor under the named key, or do not match', async () => {
    const movedAway = await started();
    await lastPatchStopsIn(
      movedAway,
      stopIn(t.files.blobs, 'adopt', (file: string) =>
        fs.promises.rename(file, `${file}.elsewhere`),
      ),
    );
    const head = await tus(t, movedAway.user.cookie).head(movedAway.location);
    expect(head.status).toBe(410);
    const patch = await tus(t, movedAway.user.cookie).patch(
      movedAway.location,
      0,
      new Uint8Array(),
    );
    expect(patch.status).toBe(404);

    const corrupt = await started();
    const blobsBefore = filesIn(t, 'blobs');
    await lastPatchStopsIn(corrupt, stopIn(t.files.blobs, 'adopt'));
    const data = fsStore(t.files.uploads).dataPath(corrupt.id);
    const fd = fs.openSync(data, 'r+');
    fs.writeSync(fd, Buffer.from([corrupt.bytes[5]! ^ 0xff]), 0, 1, 5);
    fs.closeSync(fd);
    const refused = await tus(t, corrupt.user.cookie).patch(
      corrupt.location,
      corrupt.bytes.length,
      new Uint8Array(),
    );
    expect(refused.status).toBe(460);
    expect((await errorOf(refused)).message).toMatch(/does not match its checksum/);
    for (const s of [movedAway, corrupt]) {
      expect(await listFiles(t, s.user, s.vaultId)).toEqual([]);
      expect(await uploadRows(t, s.vaultId)).toEqual([]);
      expect(tusFiles(t, s.location).filter((f) => !f.endsWith('.elsewhere'))).toEqual([]);
    }
    expect(filesIn(t, 'blobs')).toEqual(blobsBefore);
  });

  it('leaves a claim that a request of this process holds, and takes over one past the lease', async () => {
    const s = await started();
    const storage = t.files;
    await fs.promises.appendFile(fsStore(storage.uploads).dataPath(s.id), s.bytes.subarray(-1000));
    const claimedAt = t.clock.now.toISOString();
    await t.db.kysely
      .updateTable('file_uploads')
      .set({ state: 'finishing', claim_id: `${storage.instance}.1`, claimed_at: claimedAt })
      .where('id', '=', s.id)
      .execute();
    storage.finishing.add(s.id);
    const up = tus(t, s.user.cookie);
    const busy = await up.patch(s.location, s.bytes.length, new Uint8Array());
    expect(busy.status).toBe(423);
    expect((await errorOf(busy)).message).toBe('This upload is being completed.');
    storage.finishing.delete(s.id); // the request that held it went away without a word
    expect((await up.head(s.location)).status).toBe(423); // still within the lease
    t.clock.now = new Date(t.clock.now.getTime() + FINISH_LEASE_MS + 1000);
    expect((await up.head(s.location)).status).toBe(200);
    await expectFile(s);
  });
});
