// The share sweep (shares.sweep.ts, [Note: share link data] in shares.repository.ts): expired
// links lose their data and blob, a used-up file link an hour later (a secret or text link at
// once), the rows 30 days after their data; and the job logs counts only.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { limitsSchema, sharesResponseSchema } from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { sharedLocks } from '../db/locks.ts';
import { startPeriodicJob } from '../jobs/periodic.ts';
import { createLogger } from '../logger.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createFilesVault, fakeCiphertext, filesDeps, setPlan } from '../testing/files.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import {
  createShare,
  freshIp,
  publicRequest,
  putContent,
  shareRequest,
  type Made,
} from './shares.testkit.ts';
import { shareSweepJob, sweepShares } from './shares.sweep.ts';

let t: TestApp;
let user: TestUser;
let files: string;
let secrets: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t);
  await setPlan(t, user.id, 'unlimited');
  files = await createFilesVault(t, user.id);
  secrets = await createFilesVault(t, user.id, { vault_type: 'secrets' });
});
afterAll(() => t.close());
// One database for the file: each test starts with no link left by another.
beforeEach(async () => {
  await t.db.kysely.deleteFrom('share_links').execute();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const later = (ms: number) => new Date(t.clock.now.getTime() + ms);
const row = (id: string) =>
  t.db.kysely.selectFrom('share_links').selectAll().where('id', '=', id).executeTakeFirst();

async function made(m: Made): Promise<Made> {
  expect((await createShare(t, user.cookie, m.body)).status).toBe(201);
  return m;
}

async function fileLink(over: Record<string, unknown> = {}) {
  const bytes = fakeCiphertext(4000);
  const m = await made(shareRequest('file', files, { ciphertext_size: bytes.length, ...over }));
  expect((await putContent(t, user.cookie, m.body.id, bytes)).status).toBe(204);
  return { m, key: (await row(m.body.id))!.blob_key as BlobKey, size: bytes.length };
}

const openLink = (m: Made) =>
  publicRequest(t, `/api/s/${m.body.id}/open`, { method: 'POST', token: m.token, ip: freshIp() });

describe('the share sweep', () => {
  it("deletes an expired link's data and blob, keeps the row for its owner, and leaves live links alone", async () => {
    const expired = await fileLink({ expires_in: '1h' });
    const live = await fileLink({ expires_in: '1d' });
    const text = await made(shareRequest('text', null, { expires_in: '1h' }));
    const liveBefore = await row(live.m.body.id);
    const now = later(HOUR + 1);
    expect(await sweepShares(filesDeps(t), now)).toEqual({
      dataDeleted: 2,
      blobsDeleted: 1,
      rowsDeleted: 0,
    });
    expect(await t.files.blobs.stat(expired.key)).toBeNull();
    for (const id of [expired.m.body.id, text.body.id]) {
      expect(await row(id)).toMatchObject({
        payload: null,
        enc_meta: null,
        enc_note: null,
        wrapped_key: null,
        owner_key: null,
        blob_key: null,
        data_deleted_at: now.toISOString(),
      });
    }
    expect(await row(live.m.body.id)).toEqual(liveBefore);
    expect(await t.files.blobs.stat(live.key)).toEqual({ size: live.size });
    // Listed as expired, with no key to copy; the bytes no longer count as storage.
    t.clock.now = now;
    const res = await send(t, user.cookie, 'GET', '/api/shares');
    const listed = sharesResponseSchema.parse(await res.json()).shares;
    expect(listed.find((l) => l.id === expired.m.body.id)).toMatchObject({
      status: 'expired',
      owner_key: null,
    });
    const limits = limitsSchema.parse(
      await (await send(t, user.cookie, 'GET', '/api/limits')).json(),
    );
    expect(limits.storage_used_bytes).toBe(live.size);
    // A second pass finds nothing to do.
    expect(await sweepShares(filesDeps(t), now)).toEqual({
      dataDeleted: 0,
      blobsDeleted: 0,
      rowsDeleted: 0,
    });
  });

  it('keeps a used-up file link for an hour (its downloads), a used-up secret not at all', async () => {
    const file = await fileLink({ max_opens: 1 });
    const secret = await made(shareRequest('secret', secrets, { max_opens: 1 }));
    expect((await openLink(file.m)).status).toBe(200);
    expect((await openLink(secret)).status).toBe(200);
    const usedAt = t.clock.now;
    expect(await sweepShares(filesDeps(t), new Date(usedAt.getTime() + 1))).toMatchObject({
      dataDeleted: 1,
    });
    expect((await row(secret.body.id))!.payload).toBeNull();
    expect((await row(file.m.body.id))!.data_deleted_at).toBeNull();
    expect(await sweepShares(filesDeps(t), new Date(usedAt.getTime() + HOUR - 1))).toMatchObject({
      dataDeleted: 0,
    });
    expect(await t.files.blobs.stat(file.key)).not.toBeNull();
    expect(await sweepShares(filesDeps(t), new Date(usedAt.getTime() + HOUR))).toEqual({
      dataDeleted: 1,
      blobsDeleted: 1,
      rowsDeleted: 0,
    });
    expect(await t.files.blobs.stat(file.key)).toBeNull();
  });

  it('deletes the rows 30 days after their data went, and no sooner', async () => {
    const a = await made(shareRequest('text', null, { expires_in: '1h' }));
    const swept = later(HOUR);
    await sweepShares(filesDeps(t), swept);
    expect(await sweepShares(filesDeps(t), new Date(swept.getTime() + 30 * DAY - 1))).toEqual({
      dataDeleted: 0,
      blobsDeleted: 0,
      rowsDeleted: 0,
    });
    expect(await row(a.body.id)).toBeDefined();
    expect(await sweepShares(filesDeps(t), new Date(swept.getTime() + 30 * DAY))).toEqual({
      dataDeleted: 0,
      blobsDeleted: 0,
      rowsDeleted: 1,
    });
    expect(await row(a.body.id)).toBeUndefined();
  });

  it('works in batches and carries on where a pass stopped', async () => {
    for (let i = 0; i < 5; i++) await made(shareRequest('text', null, { expires_in: '1h' }));
    const now = later(HOUR);
    expect(await sweepShares(filesDeps(t), now, { batch: 2, maxBatches: 2 })).toMatchObject({
      dataDeleted: 4,
    });
    expect(await sweepShares(filesDeps(t), now, { batch: 2 })).toMatchObject({ dataDeleted: 1 });
  });

  it('runs as a periodic job that logs counts only', async () => {
    const link = await made(shareRequest('secret', secrets, { expires_in: '1h' }));
    let text = '';
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _e, cb) {
          text += chunk.toString();
          cb();
        },
      }),
    );
    const locks = sharedLocks(t.db);
    const at = t.clock.now;
    t.clock.now = later(HOUR);
    try {
      const job = startPeriodicJob(shareSweepJob({ ...filesDeps(t), logger }, 60_000), {
        logger,
        locks,
      });
      await job.runNow();
      job.stop();
    } finally {
      t.clock.now = at;
      await locks.close();
    }
    expect(text).toContain('"job":"share sweep"');
    expect(text).toContain('"dataDeleted":1');
    expect(text).not.toContain(link.body.id);
    expect(text).not.toContain(user.id);
  });
});
