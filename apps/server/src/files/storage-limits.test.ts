// Issue 15, item 1 (files/storage-guard.ts): the plan's storage quota against declared and
// received bytes, the cap on unfinished uploads, the free-space watermark (507) and deletion that
// still works when the disk is full.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  limitsSchema,
  plansResponseSchema,
  serverStorageFullMessage,
  storageQuotaMessage,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  asMeta,
  errorOf,
  fakeCiphertext,
  filesIn,
  listFiles,
  tus,
  uploadMetadata,
  userWithVault,
} from '../testing/files.ts';
import { MAX_UNFINISHED_UPLOADS } from './storage-guard.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MIN_FREE_MB: '100' });
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const MiB = 1024 * 1024;
/** A Free user (50 MB quota, 2 MB files) whose quota we shrink to `mb` through the plan table. */
async function freeUserWithQuota(mb: number) {
  await t.db.kysely
    .updateTable('subscription_plans')
    .set({ max_storage_mb: mb })
    .where('id', '=', 'free')
    .execute();
  return userWithVault(t, 'free');
}

describe('storage limits', () => {
  it('gives every plan a storage quota, and the limits the quota and the bytes used', async () => {
    const plans = plansResponseSchema.parse(await (await t.request('/api/plans')).json()).plans;
    expect(Object.fromEntries(plans.map((p) => [p.id, p.max_storage_mb]))).toEqual({
      free: 50,
      basic: 10_240,
      pro: 51_200,
      unlimited: -1,
    });
    const { user, vaultId } = await userWithVault(t, 'free');
    const bytes = fakeCiphertext(100_000);
    expect(
      (await tus(t, user.cookie).upload(uploadMetadata(vaultId, bytes), bytes)).patched.status,
    ).toBe(204);
    const res = await t.request('/api/limits', { headers: { cookie: user.cookie } });
    expect(limitsSchema.parse(await res.json())).toMatchObject({
      max_storage_mb: 50,
      storage_used_bytes: bytes.length,
    });
  });

  it('refuses an upload whose declared length, with the unfinished ones, passes the quota (413)', async () => {
    const { user, vaultId } = await freeUserWithQuota(3);
    const up = tus(t, user.cookie);
    const file = fakeCiphertext(MiB + 100_000);
    expect((await up.upload(uploadMetadata(vaultId, file), file)).patched.status).toBe(204);
    const open = fakeCiphertext(MiB);
    expect((await up.create(asMeta(uploadMetadata(vaultId, open)), open.length)).status).toBe(201);
    // 1.1 MB stored + 1 MB declared + 1 MB more > 3 MB.
    const refused = await up.create(asMeta(uploadMetadata(vaultId, open)), open.length);
    expect(refused.status).toBe(413);
    expect(await errorOf(refused)).toEqual({
      code: 'payload_too_large',
      message: storageQuotaMessage(3),
    });
    await freeUserWithQuota(50);
  });

  it('checks the quota again against the bytes received when the record is made', async () => {
    const { user, vaultId } = await freeUserWithQuota(2);
    const up = tus(t, user.cookie);
    const a = fakeCiphertext(MiB);
    const ma = uploadMetadata(vaultId, a);
    const la = (await up.create(asMeta(ma), a.length)).headers.get('location') ?? '';
    // A plan change (or a race) between creation and the last byte: the record is not made.
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ max_storage_mb: 1 })
      .where('id', '=', 'free')
      .execute();
    const done = await up.patch(la, 0, a);
    expect(done.status).toBe(413);
    expect((await errorOf(done)).message).toBe(storageQuotaMessage(1));
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    await freeUserWithQuota(50);
  });

  it(`caps unfinished uploads at ${MAX_UNFINISHED_UPLOADS} per user (429)`, async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(1000);
    const locations: string[] = [];
    for (let i = 0; i < MAX_UNFINISHED_UPLOADS; i++) {
      const res = await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length);
      expect(res.status).toBe(201);
      locations.push(res.headers.get('location') ?? '');
    }
    const refused = await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length);
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toMatch(/unfinished uploads/);
    // Finishing or cancelling one makes room.
    expect((await up.remove(locations[0]!)).status).toBe(204);
    expect((await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length)).status).toBe(
      201,
    );
  });

  it('answers new uploads and PATCHes 507 under the free-space watermark; the rest still works', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const bytes = fakeCiphertext(50_000);
    const location =
      (await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length)).headers.get(
        'location',
      ) ?? '';
    const storage = t.files;
    vi.spyOn(storage, 'freeBytes').mockResolvedValue(99 * MiB);
    for (const res of [
      await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length),
      await up.patch(location, 0, bytes),
    ]) {
      expect(res.status).toBe(507);
      expect(await errorOf(res)).toEqual({
        code: 'storage_full',
        message: serverStorageFullMessage,
      });
    }
    expect((await up.head(location)).headers.get('upload-offset')).toBe('0');
    expect((await t.request('/api/vaults', { headers: { cookie: user.cookie } })).status).toBe(200);
    // A declared length that would take the disk under the watermark is refused too.
    vi.spyOn(storage, 'freeBytes').mockResolvedValue(100 * MiB + 10_000);
    expect((await up.create(asMeta(uploadMetadata(vaultId, bytes)), bytes.length)).status).toBe(
      507,
    );
    vi.restoreAllMocks();
    expect((await up.patch(location, 0, bytes)).status).toBe(204);
  });

  it('deletes a file and a vault on a full disk by freeing their blobs first', async () => {
    const { user, vaultId } = await userWithVault(t);
    const up = tus(t, user.cookie);
    const metas = [];
    for (let i = 0; i < 3; i++) {
      const bytes = fakeCiphertext(20_000);
      const meta = uploadMetadata(vaultId, bytes);
      expect((await up.upload(meta, bytes)).patched.status).toBe(204);
      metas.push(meta);
    }
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const realTransaction = t.db.kysely.transaction.bind(t.db.kysely);
    let failures = 1;
    vi.spyOn(t.db.kysely, 'transaction').mockImplementation(() => {
      if (failures-- > 0) return { execute: () => Promise.reject(full) } as never;
      return realTransaction();
    });
    const blobsBefore = filesIn(t, 'blobs').length;
    const del = (path: string) =>
      t.request(path, { method: 'DELETE', headers: { cookie: user.cookie } });
    expect((await del(`/api/vaults/${vaultId}/files/${metas[0]!.fileId}`)).status).toBe(204);
    expect(filesIn(t, 'blobs')).toHaveLength(blobsBefore - 1);
    expect(await listFiles(t, user, vaultId)).toHaveLength(2);

    // Still full after the blobs are freed: a clear 507, never a raw 500.
    failures = 2;
    const refused = await del(`/api/vaults/${vaultId}/files/${metas[1]!.fileId}`);
    expect(refused.status).toBe(507);
    const body = await errorOf(refused);
    expect(body.code).toBe('storage_full');
    expect(body.message).toMatch(/out of storage space/);

    failures = 1;
    expect((await del(`/api/vaults/${vaultId}`)).status).toBe(204);
    expect(filesIn(t, 'blobs')).toHaveLength(blobsBefore - 3);
    expect(
      (await t.request(`/api/vaults/${vaultId}/files`, { headers: { cookie: user.cookie } }))
        .status,
    ).toBe(404);
  });
});
