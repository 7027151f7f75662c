// The public routes of a share link (issue 29, public.routes.ts): info and open with the right
// token, the one 404 for every link that cannot be used, the atomic open counter under
// concurrency, the download token and Range, the rate limit, the headers of /s/ and /api/s/,
// and logs that never hold a token.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  SHARE_DOWNLOAD_SECONDS,
  shareDownloadResponseSchema,
  shareInfoSchema,
  sharePayloadResponseSchema,
  shareUnavailableMessage,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createFilesVault, fakeCiphertext, setPlan } from '../testing/files.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { SHARE_RATE_LIMIT } from './public.routes.ts';
import {
  createShare,
  freshIp,
  newAccessToken,
  newShareId,
  publicRequest,
  putContent,
  shareRequest,
  type Made,
} from './shares.testkit.ts';
import { downloadToken } from './tokens.ts';

let t: TestApp;
let user: TestUser;
let files: string;
let secrets: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t, { name: 'Ada Lovelace' });
  await setPlan(t, user.id, 'unlimited');
  await t.db.kysely
    .updateTable('profiles')
    .set({ full_name: 'Ada Lovelace' })
    .where('id', '=', user.id)
    .execute();
  files = await createFilesVault(t, user.id);
  secrets = await createFilesVault(t, user.id, { vault_type: 'secrets' });
});
afterAll(() => t.close());

async function made(m: Made): Promise<Made> {
  const res = await createShare(t, user.cookie, m.body);
  expect(res.status).toBe(201);
  return m;
}

async function fileLink(bytes: Uint8Array, over: Record<string, unknown> = {}) {
  const m = await made(shareRequest('file', files, { ciphertext_size: bytes.length, ...over }));
  expect((await putContent(t, user.cookie, m.body.id, bytes)).status).toBe(204);
  return m;
}

const info = (m: Made, token = m.token, ip = freshIp()) =>
  publicRequest(t, `/api/s/${m.body.id}`, { token, ip });
const open = (m: Made, token = m.token, ip = freshIp()) =>
  publicRequest(t, `/api/s/${m.body.id}/open`, { method: 'POST', token, ip });
const content = (id: string, download: string, opts: { range?: string; method?: string } = {}) =>
  publicRequest(t, `/api/s/${id}/content`, { download, ip: freshIp(), ...opts });

/** Checks the one 404 and returns its body less the request's id, which every answer has its own. */
async function expectUnavailable(res: Response, what: string) {
  expect(res.status, what).toBe(404);
  const body = JSON.parse(await res.text()) as { error: { requestId?: unknown } };
  expect(body.error.requestId, what).toBe(res.headers.get('x-request-id'));
  delete body.error.requestId;
  expect(body, what).toEqual({
    error: { code: 'not_found', message: shareUnavailableMessage },
  });
  return JSON.stringify(body);
}

