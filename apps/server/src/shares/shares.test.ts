// The owner's share link routes (issue 29, shares.routes.ts): creation of each kind and its
// validation, the plan's share limits and the storage quota, the file link's content upload,
// the list, a new expiry and revocation, and what deleting a vault or an account removes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ciphertextLength,
  errorBodySchema,
  limitsSchema,
  messages,
  SHARE_EXPIRIES,
  shareLimitMessage,
  shareMessages,
  shareResponseSchema,
  shareSizeLimitMessage,
  sharesResponseSchema,
  shareStorageQuotaMessage,
  shareUnavailableMessage,
} from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { readOnlyVaults } from '../plans/read-only.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  createFilesVault,
  fakeCiphertext,
  setPlan,
  tus,
  uploadMetadata,
} from '../testing/files.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import {
  createShare,
  freshIp,
  putContent,
  publicRequest,
  shareRequest,
  type Made,
} from './shares.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MiB = 1024 * 1024;
const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const row = (id: string) =>
  t.db.kysely.selectFrom('share_links').selectAll().where('id', '=', id).executeTakeFirst();

async function owner(plan = 'unlimited') {
  const user = await createUser(t);
  await setPlan(t, user.id, plan);
  const files = await createFilesVault(t, user.id);
  const secrets = await createFilesVault(t, user.id, { vault_type: 'secrets' });
  return { user, files, secrets };
}

