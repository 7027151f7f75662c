// Deleting an account (DELETE /api/me) takes everything the user owns along: file records and
// their blobs, unfinished uploads and their tus files, the subscription and checkouts (handled
// payment notifications stay, without the user's id); another user's files stay.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  asMeta,
  fakeCiphertext,
  filesDeps,
  fileContent,
  listFiles,
  tus,
  tusFiles,
  uploadMetadata,
  userWithVault,
} from '../testing/files.ts';
import type { BlobKey } from '../blobs/blob-store.ts';
import { sweepFiles } from './uploads.sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('removes the files, blobs, unfinished uploads and subscription of a deleted account', async () => {
  const { user, vaultId } = await userWithVault(t);
  const other = await userWithVault(t);
  const db = t.db.kysely;

  const done = fakeCiphertext(3000);
  const doneMeta = uploadMetadata(vaultId, done);
  expect((await tus(t, user.cookie).upload(doneMeta, done)).patched.status).toBe(204);
  const partial = fakeCiphertext(40_000);
  const up = tus(t, user.cookie);
  const location =
    (await up.create(asMeta(uploadMetadata(vaultId, partial)), partial.length)).headers.get(
      'location',
    ) ?? '';
  expect((await up.patch(location, 0, partial.subarray(0, 10_000))).status).toBe(204);
  expect(tusFiles(t, location).length).toBeGreaterThan(0);
  const theirs = fakeCiphertext(2000);
  const theirsMeta = uploadMetadata(other.vaultId, theirs);
  expect((await tus(t, other.user.cookie).upload(theirsMeta, theirs)).patched.status).toBe(204);
  const { blob_key } = await db
    .selectFrom('vault_files')
    .select('blob_key')
    .where('id', '=', doneMeta.fileId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('payment_checkouts')
    .values({
      id: crypto.randomUUID(),
      user_id: user.id,
      plan_id: 'pro',
      created_at: t.clock.now.toISOString(),
    })
    .execute();
  const notificationId = crypto.randomUUID();
  await db
    .insertInto('payment_notifications')
    .values({
      id: notificationId,
      order_ref: '4711',
      user_id: user.id,
      plan_id: 'pro',
      outcome: 'applied',
      received_at: t.clock.now.toISOString(),
    })
    .execute();

  const res = await t.request('/api/me', {
    method: 'DELETE',
    headers: {
      cookie: user.cookie,
      'content-type': 'application/json',
      origin: t.config.publicUrl,
    },
    body: JSON.stringify({ password: user.password }),
  });
  expect(res.status).toBeLessThan(300);

  const left = async (table: 'vault_files' | 'file_uploads' | 'user_subscriptions') =>
    db.selectFrom(table).select('user_id').where('user_id', '=', user.id).execute();
  expect(await left('vault_files')).toEqual([]);
  expect(await left('user_subscriptions')).toEqual([]);
  expect(
    await db.selectFrom('payment_checkouts').select('id').where('user_id', '=', user.id).execute(),
  ).toEqual([]);
  // A handled notification stays (a replay must still find it) but no longer names the user.
  expect(
    await db
      .selectFrom('payment_notifications')
      .select(['id', 'user_id'])
      .where('id', '=', notificationId)
      .execute(),
  ).toEqual([{ id: notificationId, user_id: null }]);

  // The blob is queued and the unfinished upload expired; the sweep removes the blob, the
  // upload's record and its tus files.
  t.clock.now = new Date(t.clock.now.getTime() + 25 * 3_600_000);
  await sweepFiles(filesDeps(t));
  const { blobs } = t.files;
  expect(await blobs.stat(blob_key as BlobKey)).toBeNull();
  expect(tusFiles(t, location)).toEqual([]);
  expect(await left('file_uploads')).toEqual([]); // expired at the deletion, swept now

  // The other user's file is untouched.
  expect(await listFiles(t, other.user, other.vaultId)).toHaveLength(1);
  expect((await fileContent(t, other.user, other.vaultId, theirsMeta.fileId)).equals(theirs)).toBe(
    true,
  );
});
