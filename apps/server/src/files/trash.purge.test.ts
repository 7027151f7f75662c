// The trash purge (files/trash.purge.ts, [Note: trash] in the protocol's files.ts): the data of
// records trashed TRASH_DAYS days ago goes (a blob of ours is deleted, a provider's record only
// marked), no record is deleted, and a purged blob of ours no longer counts as storage used. A
// vault holding a purged record does not move until the browser has deleted it.
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  limitsSchema,
  messages,
  TRASH_DAYS,
  type Manifest,
} from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { sharedLocks } from '../db/locks.ts';
import { startPeriodicJob } from '../jobs/periodic.ts';
import { createLogger } from '../logger.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import {
  createFilesVault,
  fakeCiphertext,
  filesDeps,
  setPlan,
  tus,
  uploadMetadata,
} from '../testing/files.ts';
import { send } from '../testing/vaults.ts';
import { testManifest } from '../vaults/manifest.testkit.ts';
import { getVault } from '../vaults/vaults.service.ts';
import { purgeTrash, trashPurgeJob } from './trash.purge.ts';
import { sweepFiles } from './uploads.sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
// One database for the file: what earlier tests left in the trash is purged first, so that each
// pass below counts only its own test's records.
beforeEach(async () => {
  await purgeTrash(filesDeps(t), new Date('2200-01-01T00:00:00.000Z'), { maxBatches: 1000 });
});

const DAY = 24 * 3_600_000;
const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();

async function member(): Promise<TestUser> {
  const user = await createUser(t);
  await setPlan(t, user.id, 'unlimited');
  return user;
}

/** Uploads a file of `plain` bytes to the user's vault on this server; its id and length. */
async function upload(user: TestUser, vaultId: string, plain = 1000) {
  const bytes = fakeCiphertext(plain);
  const meta = uploadMetadata(vaultId, bytes);
  expect((await tus(t, user.cookie).upload(meta, bytes)).patched.status).toBe(204);
  return { id: meta.fileId, size: bytes.length };
}