async function created(user: TestUser, made: Made) {
  const res = await createShare(t, user.cookie, made.body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return shareResponseSchema.parse(await res.json()).share;
}

async function list(user: TestUser) {
  const res = await send(t, user.cookie, 'GET', '/api/shares');
  expect(res.status).toBe(200);
  return sharesResponseSchema.parse(await res.json()).shares;
}

describe('creating a link', () => {
  it('creates a file, a secret and a text link, each with what it needs and nothing the server could read', async () => {
    const { user, files, secrets } = await owner();
    const file = shareRequest('file', files, { max_opens: 3, expires_in: '1h' });
    const secret = shareRequest('secret', secrets);
    const text = shareRequest('text', null, { expires_in: '30d' });
    const now = t.clock.now.getTime();
    const f = await created(user, file);
    expect(f).toMatchObject({
      id: file.body.id,
      kind: 'file',
      vault_id: files,
      max_opens: 3,
      opens: 0,
      size: ciphertextLength(1000),
      owner_key: file.body.owner_key,
      status: 'active',
      complete: false,
    });
    expect(Date.parse(f.expires_at)).toBe(now + SHARE_EXPIRIES['1h'] * 1000);
    const s = await created(user, secret);
    expect(s).toMatchObject({ kind: 'secret', vault_id: secrets, size: 600, complete: true });
    const x = await created(user, text);
    expect(x).toMatchObject({ kind: 'text', vault_id: null, size: 300, max_opens: null });
    expect(Date.parse(x.expires_at)).toBe(now + SHARE_EXPIRIES['30d'] * 1000);
    // Newest first (same clock: by id, descending, as the list orders ties).
    const listed = await list(user);
    expect(listed.map((l) => l.id).sort()).toEqual([f.id, s.id, x.id].sort());
    expect(await row(file.body.id)).toMatchObject({
      access_hash: file.body.access_hash,
      payload: null,
      content_complete: 0,
      blob_key: null,
    });
  });

  it('lists the newest link first', async () => {
    const { user, secrets } = await owner();
    const first = await created(user, shareRequest('secret', secrets));
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const second = await created(user, shareRequest('text', null));
    expect((await list(user)).map((l) => l.id)).toEqual([second.id, first.id]);
  });

  it('refuses a body that is not a link of its kind with 400, storing nothing', async () => {
    const { user, files, secrets } = await owner();
    const cases: [string, Made['body'] | Record<string, unknown>][] = [
      ['file with a payload', shareRequest('file', files, { payload: 'AAAA' }).body],
      ['file without its key', shareRequest('file', files, { wrapped_key: undefined }).body],
      [
        'file of a size no vf1 ciphertext has',
        shareRequest('file', files, { ciphertext_size: 262_233 }).body,
      ],
      ['file below a vf1 header', shareRequest('file', files, { ciphertext_size: 50 }).body],
      ['file of a fractional size', shareRequest('file', files, { ciphertext_size: 1160.5 }).body],
      ['secret with file fields', shareRequest('secret', secrets, { ciphertext_size: 1160 }).body],
      ['secret without a payload', shareRequest('secret', secrets, { payload: undefined }).body],
      ['text with a vault', shareRequest('text', null, { vault_id: secrets }).body],
      ['file without a vault', shareRequest('file', null, { vault_id: undefined }).body],
      ['id too short', shareRequest('text', null, { id: 'abc' }).body],
      ['id with a dot', shareRequest('text', null, { id: 'A'.repeat(21) + '.' }).body],
      ['hash in capitals', shareRequest('text', null, { access_hash: 'A'.repeat(64) }).body],
      ['unknown expiry', shareRequest('text', null, { expires_in: '2d' }).body],
      ['1001 opens', shareRequest('text', null, { max_opens: 1001 }).body],
      ['0 opens', shareRequest('text', null, { max_opens: 0 }).body],
      ['no max_opens', shareRequest('text', null, { max_opens: undefined }).body],
      [
        'payload over 96 KiB',
        shareRequest('text', null, { payload: randomBytes(96 * 1024 + 3).toString('base64') }).body,
      ],
      [
        'note over 4 KiB',
        shareRequest('text', null, { enc_note: randomBytes(4099).toString('base64') }).body,
      ],
      ['meta not base64', shareRequest('text', null, { enc_meta: 'not base64!' }).body],
      [
        'kdf below the floor',
        shareRequest('text', null, {
          kdf: {
            salt: randomBytes(16).toString('base64'),
            memory_kib: 1024,
            iterations: 3,
            parallelism: 1,
          },
        }).body,
      ],
      [
        'kdf with 5 passes',
        shareRequest('text', null, {
          kdf: {
            salt: randomBytes(16).toString('base64'),
            memory_kib: 65536,
            iterations: 5,
            parallelism: 1,
          },
        }).body,
      ],
      [
        'kdf salt of 8 bytes',
        shareRequest('text', null, {
          kdf: {
            salt: randomBytes(8).toString('base64'),
            memory_kib: 65536,
            iterations: 3,
            parallelism: 1,
          },
        }).body,
      ],
      ['unknown kind', { ...shareRequest('text', null).body, kind: 'folder' }],
    ];
    for (const [what, body] of cases) {
      const res = await createShare(t, user.cookie, body);
      expect(res.status, what).toBe(400);
      expect((await errorOf(res)).code, what).toBe('bad_request');
      expect(await row((body as { id: string }).id), what).toBeUndefined();
    }
    const notJson = await t.request('/api/shares', {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('takes a password link with its KDF parameters and gives them back to the recipient only', async () => {
    const { user } = await owner();
    const kdf = {
      salt: randomBytes(16).toString('base64'),
      memory_kib: 65536,
      iterations: 3,
      parallelism: 1,
    };
    const made = shareRequest('text', null, { kdf });
    await created(user, made);
    const info = await publicRequest(t, `/api/s/${made.body.id}`, {
      token: made.token,
      ip: freshIp(),
    });
    expect(((await info.json()) as { kdf: unknown }).kdf).toEqual(kdf);
  });

  it('answers 404 for a vault of another user or none, 400 for a vault of the wrong type', async () => {
    const a = await owner();
    const b = await owner();
    for (const body of [
      shareRequest('file', b.files).body,
      shareRequest('secret', b.secrets).body,
      shareRequest('file', '6f1c1b8e-0000-4000-8000-000000000000').body,
    ]) {
      const res = await createShare(t, a.user.cookie, body);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ code: 'not_found', message: messages.vaults.notFound });
    }
    const wrong = await createShare(t, a.user.cookie, shareRequest('file', a.secrets).body);
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toBe(shareMessages.fileVaultRequired);
    const wrong2 = await createShare(t, a.user.cookie, shareRequest('secret', a.files).body);
    expect((await errorOf(wrong2)).message).toBe(shareMessages.secretsVaultRequired);
  });

  it('refuses an id already taken with 409, even by another user, and changes nothing', async () => {
    const a = await owner();
    const b = await owner();
    const made = shareRequest('text', null);
    await created(a.user, made);
    const again = shareRequest('text', null, { id: made.body.id });
    const res = await createShare(t, b.user.cookie, again.body);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'conflict', message: shareMessages.duplicateId });
    expect(await row(made.body.id)).toMatchObject({ user_id: a.user.id });
  });

  it('needs a session', async () => {
    const res = await createShare(t, '', shareRequest('text', null).body);
    expect(res.status).toBe(401);
    expect((await t.request('/api/shares')).status).toBe(401);
  });
});

describe('plan limits', () => {
  it("refuses Free's 4th active link with 403, and takes one again once a link is revoked or expired", async () => {
    const { user, secrets } = await owner('free');
    const links = [];
    for (let i = 0; i < 3; i++) links.push(await created(user, shareRequest('secret', secrets)));
    const fourth = await createShare(t, user.cookie, shareRequest('text', null).body);
    expect(fourth.status).toBe(403);
    expect(await errorOf(fourth)).toEqual({
      code: 'limit_reached',
      message: shareLimitMessage(3),
    });
    expect(shareLimitMessage(3)).toBe(
      'Your plan allows 3 active share links. Revoke one or upgrade.',
    );
    expect((await send(t, user.cookie, 'DELETE', `/api/shares/${links[0]!.id}`)).status).toBe(204);
    await created(user, shareRequest('text', null));
    // An expired link is not active: it does not count.
    await t.db.kysely
      .updateTable('share_links')
      .set({ expires_at: new Date(t.clock.now.getTime() - 1).toISOString() })
      .where('id', '=', links[1]!.id)
      .execute();
    await created(user, shareRequest('text', null));
    expect((await createShare(t, user.cookie, shareRequest('text', null).body)).status).toBe(403);
    // Nor does a used-up one.
    await t.db.kysely
      .updateTable('share_links')
      .set({ max_opens: 1, opens: 1 })
      .where('id', '=', links[2]!.id)
      .execute();
    await created(user, shareRequest('text', null));
  });

  it('refuses a link that takes the active links past the plan size with 403', async () => {
    const { user, files } = await owner('free');
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ max_share_mb: 2, max_share_links: 10 })
      .where('id', '=', 'free')
      .execute();
    try {
      const size = ciphertextLength(MiB);
      await created(user, shareRequest('file', files, { ciphertext_size: size }));
      const res = await createShare(
        t,
        user.cookie,
        shareRequest('file', files, { ciphertext_size: size }).body,
      );
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: 'limit_reached',
        message: shareSizeLimitMessage(2),
      });
      // A small text still fits.
      await created(user, shareRequest('text', null));
    } finally {
      await t.db.kysely
        .updateTable('subscription_plans')
        .set({ max_share_mb: 50, max_share_links: 3 })
        .where('id', '=', 'free')
        .execute();
    }
  });

  it("counts a file link's bytes as storage used, and refuses one past the storage quota", async () => {
    const { user, files } = await owner('basic');
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ max_storage_mb: 3 })
      .where('id', '=', 'basic')
      .execute();
    try {
      const stored = fakeCiphertext(MiB);
      const meta = uploadMetadata(files, stored);
      expect((await tus(t, user.cookie).upload(meta, stored)).patched.status).toBe(204);
      const size = ciphertextLength(MiB);
      const link = await created(user, shareRequest('file', files, { ciphertext_size: size }));
      const limits = limitsSchema.parse(
        await (await send(t, user.cookie, 'GET', '/api/limits')).json(),
      );
      expect(limits.storage_used_bytes).toBe(stored.length + size);
      expect(limits).toMatchObject({ max_share_links: 25, max_share_mb: 2048 });
      // 2 MiB stored or shared + 1 MiB more > 3 MiB.
      const res = await createShare(
        t,
        user.cookie,
        shareRequest('file', files, { ciphertext_size: size }).body,
      );
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: 'limit_reached',
        message: shareStorageQuotaMessage(3),
      });
      // A secret's payload is in the database, not the storage quota's.
      await created(user, shareRequest('text', null));
      // An upload sees the link's bytes too.
      const more = fakeCiphertext(MiB);
      const refused = await tus(t, user.cookie).create(
        { ...uploadMetadata(files, more) },
        more.length,
      );
      expect(refused.status).toBe(413);
      // Revoked, the bytes no longer count.
      expect((await send(t, user.cookie, 'DELETE', `/api/shares/${link.id}`)).status).toBe(204);
      const after = limitsSchema.parse(
        await (await send(t, user.cookie, 'GET', '/api/limits')).json(),
      );
      expect(after.storage_used_bytes).toBe(stored.length);
    } finally {
      await t.db.kysely
        .updateTable('subscription_plans')
        .set({ max_storage_mb: 10_240 })
        .where('id', '=', 'basic')
        .execute();
    }
  });

  it('lets a read-only vault share (reading is allowed), within the Free limits', async () => {
    const user = await createUser(t);
    const first = await createFilesVault(t, user.id);
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const second = await createFilesVault(t, user.id);
    await t.db.kysely
      .insertInto('user_subscriptions')
      .values({
        user_id: user.id,
        plan_id: 'free',
        status: 'active',
        started_at: t.clock.now.toISOString(),
        current_period_end: null,
        pending_plan_id: null,
        provider_ref: null,
        trial_plan_id: 'pro',
        trial_started_at: t.clock.now.toISOString(),
        trial_ends_at: t.clock.now.toISOString(),
        trial_outcome: 'lapsed',
        created_at: t.clock.now.toISOString(),
        updated_at: t.clock.now.toISOString(),
      })
      .execute();
    // The second files vault is beyond Free's one of each: read-only.
    expect((await readOnlyVaults(t.db.kysely, user.id)).map((v) => v.id)).toEqual([second]);
    await created(user, shareRequest('file', second));
    await created(user, shareRequest('file', first));
  });
});

