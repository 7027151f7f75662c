// The Google Drive emulator, driven by Google's own Node SDK (@googleapis/drive) where the SDK has
// the call, and by raw fetch for what a browser does by hand: the token flow in a popup, resumable
// upload sessions (the SDK uploads media only as multipart or simple uploads), Range downloads,
// error shapes and CORS.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { auth as googleAuth, drive as googleDrive } from '@googleapis/drive';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGoogleDriveEmulator, type GoogleDriveEmulator } from './googledrive.ts';

const CLIENT_ID = 'sealvault-test.apps.googleusercontent.com';
const SCOPE = 'https://www.googleapis.com/auth/drive.file';
const REDIRECT = 'http://127.0.0.1:5173/google-auth';
const FOLDER = 'application/vnd.google-apps.folder';
const KiB = 1024;
const MiB = 1024 * KiB;

let emu: GoogleDriveEmulator;

beforeAll(async () => {
  emu = await startGoogleDriveEmulator();
});
afterAll(async () => {
  await emu.stop();
});
beforeEach(async () => {
  browser = { cookie: '' };
  await control('POST', 'reset');
});

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.origin}/__emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `control ${method} ${path}`).toBe(true);
  return res.headers.get('content-type')?.startsWith('application/json')
    ? res.json()
    : res.arrayBuffer();
}

async function stats(): Promise<Record<string, number>> {
  return ((await control('GET', 'stats')) as { requests: Record<string, number> }).requests;
}

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(emu.oauthUrl);
  const defaults = {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT,
    response_type: 'token',
    scope: SCOPE,
  };
  for (const [k, v] of Object.entries({ ...defaults, ...params })) url.searchParams.set(k, v);
  return url.href;
}

/** A browser's cookie jar at the consent screen: one Google sign-in. */
interface Browser {
  cookie: string;
}
let browser: Browser = { cookie: '' };

/** Follows the popup's first hop and answers the redirect fragment's parameters. */
async function authorize(
  params: Record<string, string> = {},
  from: Browser = browser,
): Promise<URLSearchParams> {
  const res = await fetch(authorizeUrl(params), {
    redirect: 'manual',
    headers: from.cookie ? { cookie: from.cookie } : {},
  });
  const set = res.headers.get('set-cookie');
  if (set) from.cookie = set.split(';')[0]!;
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  return new URLSearchParams(location.hash.slice(1));
}

async function signIn(clientId = CLIENT_ID): Promise<string> {
  const fragment = await authorize({ client_id: clientId, state: 's' });
  return fragment.get('access_token')!;
}

const api = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${emu.apiUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
  });

function multipartBody(metadata: object, media: Buffer, type = 'application/octet-stream') {
  const boundary = `b${crypto.randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n`),
    Buffer.from(JSON.stringify(metadata)),
    Buffer.from(`\r\n--${boundary}\r\nContent-Type: ${type}\r\n\r\n`),
    media,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

async function uploadMultipart(token: string, metadata: object, media: Buffer) {
  const { body, contentType } = multipartBody(metadata, media);
  const res = await api(token, '/upload/drive/v3/files?uploadType=multipart&fields=id,name,size', {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
  return res;
}

async function startSession(token: string, metadata: object, size: number): Promise<string> {
  const res = await api(
    token,
    '/upload/drive/v3/files?uploadType=resumable&fields=id,name,size,sha256Checksum',
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=UTF-8',
        'X-Upload-Content-Type': 'application/octet-stream',
        'X-Upload-Content-Length': String(size),
      },
      body: JSON.stringify(metadata),
    },
  );
  expect(res.status).toBe(200);
  return res.headers.get('location')!;
}

const putChunk = (session: string, bytes: Buffer, start: number, total: number | '*') =>
  fetch(session, {
    method: 'PUT',
    headers: { 'Content-Range': `bytes ${start}-${start + bytes.length - 1}/${total}` },
    body: new Uint8Array(bytes),
  });