/** A record a vault's provider holds (the server never had its bytes). */
async function providerRecord(user: TestUser, vaultId: string, size = 1088) {
  const id = randomUUID();
  const now = t.clock.now.toISOString();
  await t.db.kysely
    .insertInto('vault_files')
    .values({
      id,
      vault_id: vaultId,
      user_id: user.id,
      enc_meta: randomBytes(140).toString('base64'),
      name_lookup: randomBytes(32).toString('hex'),
      wrapped_key: randomBytes(60).toString('base64'),
      ciphertext_size: size,
      checksum: randomBytes(32).toString('hex'),
      checksum_algorithm: 'content-hash-4m',
      blob_key: '',
      storage_ref: `id:${id}`,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, size };
}

const setTrashedAt = (id: string, at: string | null) =>
  t.db.kysely.updateTable('vault_files').set({ trashed_at: at }).where('id', '=', id).execute();
const row = (id: string) =>
  t.db.kysely.selectFrom('vault_files').selectAll().where('id', '=', id).executeTakeFirst();
const blobOf = async (id: string) => (await row(id))!.blob_key as BlobKey;
const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

describe('the trash purge', () => {
  it('deletes the blob of a record of ours trashed 31 days ago and marks it; 29 days is kept', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id);
    const old = await upload(user, vaultId);
    const recent = await upload(user, vaultId);
    const untouched = await upload(user, vaultId);
    const now = new Date(Date.now() + 40 * DAY);
    await setTrashedAt(old.id, daysAgo(now, TRASH_DAYS + 1));
    await setTrashedAt(recent.id, daysAgo(now, TRASH_DAYS - 1));
    const oldBlob = await blobOf(old.id);
    const before = { recent: await row(recent.id), untouched: await row(untouched.id) };

    const result = await purgeTrash(filesDeps(t), now);
    expect(result).toEqual({ purged: 1, marked: 0, blobsDeleted: 1 });
    expect(await t.files.blobs.stat(oldBlob)).toBeNull();
    // The record stays for the browser to delete, with when its data went.
    expect(await row(old.id)).toMatchObject({
      purged_at: now.toISOString(),
      trashed_at: daysAgo(now, TRASH_DAYS + 1),
    });
    expect(await row(recent.id)).toEqual(before.recent);
    expect(await row(untouched.id)).toEqual(before.untouched);
    expect(await t.files.blobs.stat(await blobOf(recent.id))).toEqual({ size: recent.size });
    // Nothing is left queued, and a second pass finds nothing to do.
    expect(await t.db.kysely.selectFrom('blob_deletions').selectAll().execute()).toEqual([]);
    expect(await purgeTrash(filesDeps(t), now)).toEqual({ purged: 0, marked: 0, blobsDeleted: 0 });
  });

  it("only marks a record a cloud vault's provider holds", async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id, { provider_type: 'dropbox' });
    const held = await providerRecord(user, vaultId);
    const now = new Date(Date.now() + 40 * DAY);
    await setTrashedAt(held.id, daysAgo(now, TRASH_DAYS + 1));
    const blobs = async () => {
      const keys: string[] = [];
      for await (const b of t.files.blobs.list()) keys.push(b.key);
      return keys.sort();
    };
    const blobsBefore = await blobs();
    const before = await row(held.id);
    expect(await purgeTrash(filesDeps(t), now)).toEqual({ purged: 0, marked: 1, blobsDeleted: 0 });
    expect(await row(held.id)).toEqual({ ...before, purged_at: now.toISOString() });
    expect(await blobs()).toEqual(blobsBefore);
  });

  it('purges a record whose blob is already gone, and one a sweep finishes when a deletion failed', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id);
    const gone = await upload(user, vaultId);
    const failing = await upload(user, vaultId);
    await t.files.blobs.delete(await blobOf(gone.id));
    const now = new Date(Date.now() + 40 * DAY);
    await setTrashedAt(gone.id, daysAgo(now, TRASH_DAYS + 2));
    await setTrashedAt(failing.id, daysAgo(now, TRASH_DAYS + 1));
    const failingBlob = await blobOf(failing.id);
    // The store refuses one deletion: the blob stays queued, the record is purged all the same.
    const realDelete = t.files.blobs.delete.bind(t.files.blobs);
    t.files.blobs.delete = (key) =>
      key === failingBlob ? Promise.reject(new Error('store down')) : realDelete(key);
    try {
      expect(await purgeTrash(filesDeps(t), now)).toEqual({
        purged: 2,
        marked: 0,
        blobsDeleted: 1,
      });
    } finally {
      t.files.blobs.delete = realDelete;
    }
    expect((await row(gone.id))?.purged_at).toBe(now.toISOString());
    expect((await row(failing.id))?.purged_at).toBe(now.toISOString());
    expect(await t.files.blobs.stat(failingBlob)).not.toBeNull();
    // The sweep deletes it: a purged record no longer holds its blob.
    t.clock.now = now;
    try {
      expect((await sweepFiles(filesDeps(t))).blobsDeleted).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.now = new Date();
    }
    expect(await t.files.blobs.stat(failingBlob)).toBeNull();
  });

  it('takes records in batches, and never one taken out of the trash', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id, { provider_type: 'local' });
    const now = new Date(Date.now() + 80 * DAY);
    const records = [];
    for (let i = 0; i < 5; i++) {
      const r = await providerRecord(user, vaultId);
      await setTrashedAt(r.id, daysAgo(now, TRASH_DAYS + 1 + i));
      records.push(r);
    }
    const back = await providerRecord(user, vaultId);
    await setTrashedAt(back.id, null); // trashed long ago, then taken out
    expect(await purgeTrash(filesDeps(t), now, { batch: 2, maxBatches: 1 })).toMatchObject({
      marked: 2,
    });
    expect(await purgeTrash(filesDeps(t), now, { batch: 2 })).toMatchObject({ marked: 3 });
    for (const r of records) expect((await row(r.id))?.purged_at).toBe(now.toISOString());
    expect((await row(back.id))?.purged_at).toBeNull();
  });

  it('logs each pass as counts only, never an id', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id);
    const file = await upload(user, vaultId);
    const now = new Date(Date.now() + 120 * DAY);
    await setTrashedAt(file.id, daysAgo(now, TRASH_DAYS + 1));
    let logged = '';
    const logger = createLogger(
      'debug',
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          logged += chunk.toString('utf8');
          cb();
        },
      }),
    );
    const locks = sharedLocks(t.db);
    const deps = { ...filesDeps(t), logger, now: () => now };
    const job = startPeriodicJob(trashPurgeJob(deps, 3_600_000), { logger, locks });
    try {
      await job.runNow();
    } finally {
      job.stop();
      await locks.close();
    }
    expect((await row(file.id))?.purged_at).toBe(now.toISOString());
    expect(logged).toContain('"job":"trash purge"');
    expect(logged).toContain('"purged":1');
    for (const secret of [file.id, user.id, vaultId, await blobOf(file.id)])
      expect(logged).not.toContain(secret);
  });
});