describe("a file link's content", () => {
  it('takes exactly the declared bytes once, streams them to a blob, and refuses a second body with 409', async () => {
    const { user, files } = await owner();
    const bytes = fakeCiphertext(300_000);
    const made = shareRequest('file', files, { ciphertext_size: bytes.length });
    await created(user, made);
    const id = made.body.id;
    const short = await putContent(t, user.cookie, id, bytes.subarray(0, bytes.length - 1));
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toBe(shareMessages.wrongLength(bytes.length));
    const long = await putContent(t, user.cookie, id, Buffer.concat([bytes, Buffer.from([1])]));
    expect(long.status).toBe(413);
    expect((await row(id))!.content_complete).toBe(0);
    // A declared length that lies about the body is caught while it streams.
    const lying = await t.request(`/api/shares/${id}/content`, {
      method: 'PUT',
      headers: { cookie: user.cookie, 'content-length': String(bytes.length) },
      body: new ReadableStream({
        start(c) {
          c.enqueue(bytes.subarray(0, 1000));
          c.close();
        },
      }),
      duplex: 'half',
    });
    expect(lying.status).toBe(400);

    const ok = await putContent(t, user.cookie, id, bytes);
    expect(ok.status).toBe(204);
    const stored = await row(id);
    expect(stored).toMatchObject({ content_complete: 1 });
    const blob = await t.files.blobs.get(stored!.blob_key as BlobKey);
    expect(Buffer.from(await new Response(blob).arrayBuffer()).equals(bytes)).toBe(true);
    const again = await putContent(t, user.cookie, id, bytes);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(shareMessages.contentComplete);
    expect((await list(user))[0]).toMatchObject({ id, complete: true });
    // No stray blob was left by the refused bodies.
    const keys = [];
    for await (const b of t.files.blobs.list()) keys.push(b.key);
    expect(keys).toContain(stored!.blob_key);
  });

  it("refuses a body without a length (411), another user's link and a link that is no file", async () => {
    const { user, files } = await owner();
    const other = await owner();
    const bytes = fakeCiphertext(1000);
    const made = shareRequest('file', files);
    await created(user, made);
    const chunked = await t.request(`/api/shares/${made.body.id}/content`, {
      method: 'PUT',
      headers: { cookie: user.cookie },
      body: new ReadableStream({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      }),
      duplex: 'half',
    });
    expect(chunked.status).toBe(411);
    expect((await putContent(t, other.user.cookie, made.body.id, bytes)).status).toBe(404);
    expect((await putContent(t, user.cookie, 'not-an-id', bytes)).status).toBe(404);
    const text = shareRequest('text', null);
    await created(user, text);
    expect((await putContent(t, user.cookie, text.body.id, bytes)).status).toBe(409);
    expect((await putContent(t, user.cookie, made.body.id, bytes)).status).toBe(204);
  });

  it('refuses the body below the free-space watermark with 507, as uploads are', async () => {
    const { user, files } = await owner();
    const made = shareRequest('file', files);
    await created(user, made);
    const free = t.files.freeBytes;
    t.files.freeBytes = () => Promise.resolve(0);
    try {
      // The harness turns the watermark off (UPLOAD_MIN_FREE_MB 0); with no free byte at all
      // the reservation still cannot fit a body.
      const res = await putContent(t, user.cookie, made.body.id, fakeCiphertext(1000));
      expect(res.status).toBe(507);
      expect((await errorOf(res)).code).toBe('storage_full');
    } finally {
      t.files.freeBytes = free;
    }
    expect((await putContent(t, user.cookie, made.body.id, fakeCiphertext(1000))).status).toBe(204);
  });
});