const queryStatus = (session: string, total: number) =>
  fetch(session, { method: 'PUT', headers: { 'Content-Range': `bytes */${total}` } });

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('the official SDK (@googleapis/drive) against the emulator', () => {
  it('creates a folder, uploads into it, lists it page by page, reads and deletes', async () => {
    const token = await signIn();
    const oauth = new googleAuth.OAuth2({ clientId: CLIENT_ID });
    oauth.setCredentials({ access_token: token });
    const drive = googleDrive({ version: 'v3', rootUrl: `${emu.origin}/`, auth: oauth });

    const folder = await drive.files.create({
      requestBody: { name: 'SealVault - Family', mimeType: FOLDER },
      fields: 'id,name,mimeType,parents',
    });
    expect(folder.data).toMatchObject({ name: 'SealVault - Family', mimeType: FOLDER });
    const folderId = folder.data.id!;

    const ciphertexts = [0, 1, 2, 3, 4].map((i) => crypto.randomBytes(1000 + i));
    for (const [i, bytes] of ciphertexts.entries()) {
      // The SDK builds the media upload URL from the per-call rootUrl only: the global one
      // is not applied to it (googleapis-common rewrites options.url, not mediaUrl).
      const created = await drive.files.create(
        {
          requestBody: { name: `blob-${i}`, parents: [folderId] },
          media: { mimeType: 'application/octet-stream', body: Readable.from([bytes]) },
          fields: 'id,name,size,md5Checksum,sha256Checksum,parents',
        },
        { rootUrl: `${emu.origin}/` },
      );
      expect(created.data).toEqual({
        id: expect.any(String) as string,
        name: `blob-${i}`,
        size: String(bytes.length),
        md5Checksum: crypto.createHash('md5').update(bytes).digest('hex'),
        sha256Checksum: sha256(bytes),
        parents: [folderId],
      });
    }
    // The SDK's media upload is a multipart upload.
    expect((await stats())['files.create(multipart)']).toBe(5);

    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await drive.files.list({
        q: `'${folderId}' in parents and trashed = false`,
        pageSize: 2,
        fields: 'nextPageToken, files(id, name, size)',
        ...(pageToken ? { pageToken } : {}),
      });
      names.push(...page.data.files!.map((f) => f.name!));
      pageToken = page.data.nextPageToken ?? undefined;
      pages++;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(names).toEqual(['blob-0', 'blob-1', 'blob-2', 'blob-3', 'blob-4']);

    const found = await drive.files.list({
      q: `'${folderId}' in parents and name = 'blob-3' and trashed = false`,
      fields: 'files(id,size)',
    });
    expect(found.data.files).toHaveLength(1);
    const id = found.data.files![0]!.id!;

    const meta = await drive.files.get({ fileId: id, fields: 'id,name,size,sha256Checksum' });
    expect(meta.data).toMatchObject({
      name: 'blob-3',
      size: '1003',
      sha256Checksum: sha256(ciphertexts[3]!),
    });
    const media = await drive.files.get(
      { fileId: id, alt: 'media' },
      { responseType: 'arraybuffer' },
    );
    expect(Buffer.from(media.data as unknown as ArrayBuffer).equals(ciphertexts[3]!)).toBe(true);

    await drive.files.delete({ fileId: folderId });
    await expect(drive.files.get({ fileId: id })).rejects.toMatchObject({ status: 404 });

    const about = await drive.about.get({ fields: 'storageQuota' });
    expect(about.data.storageQuota).toMatchObject({ usage: '0', usageInDrive: '0' });
  });
});