describe('storage used', () => {
  it('counts trashed files and leaves out purged ones of this server', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id);
    const trashed = await upload(user, vaultId, 1000);
    const purged = await upload(user, vaultId, 3000);
    const kept = await upload(user, vaultId, 5000);
    const cloud = await createFilesVault(t, user.id, { provider_type: 'dropbox' });
    const held = await providerRecord(user, cloud, 7000);
    const limits = async () =>
      limitsSchema.parse(await (await send(t, user.cookie, 'GET', '/api/limits')).json())
        .storage_used_bytes;
    const deps = { ...filesDeps(t), auth: undefined as never };
    const all = trashed.size + purged.size + kept.size;
    expect(await limits()).toBe(all);

    const now = new Date(Date.now() + 40 * DAY);
    await setTrashedAt(trashed.id, daysAgo(now, 1));
    await setTrashedAt(purged.id, daysAgo(now, TRASH_DAYS + 1));
    await setTrashedAt(held.id, daysAgo(now, TRASH_DAYS + 1));
    expect(await limits()).toBe(all); // trashed files count until they are purged
    expect(await purgeTrash(filesDeps(t), now)).toMatchObject({ purged: 1, marked: 1 });

    expect(await limits()).toBe(trashed.size + kept.size);
    expect(await getVault(deps, user.id, vaultId)).toMatchObject({
      file_count: 2,
      total_size: trashed.size + kept.size,
    });
    // A provider's record counts in its vault until the browser deletes it (its bytes are there).
    expect(await getVault(deps, user.id, cloud)).toMatchObject({
      file_count: 1,
      total_size: held.size,
    });
  });
});

describe('a move of a vault holding a purged record', () => {
  it('is refused with 409 at the start and at the switch until the browser deletes the record', async () => {
    const user = await member();
    const vaultId = await createFilesVault(t, user.id);
    const file = await upload(user, vaultId);
    const other = await upload(user, vaultId);
    const manifest = (version: number, provider: 'server' | 'local'): Manifest =>
      testManifest(version, {
        vault: {
          name: 'v',
          description: '',
          vault_type: 'files',
          provider_type: provider,
          storage_folder: '',
        },
      });
    const put = await send(t, user.cookie, 'PUT', `/api/vaults/${vaultId}/manifest`, {
      expected_version: 0,
      manifest: manifest(1, 'server'),
    });
    expect(put.status).toBe(200);
    const move = `/api/vaults/${vaultId}/move`;
    const start = () =>
      send(t, user.cookie, 'PUT', move, {
        target_provider: 'local',
        target_folder: null,
        delete_source: true,
      });
    expect((await start()).status).toBe(200);
    const items = await Promise.all(
      [file, other].map(async (f) => ({
        id: f.id,
        kind: 'file',
        ref: `local/${f.id}`,
        checksum: (await row(f.id))!.checksum,
        size: f.size,
      })),
    );
    expect((await send(t, user.cookie, 'POST', `${move}/items`, { items })).status).toBe(200);

    // The purge takes one of them while the move runs.
    const now = new Date(Date.now() + 40 * DAY);
    await setTrashedAt(file.id, daysAgo(now, TRASH_DAYS + 1));
    expect(await purgeTrash(filesDeps(t), now)).toMatchObject({ purged: 1 });
    const refused = { code: 'conflict', message: messages.moves.purgedFiles };
    const sw = await send(t, user.cookie, 'POST', `${move}/switch`, {
      expected_version: 1,
      manifest: manifest(2, 'local'),
    });
    expect(sw.status).toBe(409);
    expect(await errorOf(sw)).toEqual(refused);
    const vault = await t.db.kysely
      .selectFrom('vaults')
      .select('provider_type')
      .where('id', '=', vaultId)
      .executeTakeFirstOrThrow();
    expect(vault.provider_type).toBe('server');
    const restarted = await start();
    expect(restarted.status).toBe(409);
    expect(await errorOf(restarted)).toEqual(refused);

    // Once the browser has deleted the record, the move goes on.
    const deletion = await send(
      t,
      user.cookie,
      'DELETE',
      `/api/vaults/${vaultId}/files/${file.id}`,
    );
    expect(deletion.status).toBe(204);
    expect((await start()).status).toBe(200);
    const done = await send(t, user.cookie, 'POST', `${move}/switch`, {
      expected_version: 1,
      manifest: manifest(2, 'local'),
    });
    expect(done.status, await done.clone().text()).toBe(200);
  });
});
