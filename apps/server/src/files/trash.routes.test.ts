// POST /api/vaults/:vaultId/files/trash ([Note: trash] in the protocol's files.ts): only the
// owner's files, all or none, only `trashed_at` changes; a purged record cannot leave the trash,
// its content is gone (410) and its record can still be deleted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  filesResponseSchema,
  messages,
  purgedFileMessage,
  TRASH_MAX_IDS,
  trialMessages,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import {
  createFilesVault,
  fakeCiphertext,
  listFiles,
  setPlan,
  tus,
  uploadMetadata,
} from '../testing/files.ts';
import type { BlobKey } from '../blobs/blob-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const trashUrl = (vaultId: string) => `/api/vaults/${vaultId}/files/trash`;
const post = (user: TestUser, path: string, body: unknown) =>
  t.request(path, {
    method: 'POST',
    headers: { cookie: user.cookie, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

/** A user on Unlimited with a files vault on this server holding `n` uploaded files. */
async function vaultWithFiles(n = 2) {
  const user = await createUser(t);
  await setPlan(t, user.id, 'unlimited');
  const vaultId = await createFilesVault(t, user.id);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const bytes = fakeCiphertext(1000 + i);
    const meta = uploadMetadata(vaultId, bytes);
    expect((await tus(t, user.cookie).upload(meta, bytes)).patched.status).toBe(204);
    ids.push(meta.fileId);
  }
  return { user, vaultId, ids };
}

const rowsOf = (vaultId: string) =>
  t.db.kysely
    .selectFrom('vault_files')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .orderBy('id')
    .execute();

const markPurged = (fileId: string, at = t.clock.now.toISOString()) =>
  t.db.kysely
    .updateTable('vault_files')
    .set({ trashed_at: at, purged_at: at })
    .where('id', '=', fileId)
    .execute();

describe('the trash route', () => {
  it('moves records into the trash and out of it, changing nothing else of them', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(2);
    const [first, second] = ids as [string, string];
    const before = await rowsOf(vaultId);
    const listed = await listFiles(t, user, vaultId);
    expect(listed.map((f) => [f.trashed_at, f.purged_at])).toEqual([
      [null, null],
      [null, null],
    ]);

    const trashedAt = new Date(Date.now() + 60_000);
    t.clock.now = trashedAt;
    const res = await post(user, trashUrl(vaultId), { ids: [first], trashed: true });
    expect(res.status, await res.clone().text()).toBe(200);
    const answered = filesResponseSchema.parse(await res.json()).files;
    expect(answered.map((f) => [f.id, f.trashed_at])).toEqual([[first, trashedAt.toISOString()]]);
    const after = await rowsOf(vaultId);
    for (const row of after) {
      const old = before.find((r) => r.id === row.id)!;
      expect(row).toEqual({
        ...old,
        trashed_at: row.id === first ? trashedAt.toISOString() : null,
      });
    }
    expect((await listFiles(t, user, vaultId)).find((f) => f.id === first)?.trashed_at).toBe(
      trashedAt.toISOString(),
    );

    // Again, with the other one: the first keeps the time it went in at.
    t.clock.now = new Date(trashedAt.getTime() + 3_600_000);
    const again = await post(user, trashUrl(vaultId), { ids: [first, second], trashed: true });
    expect(again.status).toBe(200);
    expect(Object.fromEntries((await rowsOf(vaultId)).map((r) => [r.id, r.trashed_at]))).toEqual({
      [first]: trashedAt.toISOString(),
      [second]: t.clock.now.toISOString(),
    });

    // Out of the trash: each record is as it was before it went in.
    const back = await post(user, trashUrl(vaultId), { ids: [second, first], trashed: false });
    expect(back.status).toBe(200);
    expect(filesResponseSchema.parse(await back.json()).files.map((f) => f.trashed_at)).toEqual([
      null,
      null,
    ]);
    expect(await rowsOf(vaultId)).toEqual(before);
    t.clock.now = new Date();
  });

  it("reaches only the owner's vaults and files: everything else is 404, changing nothing", async () => {
    const a = await vaultWithFiles(1);
    const b = await vaultWithFiles(1);
    const bFile = b.ids[0]!;
    const foreign = await post(a.user, trashUrl(b.vaultId), { ids: [bFile], trashed: true });
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toEqual({
      code: 'not_found',
      message: messages.vaults.notFound,
    });
    // B's file named under A's own vault.
    const mixed = await post(a.user, trashUrl(a.vaultId), {
      ids: [a.ids[0], bFile],
      trashed: true,
    });
    expect(mixed.status).toBe(404);
    expect(await errorOf(mixed)).toEqual({ code: 'not_found', message: messages.files.notFound });
    expect(
      (await post(a.user, trashUrl('not-a-uuid'), { ids: [bFile], trashed: true })).status,
    ).toBe(404);
    const anonymous = await t.request(trashUrl(b.vaultId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [bFile], trashed: true }),
    });
    expect(anonymous.status).toBe(401);
    expect((await rowsOf(b.vaultId)).map((r) => r.trashed_at)).toEqual([null]);
    expect((await rowsOf(a.vaultId)).map((r) => r.trashed_at)).toEqual([null]);
  });

  it('refuses a body that is not a list of file ids and a flag with 400, never 500', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(1);
    const id = ids[0]!;
    const bad: [string, unknown][] = [
      ['missing ids', { trashed: true }],
      ['missing flag', { ids: [id] }],
      ['a flag that is not a boolean', { ids: [id], trashed: 'yes' }],
      ['an id that is not a UUID', { ids: ['x'], trashed: true }],
      ['ids that are not a list', { ids: id, trashed: true }],
      ['an empty list', { ids: [], trashed: true }],
      [
        'too many ids',
        { ids: Array.from({ length: TRASH_MAX_IDS + 1 }, () => randomUUID()), trashed: true },
      ],
      ['an extra key', { ids: [id], trashed: true, key_revision: 0 }],
      ['not JSON', '{"ids": ['],
      ['not an object', [id]],
    ];
    for (const [what, body] of bad) {
      const res = await post(user, trashUrl(vaultId), body);
      expect(res.status, what).toBe(400);
      expect((await errorOf(res)).code, what).toBe('bad_request');
    }
    expect((await rowsOf(vaultId)).map((r) => r.trashed_at)).toEqual([null]);
    expect(t.logs()).not.toContain('unhandled error');
  });

  it('answers 404 for an id that is no file of the vault, and changes none of the others', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(2);
    const res = await post(user, trashUrl(vaultId), {
      ids: [...ids, randomUUID()],
      trashed: true,
    });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: 'not_found', message: messages.files.notFound });
    expect((await rowsOf(vaultId)).map((r) => r.trashed_at)).toEqual([null, null]);
  });

  it('refuses to take a purged record out of the trash with 409, changing nothing', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(2);
    const [purged, kept] = ids as [string, string];
    expect((await post(user, trashUrl(vaultId), { ids, trashed: true })).status).toBe(200);
    await markPurged(purged);
    const before = await rowsOf(vaultId);
    const res = await post(user, trashUrl(vaultId), { ids: [kept, purged], trashed: false });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'conflict', message: purgedFileMessage });
    expect(await rowsOf(vaultId)).toEqual(before);
    expect(before.find((r) => r.id === kept)?.trashed_at).not.toBeNull();
    // Putting it in the trash again is no change, and allowed.
    const again = await post(user, trashUrl(vaultId), { ids: [purged], trashed: true });
    expect(again.status).toBe(200);
    expect(await rowsOf(vaultId)).toEqual(before);
  });

  it('is refused on a read-only vault (403), as deleting a file is', async () => {
    const user = await createUser(t);
    // After a lapsed trial the newer of two files vaults only reads (plans/read-only.ts).
    await createFilesVault(t, user.id);
    t.clock.now = new Date(Date.now() + 60_000);
    const newer = await createFilesVault(t, user.id);
    t.clock.now = new Date();
    const now = t.clock.now.toISOString();
    const fileId = randomUUID();
    await t.db.kysely
      .insertInto('vault_files')
      .values({
        id: fileId,
        vault_id: newer,
        user_id: user.id,
        enc_meta: 'AAAA',
        name_lookup: 'a'.repeat(64),
        wrapped_key: 'AAAA',
        ciphertext_size: 88,
        checksum: 'b'.repeat(64),
        checksum_algorithm: 'content-hash-4m',
        blob_key: (await t.files.blobs.put([fakeCiphertext(0)])).key,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db.kysely
      .insertInto('user_subscriptions')
      .values({
        user_id: user.id,
        plan_id: 'free',
        status: 'active',
        started_at: now,
        current_period_end: null,
        pending_plan_id: null,
        provider_ref: null,
        trial_plan_id: 'pro',
        trial_started_at: now,
        trial_ends_at: now,
        trial_outcome: 'lapsed',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const res = await post(user, trashUrl(newer), { ids: [fileId], trashed: true });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual({ code: 'forbidden', message: trialMessages.readOnlyVault });
    const deletion = await t.request(`/api/vaults/${newer}/files/${fileId}`, {
      method: 'DELETE',
      headers: { cookie: user.cookie },
    });
    expect(deletion.status).toBe(403);
    expect((await rowsOf(newer)).map((r) => r.trashed_at)).toEqual([null]);
  });
});

describe('a purged record', () => {
  it('answers 410 for its content (GET and HEAD), and its deletion is 204', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(1);
    const fileId = ids[0]!;
    const content = `/api/vaults/${vaultId}/files/${fileId}/content`;
    const [row] = await rowsOf(vaultId);
    // As the trash purge leaves it: the record stays, its blob is gone.
    await markPurged(fileId);
    await t.files.blobs.delete(row!.blob_key as BlobKey);

    const res = await t.request(content, { headers: { cookie: user.cookie } });
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toEqual({ code: 'not_found', message: purgedFileMessage });
    const head = await t.request(content, { method: 'HEAD', headers: { cookie: user.cookie } });
    expect(head.status).toBe(410);
    // Its record still reads, with both times.
    const [listed] = await listFiles(t, user, vaultId);
    expect(listed?.purged_at).toBe(t.clock.now.toISOString());

    // Its blob is not asked for again: the purge deleted it (or queued it for the sweep).
    const deleted: string[] = [];
    const realDelete = t.files.blobs.delete.bind(t.files.blobs);
    t.files.blobs.delete = (key) => {
      deleted.push(key);
      return realDelete(key);
    };
    let deletion: Response;
    try {
      deletion = await t.request(`/api/vaults/${vaultId}/files/${fileId}`, {
        method: 'DELETE',
        headers: { cookie: user.cookie },
      });
    } finally {
      t.files.blobs.delete = realDelete;
    }
    expect(deletion.status).toBe(204);
    expect(await rowsOf(vaultId)).toEqual([]);
    expect(deleted).not.toContain(row!.blob_key);
    const queued = await t.db.kysely
      .selectFrom('blob_deletions')
      .selectAll()
      .where('blob_key', '=', row!.blob_key)
      .execute();
    expect(queued).toEqual([]);
  });

  it('still answers a record that is only trashed, and serves its content', async () => {
    const { user, vaultId, ids } = await vaultWithFiles(1);
    expect((await post(user, trashUrl(vaultId), { ids, trashed: true })).status).toBe(200);
    const res = await t.request(`/api/vaults/${vaultId}/files/${ids[0]}/content`, {
      headers: { cookie: user.cookie },
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(fakeCiphertext(1000).length);
  });
});