describe('info and open', () => {
  it('shows what a link is without counting an open, and opens a secret with its payload', async () => {
    const m = await made(shareRequest('secret', secrets, { max_opens: 2 }));
    const res = await info(m);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(shareInfoSchema.parse(await res.json())).toEqual({
      kind: 'secret',
      size: 600,
      owner_name: 'Ada Lovelace',
      expires_at: new Date(t.clock.now.getTime() + 7 * 86_400_000).toISOString(),
      opens_left: 2,
      kdf: null,
      enc_note: m.body.enc_note,
      enc_meta: m.body.enc_meta,
      wrapped_key: null,
    });
    expect(shareInfoSchema.parse(await (await info(m)).json()).opens_left).toBe(2);
    const opened = await open(m);
    expect(opened.status).toBe(200);
    const payload = 'payload' in m.body ? m.body.payload : '';
    expect(sharePayloadResponseSchema.parse(await opened.json())).toEqual({ payload });
    expect(shareInfoSchema.parse(await (await info(m)).json()).opens_left).toBe(1);
  });

  it('opens a text link with no limit any number of times', async () => {
    const m = await made(shareRequest('text', null));
    for (let i = 0; i < 3; i++) expect((await open(m)).status).toBe(200);
    expect(shareInfoSchema.parse(await (await info(m)).json())).toMatchObject({
      kind: 'text',
      opens_left: null,
    });
  });

  it('opens a file link with a download token that serves the ciphertext, whole or by Range', async () => {
    const bytes = fakeCiphertext(600_000);
    const m = await fileLink(bytes);
    const i = shareInfoSchema.parse(await (await info(m)).json());
    expect(i).toMatchObject({ kind: 'file', size: bytes.length });
    expect(i.wrapped_key).toBe('wrapped_key' in m.body ? m.body.wrapped_key : null);
    const opened = await open(m);
    const { download, expires_in } = shareDownloadResponseSchema.parse(await opened.json());
    expect(expires_in).toBe(SHARE_DOWNLOAD_SECONDS);
    const whole = await content(m.body.id, download);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await content(m.body.id, download, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await content(m.body.id, download, { range: 'bytes=-10' });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true);
    const beyond = await content(m.body.id, download, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    const head = await content(m.body.id, download, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    // Many reads of one download: one open.
    expect(shareInfoSchema.parse(await (await info(m)).json()).opens_left).toBeNull();
    const row = await t.db.kysely
      .selectFrom('share_links')
      .select('opens')
      .where('id', '=', m.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.opens)).toBe(1);
  });

  it('refuses a download token that expired, of another link, forged or missing', async () => {
    const bytes = fakeCiphertext(2000);
    const a = await fileLink(bytes);
    const b = await fileLink(bytes);
    const { download } = shareDownloadResponseSchema.parse(await (await open(a)).json());
    const bodies = new Set<string>();
    bodies.add(await expectUnavailable(await content(b.body.id, download), 'another link'));
    bodies.add(await expectUnavailable(await content(a.body.id, ''), 'none'));
    const [exp, mac] = download.split('.');
    bodies.add(
      await expectUnavailable(await content(a.body.id, `${Number(exp) + 600}.${mac}`), 'later'),
    );
    bodies.add(
      await expectUnavailable(
        await content(a.body.id, downloadToken('another secret', a.body.id, t.clock.now, 600)),
        'forged',
      ),
    );
    expect((await content(a.body.id, download)).status).toBe(200);
    const at = t.clock.now;
    t.clock.now = new Date(at.getTime() + (SHARE_DOWNLOAD_SECONDS + 1) * 1000);
    try {
      bodies.add(await expectUnavailable(await content(a.body.id, download), 'expired'));
    } finally {
      t.clock.now = at;
    }
    expect(bodies.size).toBe(1);
  });
});

describe('the one answer for a link that cannot be used', () => {
  it('answers the same 404 body for unknown, malformed, wrong token, expired, revoked, used-up and incomplete links', async () => {
    const bodies = new Set<string>();
    const check = async (what: string, id: string, token: string) => {
      for (const res of [
        await publicRequest(t, `/api/s/${id}`, { token, ip: freshIp() }),
        await publicRequest(t, `/api/s/${id}/open`, { method: 'POST', token, ip: freshIp() }),
      ]) {
        bodies.add(await expectUnavailable(res, what));
      }
    };
    const good = await made(shareRequest('text', null));
    await check('unknown id', newShareId(), newAccessToken());
    await check('malformed id', 'not-a-share-id', good.token);
    await check('malformed id with dots', '..%2F..%2Fetc', good.token);
    await check('wrong token', good.body.id, newAccessToken());
    await check('malformed token', good.body.id, 'short');
    await check('no token', good.body.id, '');
    const noHeader = await publicRequest(t, `/api/s/${good.body.id}`, { ip: freshIp() });
    bodies.add(await expectUnavailable(noHeader, 'no header'));

    const expiring = await made(shareRequest('text', null, { expires_in: '1h' }));
    const at = t.clock.now;
    t.clock.now = new Date(at.getTime() + 3_600_000);
    try {
      await check('expired', expiring.body.id, expiring.token);
    } finally {
      t.clock.now = at;
    }

    const revoked = await made(shareRequest('text', null));
    expect((await send(t, user.cookie, 'DELETE', `/api/shares/${revoked.body.id}`)).status).toBe(
      204,
    );
    await check('revoked', revoked.body.id, revoked.token);

    const once = await made(shareRequest('secret', secrets, { max_opens: 1 }));
    expect((await open(once)).status).toBe(200);
    await check('used up', once.body.id, once.token);

    const incomplete = await made(shareRequest('file', files));
    await check('incomplete file', incomplete.body.id, incomplete.token);

    // Anything else under /api/s reads the same.
    bodies.add(
      await expectUnavailable(
        await publicRequest(t, `/api/s/${good.body.id}/other`, { ip: freshIp() }),
        'other path',
      ),
    );
    expect(bodies.size).toBe(1);
    // The good link itself still answers.
    expect((await info(good)).status).toBe(200);
  });
});

describe('the open counter', () => {
  it('lets exactly 5 of 20 concurrent opens of a link with max_opens 5 succeed', async () => {
    const m = await made(shareRequest('secret', secrets, { max_opens: 5 }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => open(m, m.token, `2001:db8:20::${i + 1}`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 404)).toHaveLength(15);
    const row = await t.db.kysely
      .selectFrom('share_links')
      .select(['opens', 'used_up_at'])
      .where('id', '=', m.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.opens)).toBe(5);
    expect(row.used_up_at).toBe(t.clock.now.toISOString());
  });

  it('lets exactly 5 of 20 concurrent opens of a file link succeed, each with a download token', async () => {
    const m = await fileLink(fakeCiphertext(1000), { max_opens: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => open(m, m.token, `2001:db8:21::${i + 1}`)),
    );
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(5);
    for (const r of ok)
      expect(shareDownloadResponseSchema.safeParse(await r.json()).success).toBe(true);
  });
});

describe('the rate limit', () => {
  it(`answers 429 with Retry-After past ${SHARE_RATE_LIMIT.max} requests a minute from one address, and not for another`, async () => {
    const m = await made(shareRequest('text', null));
    const ip = freshIp();
    for (let i = 0; i < SHARE_RATE_LIMIT.max; i++) {
      const res = await info(m, m.token, ip);
      expect(res.status).toBe(200);
    }
    const refused = await info(m, m.token, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('rate_limited');
    // Unknown ids spend from the same budget (probing costs as much as opening).
    expect((await publicRequest(t, `/api/s/${newShareId()}`, { ip })).status).toBe(429);
    expect((await info(m, m.token, freshIp())).status).toBe(200);
    const at = t.clock.now;
    t.clock.now = new Date(at.getTime() + 61_000);
    try {
      expect((await info(m, m.token, ip)).status).toBe(200);
    } finally {
      t.clock.now = at;
    }
  });
});

describe('headers and logs', () => {
  it('serves /s/<id> as the app page with the strict CSP, no referrer and noindex; /api/s/ too', async () => {
    const web = t.config.webDist;
    fs.mkdirSync(web, { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    const page = await t.request(`/s/${newShareId()}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const api = await publicRequest(t, `/api/s/${newShareId()}`, { ip: freshIp() });
    for (const res of [page, api]) {
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
    // Other pages are not marked noindex.
    expect((await t.request('/dashboard')).headers.get('x-robots-tag')).toBeNull();
  });

  it('never logs an access token, a download token, nor anything of a body', async () => {
    const bytes = fakeCiphertext(3000);
    const m = await fileLink(bytes);
    const s = await made(shareRequest('secret', secrets));
    const { download } = shareDownloadResponseSchema.parse(await (await open(m)).json());
    expect((await content(m.body.id, download)).status).toBe(200);
    expect((await open(s)).status).toBe(200);
    expect((await open(s, newAccessToken())).status).toBe(404);
    const logs = t.logs();
    expect(logs).toContain(`/api/s/${m.body.id}/open`);
    for (const secret of [
      m.token,
      s.token,
      download,
      download.split('.')[1]!,
      m.body.access_hash,
      m.body.enc_meta,
      'payload' in s.body ? s.body.payload : '',
      s.body.owner_key!,
      s.body.enc_note!,
      Buffer.from(bytes.subarray(100, 140)).toString('base64'),
    ]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(logs).not.toContain(secret);
    }
  });
});