describe('managing links', () => {
  it('sets a new expiry from now, and refuses it with 409 once the data was deleted', async () => {
    const { user } = await owner();
    const made = shareRequest('text', null, { expires_in: '1h' });
    await created(user, made);
    const id = made.body.id;
    t.clock.now = new Date(t.clock.now.getTime() + 30 * 60_000);
    const res = await send(t, user.cookie, 'PATCH', `/api/shares/${id}`, { expires_in: '1d' });
    expect(res.status).toBe(200);
    const { share } = shareResponseSchema.parse(await res.json());
    expect(Date.parse(share.expires_at)).toBe(t.clock.now.getTime() + 86_400_000);
    expect(
      (await send(t, user.cookie, 'PATCH', `/api/shares/${id}`, { expires_in: '3d' })).status,
    ).toBe(400);
    const other = await owner();
    expect(
      (await send(t, other.user.cookie, 'PATCH', `/api/shares/${id}`, { expires_in: '1d' })).status,
    ).toBe(404);
    await t.db.kysely
      .updateTable('share_links')
      .set({ data_deleted_at: t.clock.now.toISOString(), payload: null, enc_meta: null })
      .where('id', '=', id)
      .execute();
    const gone = await send(t, user.cookie, 'PATCH', `/api/shares/${id}`, { expires_in: '1d' });
    expect(gone.status).toBe(409);
    expect(await errorOf(gone)).toEqual({ code: 'conflict', message: shareMessages.dataDeleted });
    expect((await list(user))[0]).toMatchObject({
      id,
      status: 'expired',
      owner_key: made.body.owner_key,
    });
  });

  it('lists a link as expired past its expiry and as used up once its opens are spent', async () => {
    const { user } = await owner();
    const a = shareRequest('text', null, { expires_in: '1h', max_opens: 1 });
    const b = shareRequest('text', null, { expires_in: '1d' });
    await created(user, a);
    await created(user, b);
    const open = await publicRequest(t, `/api/s/${a.body.id}/open`, {
      method: 'POST',
      token: a.token,
      ip: freshIp(),
    });
    expect(open.status).toBe(200);
    t.clock.now = new Date(t.clock.now.getTime() + 2 * 3_600_000);
    const byId = Object.fromEntries((await list(user)).map((l) => [l.id, l]));
    expect(byId[a.body.id]).toMatchObject({ status: 'used-up', opens: 1 });
    expect(byId[b.body.id]).toMatchObject({ status: 'active' });
    t.clock.now = new Date(t.clock.now.getTime() + 86_400_000);
    expect((await list(user)).find((l) => l.id === b.body.id)?.status).toBe('expired');
  });

  it('reviving an expired link by a new expiry counts against the plan as a new link', async () => {
    const { user } = await owner('free');
    const old = shareRequest('text', null, { expires_in: '1h' });
    await created(user, old);
    t.clock.now = new Date(t.clock.now.getTime() + 2 * 3_600_000);
    for (let i = 0; i < 3; i++) await created(user, shareRequest('text', null));
    const res = await send(t, user.cookie, 'PATCH', `/api/shares/${old.body.id}`, {
      expires_in: '1d',
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toBe(shareLimitMessage(3));
  });

  it('revokes at once: the row and the blob go, and the public routes answer the uniform 404', async () => {
    const { user, files } = await owner();
    const bytes = fakeCiphertext(5000);
    const made = shareRequest('file', files, { ciphertext_size: bytes.length });
    await created(user, made);
    expect((await putContent(t, user.cookie, made.body.id, bytes)).status).toBe(204);
    const key = (await row(made.body.id))!.blob_key as BlobKey;
    const ip = freshIp();
    const open = await publicRequest(t, `/api/s/${made.body.id}/open`, {
      method: 'POST',
      token: made.token,
      ip,
    });
    const { download } = (await open.json()) as { download: string };
    const other = await owner();
    expect((await send(t, other.user.cookie, 'DELETE', `/api/shares/${made.body.id}`)).status).toBe(
      404,
    );
    expect((await send(t, user.cookie, 'DELETE', `/api/shares/${made.body.id}`)).status).toBe(204);
    expect(await row(made.body.id)).toBeUndefined();
    expect(await t.files.blobs.stat(key)).toBeNull();
    for (const res of [
      await publicRequest(t, `/api/s/${made.body.id}`, { token: made.token, ip }),
      await publicRequest(t, `/api/s/${made.body.id}/content`, { download, ip }),
    ]) {
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ code: 'not_found', message: shareUnavailableMessage });
    }
    expect((await send(t, user.cookie, 'DELETE', `/api/shares/${made.body.id}`)).status).toBe(404);
  });
});

