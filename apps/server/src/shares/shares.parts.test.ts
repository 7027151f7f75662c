// A file link's content in parts (shares.content.ts): each PUT with `Content-Range`, in order;
// the last one joins them into the link's blob and the parts' blobs go. Out-of-order, oversized
// and malformed parts are refused with nothing stored; a link revoked or swept halfway leaves no
// part behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, SHARE_PART_MAX_BYTES, shareMessages } from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createFilesVault, fakeCiphertext, filesDeps, setPlan } from '../testing/files.ts';
import { createUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { createShare, putContent, shareRequest } from './shares.testkit.ts';
import { partsOf } from './shares.repository.ts';
import { sweepShares } from './shares.sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const row = (id: string) =>
  t.db.kysely.selectFrom('share_links').selectAll().where('id', '=', id).executeTakeFirst();
const blobKeys = async () => {
  const keys: string[] = [];
  for await (const b of t.files.blobs.list()) keys.push(b.key);
  return keys;
};

/** A file link of `size` bytes made by a new user; its id and the user's cookie. */
async function fileLink(size: number, over: Record<string, unknown> = {}) {
  const user = await createUser(t);
  await setPlan(t, user.id, 'unlimited');
  const files = await createFilesVault(t, user.id);
  const made = shareRequest('file', files, { ciphertext_size: size, ...over });
  expect((await createShare(t, user.cookie, made.body)).status).toBe(201);
  return { id: made.body.id, cookie: user.cookie };
}

const putPart = (cookie: string, id: string, bytes: Uint8Array, start: number, total: number) =>
  putContent(t, cookie, id, bytes, {
    'content-range': `bytes ${start}-${start + bytes.length - 1}/${total}`,
  });

describe("a file link's content in parts", () => {
  it('takes the parts in order, joins them into the link, and deletes the parts', async () => {
    const bytes = fakeCiphertext(250_000);
    const { id, cookie } = await fileLink(bytes.length);
    const before = await blobKeys();
    const cuts = [0, 100_000, 200_000, bytes.length];
    for (let i = 0; i < 3; i++) {
      expect((await row(id))!.content_complete).toBe(0);
      const res = await putPart(
        cookie,
        id,
        bytes.subarray(cuts[i], cuts[i + 1]),
        cuts[i]!,
        bytes.length,
      );
      expect(res.status).toBe(204);
      if (i < 2) expect(partsOf((await row(id))!).map((p) => p.size)).toHaveLength(i + 1);
    }
    const done = (await row(id))!;
    expect(done).toMatchObject({ content_complete: 1, content_parts: null });
    const blob = await t.files.blobs.get(done.blob_key as BlobKey);
    expect(Buffer.from(await new Response(blob).arrayBuffer()).equals(bytes)).toBe(true);
    // Only the joined blob is new: the three parts' blobs are gone.
    expect((await blobKeys()).filter((k) => !before.includes(k))).toEqual([done.blob_key]);
    const again = await putPart(cookie, id, bytes.subarray(0, 10), 0, bytes.length);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(shareMessages.contentComplete);
  });

  it('refuses a part out of order, too large, of another total, or a malformed range, storing nothing', async () => {
    const bytes = fakeCiphertext(50_000);
    const { id, cookie } = await fileLink(bytes.length);
    expect((await putPart(cookie, id, bytes.subarray(0, 20_000), 0, bytes.length)).status).toBe(
      204,
    );
    const before = await blobKeys();

    const skipped = await putPart(cookie, id, bytes.subarray(30_000), 30_000, bytes.length);
    expect(skipped.status).toBe(409);
    expect((await errorOf(skipped)).message).toBe(shareMessages.partOutOfOrder(20_000));
    const repeated = await putPart(cookie, id, bytes.subarray(0, 20_000), 0, bytes.length);
    expect((await errorOf(repeated)).message).toBe(shareMessages.partOutOfOrder(20_000));
    const otherTotal = await putPart(cookie, id, bytes.subarray(20_000), 20_000, bytes.length + 1);
    expect(otherTotal.status).toBe(400);
    expect((await errorOf(otherTotal)).message).toBe(shareMessages.wrongLength(bytes.length));
    for (const header of [
      'bytes 20000-/50000',
      'bytes=20000-49999/50000',
      'bytes 30000-20000/50000',
    ]) {
      const bad = await putContent(t, cookie, id, bytes.subarray(20_000), {
        'content-range': header,
      });
      expect(bad.status, header).toBe(400);
      expect((await errorOf(bad)).message).toBe(shareMessages.badRange);
    }
    const big = SHARE_PART_MAX_BYTES + 1;
    const huge = await fileLink(big + 10);
    const tooLarge = await putContent(t, huge.cookie, huge.id, new Uint8Array(0), {
      'content-range': `bytes 0-${big - 1}/${big + 10}`,
    });
    expect(tooLarge.status).toBe(413);
    expect((await errorOf(tooLarge)).message).toBe(
      shareMessages.partTooLarge(SHARE_PART_MAX_BYTES),
    );
    // A Content-Length that is not the range's length.
    const lying = await putContent(t, cookie, id, bytes.subarray(20_000, 30_000), {
      'content-range': `bytes 20000-49999/${bytes.length}`,
    });
    expect(lying.status).toBe(400);
    // A whole body once parts came is refused too.
    const whole = await putContent(t, cookie, id, bytes);
    expect(whole.status).toBe(409);

    expect(await blobKeys()).toEqual(before);
    expect(partsOf((await row(id))!).map((p) => p.size)).toEqual([20_000]);
    expect((await putPart(cookie, id, bytes.subarray(20_000), 20_000, bytes.length)).status).toBe(
      204,
    );
    expect((await row(id))!.content_complete).toBe(1);
  });

  it('a link revoked halfway takes its parts with it; so does one the sweep deletes', async () => {
    const bytes = fakeCiphertext(40_000);
    const revoked = await fileLink(bytes.length);
    const before = await blobKeys();
    expect(
      (await putPart(revoked.cookie, revoked.id, bytes.subarray(0, 10_000), 0, bytes.length))
        .status,
    ).toBe(204);
    const [part] = partsOf((await row(revoked.id))!);
    expect(await t.files.blobs.stat(part!.key as BlobKey)).not.toBeNull();
    expect((await send(t, revoked.cookie, 'DELETE', `/api/shares/${revoked.id}`)).status).toBe(204);
    expect(await t.files.blobs.stat(part!.key as BlobKey)).toBeNull();

    const expiring = await fileLink(bytes.length, { expires_in: '1h' });
    expect(
      (await putPart(expiring.cookie, expiring.id, bytes.subarray(0, 10_000), 0, bytes.length))
        .status,
    ).toBe(204);
    const [left] = partsOf((await row(expiring.id))!);
    await sweepShares(filesDeps(t), new Date(t.clock.now.getTime() + 2 * 3_600_000));
    expect(await t.files.blobs.stat(left!.key as BlobKey)).toBeNull();
    expect((await row(expiring.id))!.content_parts).toBeNull();
    const late = await putPart(
      expiring.cookie,
      expiring.id,
      bytes.subarray(10_000),
      10_000,
      bytes.length,
    );
    expect(late.status).toBe(409);
    expect(await blobKeys()).toEqual(before);
  });
});