describe('OAuth 2.0 token flow for browser apps', () => {
  it('redirects to the app with a token, its lifetime, the scope and the state in the fragment', async () => {
    const fragment = await authorize({
      state: 'xyz-123',
      include_granted_scopes: 'true',
      login_hint: 'a@b.c',
    });
    expect(fragment.get('access_token')).toMatch(/^ya29\./);
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('expires_in')).toBe('3599');
    expect(fragment.get('scope')).toBe(SCOPE);
    expect(fragment.get('state')).toBe('xyz-123');
  });

  it('answers prompt=none with interaction_required before a grant, and silently after one', async () => {
    const first = await authorize({ prompt: 'none', state: 'silent' });
    expect(first.get('error')).toBe('interaction_required');
    expect(first.get('state')).toBe('silent');
    expect(first.has('access_token')).toBe(false);

    await authorize({ state: 'popup' });
    const again = await authorize({ prompt: 'none', state: 'silent-2' });
    expect(again.get('access_token')).toMatch(/^ya29\./);
    expect(again.get('state')).toBe('silent-2');

    await control('POST', 'grants/forget');
    expect((await authorize({ prompt: 'none' })).get('error')).toBe('interaction_required');
  });

  it('answers access_denied when the user refuses', async () => {
    await control('POST', 'authorize/deny-next');
    const denied = await authorize({ state: 'd' });
    expect(Object.fromEntries(denied)).toEqual({ error: 'access_denied', state: 'd' });
    expect((await authorize()).get('access_token')).toBeTruthy();
  });

  it('shows a 400 error page for a missing parameter or an unsupported response_type', async () => {
    const noClient = await fetch(authorizeUrl({ client_id: '' }), { redirect: 'manual' });
    expect(noClient.status).toBe(400);
    expect(await noClient.text()).toContain('invalid_request');
    const code = await fetch(authorizeUrl({ response_type: 'code' }), { redirect: 'manual' });
    expect(code.status).toBe(400);
    expect(await code.text()).toContain('unsupported_response_type');
  });

  it('revokes a token: the API answers 401 and the grant is gone', async () => {
    const token = await signIn();
    expect((await api(token, '/drive/v3/files')).status).toBe(200);
    const revoked = await fetch(emu.revokeUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    const res = await api(token, '/drive/v3/files');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: {
        code: 401,
        status: 'UNAUTHENTICATED',
        errors: [{ domain: 'global', reason: 'authError' }],
      },
    });
    expect((await authorize({ prompt: 'none' })).get('error')).toBe('interaction_required');

    const again = await fetch(`${emu.revokeUrl}?token=${token}`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_token' });
  });

  it("revokes one browser's sign-in only: another browser's token and grant stay", async () => {
    const other: Browser = { cookie: '' };
    const mine = (await authorize()).get('access_token')!;
    const theirs = (await authorize({}, other)).get('access_token')!;
    expect(browser.cookie).not.toBe(other.cookie);
    const revoked = await fetch(emu.revokeUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: mine }),
    });
    expect(revoked.status).toBe(200);
    expect((await api(mine, '/drive/v3/files')).status).toBe(401);
    expect((await api(theirs, '/drive/v3/files')).status).toBe(200);
    expect((await authorize({ prompt: 'none' })).get('error')).toBe('interaction_required');
    expect((await authorize({ prompt: 'none' }, other)).get('access_token')).toMatch(/^ya29\./);
  });

  it('lets a token expire: 401 authError', async () => {
    await control('POST', 'token-lifetime', { seconds: 60 });
    const fragment = await authorize();
    expect(fragment.get('expires_in')).toBe('60');
    const token = fragment.get('access_token')!;
    expect((await api(token, '/drive/v3/about?fields=user')).status).toBe(200);
    await control('POST', 'tokens/expire');
    const res = await api(token, '/drive/v3/about?fields=user');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await res.json()).toMatchObject({
      error: { errors: [{ reason: 'authError', location: 'Authorization' }] },
    });
  });

  it('answers 401 required without a token', async () => {
    const res = await fetch(`${emu.apiUrl}/drive/v3/files`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { errors: [{ reason: 'required' }] } });
  });
});