describe('deleting what a link comes from', () => {
  it("deleting a vault deletes its links and their blobs, and leaves the user's other links", async () => {
    const { user, files, secrets } = await owner();
    const bytes = fakeCiphertext(2000);
    const file = shareRequest('file', files, { ciphertext_size: bytes.length });
    const secret = shareRequest('secret', secrets);
    const text = shareRequest('text', null);
    for (const m of [file, secret, text]) await created(user, m);
    expect((await putContent(t, user.cookie, file.body.id, bytes)).status).toBe(204);
    const key = (await row(file.body.id))!.blob_key as BlobKey;
    expect((await send(t, user.cookie, 'DELETE', `/api/vaults/${files}`)).status).toBe(204);
    expect(await row(file.body.id)).toBeUndefined();
    expect(await t.files.blobs.stat(key)).toBeNull();
    expect(await row(secret.body.id)).toBeDefined();
    expect((await send(t, user.cookie, 'DELETE', `/api/vaults/${secrets}`)).status).toBe(204);
    expect(await row(secret.body.id)).toBeUndefined();
    expect(await row(text.body.id)).toBeDefined();
  });

  it("deleting the account deletes the user's links, text links included, and queues their blobs", async () => {
    const { user, files } = await owner();
    const bytes = fakeCiphertext(2000);
    const file = shareRequest('file', files, { ciphertext_size: bytes.length });
    const text = shareRequest('text', null);
    for (const m of [file, text]) await created(user, m);
    expect((await putContent(t, user.cookie, file.body.id, bytes)).status).toBe(204);
    const key = (await row(file.body.id))!.blob_key!;
    const res = await send(t, user.cookie, 'DELETE', '/api/me', { password: user.password });
    expect(res.status).toBe(200);
    expect(await row(file.body.id)).toBeUndefined();
    expect(await row(text.body.id)).toBeUndefined();
    const queued = await t.db.kysely
      .selectFrom('blob_deletions')
      .select('blob_key')
      .where('blob_key', '=', key)
      .execute();
    expect(queued).toHaveLength(1);
  });
});

describe('share size', () => {
  it('keeps the decoded size of a payload whatever its padding', async () => {
    const { user } = await owner();
    for (const n of [300, 301, 302]) {
      const made = shareRequest('text', null, { payload: randomBytes(n).toString('base64') });
      expect((await created(user, made)).size).toBe(n);
    }
  });
});