describe('Drive v3 over raw HTTP', () => {
  it('resumes a several-MiB upload after a dropped connection, from the status query', async () => {
    const token = await signIn();
    const data = crypto.randomBytes(5 * MiB + 12_345);
    const session = await startSession(token, { name: 'big.bin' }, data.length);
    expect(new URL(session).searchParams.get('upload_id')).toBeTruthy();

    const first = await putChunk(session, data.subarray(0, 2 * MiB), 0, data.length);
    expect(first.status).toBe(308);
    expect(first.headers.get('range')).toBe(`bytes=0-${2 * MiB - 1}`);

    // The next chunk's connection dies after 300 KiB: only whole 256 KiB units are kept.
    await control('POST', 'faults', {
      pathPrefix: '/upload/drive/v3/files',
      method: 'PUT',
      drop: true,
      dropAfterBytes: 300 * KiB,
    });
    await expect(
      putChunk(session, data.subarray(2 * MiB, 4 * MiB), 2 * MiB, data.length),
    ).rejects.toThrow();

    const status = await queryStatus(session, data.length);
    expect(status.status).toBe(308);
    const held = Number(/^bytes=0-(\d+)$/.exec(status.headers.get('range')!)![1]) + 1;
    expect(held).toBe(2 * MiB + 256 * KiB);

    // A chunk that starts past what the server holds is refused, as the live service does.
    const gap = await putChunk(
      session,
      data.subarray(held + 256 * KiB),
      held + 256 * KiB,
      data.length,
    );
    expect(gap.status).toBe(503);
    expect(await gap.text()).toContain('exceeds already uploaded size');

    const done = await putChunk(session, data.subarray(held), held, data.length);
    expect(done.status).toBe(200);
    const file = (await done.json()) as { id: string; size: string; sha256Checksum: string };
    expect(file).toMatchObject({
      name: 'big.bin',
      size: String(data.length),
      sha256Checksum: sha256(data),
    });

    const listed = (await control('GET', 'files')) as { files: { id: string; sha256: string }[] };
    expect(listed.files.find((f) => f.id === file.id)?.sha256).toBe(sha256(data));
    const raw = Buffer.from((await control('GET', `files/${file.id}/content`)) as ArrayBuffer);
    expect(raw.equals(data)).toBe(true);

    const counted = await stats();
    expect(counted['files.create(resumable)']).toBe(1);
    expect(counted['upload.chunk']).toBe(5);
  });

  it('answers 308 without Range before any byte, skips bytes it holds, and finishes on a status query', async () => {
    const token = await signIn();
    const data = crypto.randomBytes(512 * KiB);
    const session = await startSession(token, { name: 'twice.bin' }, data.length);
    const empty = await queryStatus(session, data.length);
    expect(empty.status).toBe(308);
    expect(empty.headers.get('range')).toBeNull();

    expect((await putChunk(session, data.subarray(0, 256 * KiB), 0, data.length)).status).toBe(308);
    // The whole file again from 0 (a client that lost the answer): the held part is skipped.
    await control('POST', 'faults', {
      pathPrefix: '/upload/',
      method: 'PUT',
      drop: true,
      dropAfterBytes: 10 * MiB,
    });
    await expect(putChunk(session, data, 0, data.length)).rejects.toThrow();
    // The bytes all arrived; only the answer was lost. The status query answers the file.
    const status = await queryStatus(session, data.length);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      name: 'twice.bin',
      size: String(data.length),
      sha256Checksum: sha256(data),
    });
  });

  it('serves a byte range with 206 and Content-Range, and 416 past the end', async () => {
    const token = await signIn();
    const data = crypto.randomBytes(4096);
    const { id } = (await (await uploadMultipart(token, { name: 'r.bin' }, data)).json()) as {
      id: string;
    };
    const part = await api(token, `/drive/v3/files/${id}?alt=media`, {
      headers: { Range: 'bytes=100-199' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/4096');
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
    const tail = await api(token, `/drive/v3/files/${id}?alt=media`, {
      headers: { Range: 'bytes=-10' },
    });
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(4086))).toBe(true);
    const past = await api(token, `/drive/v3/files/${id}?alt=media`, {
      headers: { Range: 'bytes=5000-' },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */4096');
  });

  it('answers 404 notFound in Google’s shape, also for another client’s files (drive.file)', async () => {
    const token = await signIn();
    const res = await api(token, '/drive/v3/files/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        code: 404,
        message: 'File not found: nope.',
        errors: [
          {
            domain: 'global',
            reason: 'notFound',
            message: 'File not found: nope.',
            location: 'fileId',
            locationType: 'parameter',
          },
        ],
      },
    });
    const { id } = (await (
      await uploadMultipart(token, { name: 'mine' }, Buffer.from('x'))
    ).json()) as { id: string };
    const other = await signIn('other-app.apps.googleusercontent.com');
    expect((await api(other, `/drive/v3/files/${id}`)).status).toBe(404);
    const list = (await (await api(other, '/drive/v3/files')).json()) as { files: unknown[] };
    expect(list.files).toEqual([]);
  });

  it('answers 403 storageQuotaExceeded when the quota is full, and reports the quota', async () => {
    const token = await signIn();
    await control('POST', 'quota', { bytes: 1000 });
    expect((await uploadMultipart(token, { name: 'a' }, Buffer.alloc(600))).status).toBe(200);
    const full = await uploadMultipart(token, { name: 'b' }, Buffer.alloc(600));
    expect(full.status).toBe(403);
    expect(await full.json()).toMatchObject({
      error: { code: 403, errors: [{ reason: 'storageQuotaExceeded', domain: 'usageLimits' }] },
    });
    const resumable = await api(token, '/upload/drive/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Upload-Content-Length': '600' },
      body: '{"name":"c"}',
    });
    expect(resumable.status).toBe(403);
    const about = await api(token, '/drive/v3/about?fields=storageQuota(limit,usage,usageInDrive)');
    expect(await about.json()).toEqual({
      storageQuota: { limit: '1000', usage: '600', usageInDrive: '600' },
    });
  });

  it('answers 429 rateLimitExceeded with Retry-After, then recovers', async () => {
    const token = await signIn();
    await control('POST', 'faults', { pathPrefix: '/drive/v3/files', status: 429, retryAfterS: 7 });
    const limited = await api(token, '/drive/v3/files');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({
      error: { code: 429, errors: [{ reason: 'rateLimitExceeded' }] },
    });
    expect((await api(token, '/drive/v3/files')).status).toBe(200);

    await control('POST', 'faults', { pathPrefix: '/drive/v3/about', status: 503 });
    const down = await api(token, '/drive/v3/about?fields=user');
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { errors: [{ reason: 'backendError' }] } });
  });

  it('finds files by parent and an escaped name, and rejects a query it cannot parse', async () => {
    const token = await signIn();
    const create = async (body: object) =>
      (await (
        await api(token, '/drive/v3/files', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json' },
        })
      ).json()) as { id: string };
    const folder = await create({ name: "SealVault - Bob's vault", mimeType: FOLDER });
    await create({ name: "it's here", parents: [folder.id] });
    await create({ name: 'other', parents: [folder.id] });
    const q = encodeURIComponent(
      `'${folder.id}' in parents and name = 'it\\'s here' and trashed = false`,
    );
    const found = (await (
      await api(token, `/drive/v3/files?q=${q}&fields=files(name,parents)`)
    ).json()) as { files: object[] };
    expect(found.files).toEqual([{ name: "it's here", parents: [folder.id] }]);
    const folders = encodeURIComponent(
      `mimeType = '${FOLDER}' and name = 'SealVault - Bob\\'s vault'`,
    );
    const byType = (await (await api(token, `/drive/v3/files?q=${folders}`)).json()) as {
      files: { id: string }[];
    };
    expect(byType.files.map((f) => f.id)).toEqual([folder.id]);
    const bad = await api(token, `/drive/v3/files?q=${encodeURIComponent("name = 'unterminated")}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { errors: [{ reason: 'invalid', location: 'q' }] },
    });
  });

  it('answers only the fields asked for, and 400 for a field Drive does not have', async () => {
    const token = await signIn();
    const data = Buffer.from('ciphertext');
    const { id } = (await (await uploadMultipart(token, { name: 'f' }, data)).json()) as {
      id: string;
    };
    const byDefault: unknown = await (await api(token, `/drive/v3/files/${id}`)).json();
    expect(byDefault).toEqual({
      kind: 'drive#file',
      id,
      name: 'f',
      mimeType: 'application/octet-stream',
    });
    const fields = encodeURIComponent('nextPageToken, files(id, size), files/parents');
    const listed = (await (await api(token, `/drive/v3/files?fields=${fields}`)).json()) as object;
    expect(listed).toEqual({
      files: [{ id, size: String(data.length), parents: [expect.any(String)] }],
    });
    const wrong = await api(token, `/drive/v3/files/${id}?fields=id,sizeInBytes`);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: { errors: [{ reason: 'invalidParameter', location: 'fields' }] },
    });
    const aboutWithout = await api(token, '/drive/v3/about');
    expect(aboutWithout.status).toBe(400);
  });

  it('answers 200 with X-HTTP-Status-Code-Override: 308 to a client that asks for no 308', async () => {
    const token = await signIn();
    const data = crypto.randomBytes(300 * KiB);
    const session = await startSession(token, { name: 'no308.bin' }, data.length);
    const res = await fetch(session, {
      method: 'PUT',
      headers: { 'Content-Range': `bytes 0-${256 * KiB - 1}/*`, 'X-GUploader-No-308': 'yes' },
      body: new Uint8Array(data.subarray(0, 256 * KiB)),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-http-status-code-override')).toBe('308');
    expect(res.headers.get('range')).toBe(`bytes=0-${256 * KiB - 1}`);
    // A non-final chunk that is not a multiple of 256 KiB: only whole units are kept.
    const odd = await putChunk(session, data.subarray(256 * KiB, 256 * KiB + 1000), 256 * KiB, '*');
    expect(odd.status).toBe(308);
    expect(odd.headers.get('range')).toBe(`bytes=0-${256 * KiB - 1}`);
  });

  it('cancels a session with DELETE (499), after which the session URI is gone (404)', async () => {
    const token = await signIn();
    const session = await startSession(token, { name: 'cancelled' }, 10);
    expect((await fetch(session, { method: 'DELETE' })).status).toBe(499);
    expect((await queryStatus(session, 10)).status).toBe(404);
  });

  it('refuses to download a folder, and deletes a folder with everything in it', async () => {
    const token = await signIn();
    const post = (body: object) =>
      api(token, '/drive/v3/files', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const folder = await post({ name: 'vault', mimeType: FOLDER });
    const inner = await post({ name: 'inner', mimeType: FOLDER, parents: [folder.id] });
    const leaf = (await (
      await uploadMultipart(token, { name: 'leaf', parents: [inner.id] }, Buffer.from('x'))
    ).json()) as { id: string };
    const media = await api(token, `/drive/v3/files/${folder.id}?alt=media`);
    expect(media.status).toBe(403);
    expect(await media.json()).toMatchObject({
      error: { errors: [{ reason: 'fileNotDownloadable' }] },
    });
    expect((await api(token, `/drive/v3/files/${folder.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await api(token, `/drive/v3/files/${leaf.id}`)).status).toBe(404);
    expect(((await control('GET', 'files')) as { files: unknown[] }).files).toEqual([]);
  });

  it('drops a download mid-body, and the rest comes with a Range request', async () => {
    const token = await signIn();
    const data = crypto.randomBytes(2 * MiB);
    const { id } = (await (await uploadMultipart(token, { name: 'd' }, data)).json()) as {
      id: string;
    };
    await control('POST', 'faults', {
      pathPrefix: `/drive/v3/files/${id}`,
      drop: true,
      dropAfterBytes: 100 * KiB,
    });
    const res = await api(token, `/drive/v3/files/${id}?alt=media`);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    const rest = await api(token, `/drive/v3/files/${id}?alt=media`, {
      headers: { Range: `bytes=${100 * KiB}-` },
    });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer()).equals(data.subarray(100 * KiB))).toBe(true);
  });

  it('answers CORS preflights for the upload headers and exposes Location and Range', async () => {
    const res = await fetch(`${emu.apiUrl}/upload/drive/v3/files?uploadType=resumable`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:5173',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,content-range,x-upload-content-length',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    const allowed = res.headers.get('access-control-allow-headers')!;
    for (const h of [
      'authorization',
      'content-range',
      'x-upload-content-length',
      'x-upload-content-type',
      'range',
    ]) {
      expect(allowed).toContain(h);
    }
    const token = await signIn();
    const list = await api(token, '/drive/v3/files', {
      headers: { Origin: 'http://localhost:4000' },
    });
    expect(list.headers.get('access-control-allow-origin')).toBe('http://localhost:4000');
    expect(list.headers.get('access-control-expose-headers')).toMatch(/Location.*Range/);
  });
});
