// The Dropbox emulator, driven by Dropbox's own JS SDK (`dropbox`) wherever the SDK has the call,
// its fetch pointed at the emulator, and by raw fetch for what the web app does by hand or what
// the SDK hides: the OAuth exchanges, error shapes, offsets, ranges, rate limits, CORS and the
// Dropbox-API-Arg encoding rule.
import crypto from 'node:crypto';
import { Dropbox, DropboxAuth, DropboxResponseError } from 'dropbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDropboxEmulator, type DropboxEmulator } from './dropbox.ts';

const CLIENT_ID = 'sealvault-e2e-app-key';
const REDIRECT = 'http://127.0.0.1:5173/dropbox-auth';
const MiB = 1024 * 1024;

let emu: DropboxEmulator;

beforeAll(async () => {
  emu = await startDropboxEmulator();
});
afterAll(async () => {
  await emu.stop();
});
beforeEach(async () => {
  await control('POST', 'reset');
});

async function control<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.origin}/__emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `control ${method} ${route}`).toBe(true);
  return (await res.json()) as T;
}

interface TokenResult {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
  uid?: string;
  account_id?: string;
}

const newToken = (offline = false) => control<TokenResult>('POST', 'tokens', { offline });

interface Stats {
  requests: Record<string, number>;
  log: { method: string; path: string; status: number | 'destroyed' }[];
}
const stats = () => control<Stats>('GET', 'stats');

/** The SDK's requests, sent to the emulator instead of Dropbox's hosts. */
const sdkFetch = async (url: string, init?: RequestInit) => {
  const res = await fetch(
    url.replace(/^https:\/\/(api|content)\.dropboxapi\.com/, emu.origin),
    init,
  );
  // In Node, SDK 10.34 (the last that supports Node 20) reads downloads with node-fetch's buffer().
  return Object.assign(res, { buffer: async () => Buffer.from(await res.arrayBuffer()) });
};

const sdk = (accessToken: string) => new Dropbox({ accessToken, fetch: sdkFetch });

function rpc(accessToken: string, route: string, args: unknown) {
  return fetch(`${emu.apiUrl}/2/${route}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
}

function content(
  accessToken: string,
  route: string,
  args: unknown,
  body?: Uint8Array,
  headers: Record<string, string> = {},
) {
  return fetch(`${emu.contentUrl}/2/${route}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${accessToken}`,
      'Dropbox-API-Arg': JSON.stringify(args),
      ...(body ? { 'Content-Type': 'application/octet-stream' } : {}),
      ...headers,
    },
    // A Buffer is a Uint8Array; fetch's types want one backed by an ArrayBuffer.
    body: body as Uint8Array<ArrayBuffer> | undefined,
  });
}

/** Dropbox's content_hash, written here from its reference page, not taken from the emulator. */
function referenceContentHash(bytes: Uint8Array): string {
  const blockDigests: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 4 * MiB) {
    blockDigests.push(
      crypto
        .createHash('sha256')
        .update(bytes.subarray(at, at + 4 * MiB))
        .digest(),
    );
  }
  return crypto.createHash('sha256').update(Buffer.concat(blockDigests)).digest('hex');
}

const sha256Hex = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('with the official Dropbox SDK', () => {
  it('connects with PKCE through DropboxAuth, then renews an expired token with the refresh token', async () => {
    const auth = new DropboxAuth({ clientId: CLIENT_ID, fetch: sdkFetch });
    const url = await auth.getAuthenticationUrl(
      REDIRECT,
      'state-1',
      'code',
      'offline',
      undefined,
      'none',
      true,
    );
    expect(auth.getCodeVerifier()).toHaveLength(128);
    const approved = await fetch(
      url.replace(/^https:\/\/(www\.)?dropbox\.com\/oauth2\/authorize/, emu.authUrl),
      { redirect: 'manual' },
    );
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-1');

    const exchanged = await auth.getAccessTokenFromCode(REDIRECT, back.searchParams.get('code')!);
    const tokens = exchanged.result as TokenResult;
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 14_400 });
    expect(tokens.refresh_token).toBeTypeOf('string');

    auth.setAccessToken(tokens.access_token);
    auth.setRefreshToken(tokens.refresh_token!);
    auth.setAccessTokenExpiresAt(new Date(Date.now() - 1000));
    await control('POST', 'expire-tokens');
    const usage = await new Dropbox({ auth }).usersGetSpaceUsage();
    expect(usage.result).toEqual({
      used: 0,
      allocation: { '.tag': 'individual', allocated: 2 * 1024 * MiB },
    });
    expect(auth.getAccessToken()).not.toBe(tokens.access_token);
    expect((await stats()).requests['/oauth2/token']).toBe(2);
  });

  it('creates a folder, and answers a second create with path/conflict/folder', async () => {
    const dbx = sdk((await newToken()).access_token);
    const created = await dbx.filesCreateFolderV2({ path: '/SealVault' });
    expect(created.result.metadata).toMatchObject({
      '.tag': 'folder',
      name: 'SealVault',
      path_lower: '/sealvault',
      path_display: '/SealVault',
    });
    expect(created.result.metadata.id).toMatch(/^id:/);

    const again = await dbx.filesCreateFolderV2({ path: '/sealvault' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DropboxResponseError);
    const error = again as DropboxResponseError<unknown>;
    expect(error.status).toBe(409);
    expect(error.error).toEqual({
      error_summary: 'path/conflict/folder/..',
      error: { '.tag': 'path', path: { '.tag': 'conflict', conflict: { '.tag': 'folder' } } },
    });
  });

  it('uploads 9 MiB through an upload session and downloads the same bytes, with the content_hash Dropbox defines', async () => {
    const dbx = sdk((await newToken()).access_token);
    const bytes = crypto.randomBytes(9 * MiB + 123);
    const start = await dbx.filesUploadSessionStart({ contents: bytes.subarray(0, 4 * MiB) });
    const sessionId = start.result.session_id;
    await dbx.filesUploadSessionAppendV2({
      cursor: { session_id: sessionId, offset: 4 * MiB },
      contents: bytes.subarray(4 * MiB, 8 * MiB),
    });
    const finished = await dbx.filesUploadSessionFinish({
      cursor: { session_id: sessionId, offset: 8 * MiB },
      commit: {
        path: '/SealVault/blob.bin',
        mode: { '.tag': 'add' },
        autorename: false,
        mute: true,
      },
      contents: bytes.subarray(8 * MiB),
    });
    expect(finished.result).toMatchObject({
      '.tag': 'file',
      name: 'blob.bin',
      path_display: '/SealVault/blob.bin',
      size: bytes.length,
      content_hash: referenceContentHash(bytes),
    });
    expect(finished.result.rev).toMatch(/^[0-9a-f]{9,}$/);

    const downloaded = await dbx.filesDownload({ path: '/sealvault/BLOB.bin' });
    // In Node the SDK hands back a Buffer as fileBinary (its types do not declare it).
    const { fileBinary } = downloaded.result as unknown as { fileBinary: Buffer };
    const got = Buffer.from(fileBinary);
    expect(got.equals(bytes)).toBe(true);

    const { requests } = await stats();
    expect(requests['/2/files/upload_session/start']).toBe(1);
    expect(requests['/2/files/upload_session/append_v2']).toBe(1);
    expect(requests['/2/files/upload_session/finish']).toBe(1);
    const { files } = await control<{ files: { path_display: string; sha256: string }[] }>(
      'GET',
      'files',
    );
    expect(files).toEqual([
      expect.objectContaining({ path_display: '/SealVault/blob.bin', sha256: sha256Hex(bytes) }),
    ]);
  });

  it('lists a folder across pages with list_folder/continue, then reports a deletion', async () => {
    const dbx = sdk((await newToken()).access_token);
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => `${n}.bin`);
    // filesUpload sends a content_hash of its own, which the emulator checks.
    for (const name of names) {
      await dbx.filesUpload({ path: `/Vault/${name}`, contents: Buffer.from(name) });
    }
    const pages: { count: number; hasMore: boolean }[] = [];
    const seen: string[] = [];
    let page = (await dbx.filesListFolder({ path: '/Vault', limit: 3 })).result;
    for (;;) {
      pages.push({ count: page.entries.length, hasMore: page.has_more });
      seen.push(...page.entries.map((e) => e.name));
      if (!page.has_more) break;
      page = (await dbx.filesListFolderContinue({ cursor: page.cursor })).result;
    }
    expect(pages).toEqual([
      { count: 3, hasMore: true },
      { count: 3, hasMore: true },
      { count: 1, hasMore: false },
    ]);
    expect(seen.sort()).toEqual(names);

    await dbx.filesDeleteV2({ path: '/Vault/c.bin' });
    const changes = (await dbx.filesListFolderContinue({ cursor: page.cursor })).result;
    expect(changes.entries).toEqual([
      {
        '.tag': 'deleted',
        name: 'c.bin',
        path_lower: '/vault/c.bin',
        path_display: '/Vault/c.bin',
      },
    ]);
  });

  it('reads metadata whatever the case of the path, deletes, then answers path/not_found', async () => {
    const dbx = sdk((await newToken()).access_token);
    await dbx.filesUpload({ path: '/Vault/Note.txt', contents: Buffer.from('ciphertext') });
    const meta = await dbx.filesGetMetadata({ path: '/VAULT/note.TXT' });
    expect(meta.result).toMatchObject({
      '.tag': 'file',
      name: 'Note.txt',
      path_lower: '/vault/note.txt',
      path_display: '/Vault/Note.txt',
      size: 10,
    });
    const deleted = await dbx.filesDeleteV2({ path: '/vault/note.txt' });
    expect(deleted.result.metadata).toMatchObject({ '.tag': 'file', name: 'Note.txt' });
    const gone = await dbx.filesGetMetadata({ path: '/Vault/Note.txt' }).catch((e: unknown) => e);
    expect((gone as DropboxResponseError<unknown>).error).toEqual({
      error_summary: 'path/not_found/..',
      error: { '.tag': 'path', path: { '.tag': 'not_found' } },
    });
  });

  it("lets the SDK's session calls go on after a lost answer, from incorrect_offset's correct_offset", async () => {
    const dbx = sdk((await newToken()).access_token);
    const bytes = crypto.randomBytes(10 * MiB);
    const piece = (at: number) => bytes.subarray(at, Math.min(at + 4 * MiB, bytes.length));
    const { session_id } = (await dbx.filesUploadSessionStart({ contents: piece(0) })).result;
    await control('POST', 'faults', {
      path: '/2/files/upload_session/append_v2',
      destroy: 'before-response',
    });
    const cursor = (offset: number) => ({ session_id, offset });
    const lost = await dbx
      .filesUploadSessionAppendV2({ cursor: cursor(4 * MiB), contents: piece(4 * MiB) })
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(Error); // the connection dropped after the bytes were kept
    const again = await dbx
      .filesUploadSessionAppendV2({ cursor: cursor(4 * MiB), contents: piece(4 * MiB) })
      .catch((e: unknown) => e);
    expect((again as DropboxResponseError<unknown>).status).toBe(409);
    const refused = (again as DropboxResponseError<{ error: unknown }>).error.error;
    expect(refused).toEqual({
      '.tag': 'incorrect_offset',
      correct_offset: 8 * MiB,
    });
    const finished = await dbx.filesUploadSessionFinish({
      cursor: cursor(8 * MiB),
      commit: { path: '/Vault/big.bin', mode: { '.tag': 'add' } },
      contents: piece(8 * MiB),
    });
    expect(finished.result.size).toBe(bytes.length);
    expect(finished.result.content_hash).toBe(referenceContentHash(bytes));
    const appends = (await stats()).log.filter((l) => l.path.endsWith('/append_v2'));
    expect(appends.map((l) => l.status)).toEqual(['destroyed', 409]);
  });
});

describe('OAuth over raw HTTP', () => {
  function pkce() {
    const verifier = crypto.randomBytes(96).toString('base64url'); // 128 characters
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    return { verifier, challenge };
  }

  async function authorize(extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const url = new URL(emu.authUrl);
    url.search = new URLSearchParams({
      client_id: CLIENT_ID,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      token_access_type: 'offline',
      state: 's-42',
      redirect_uri: REDIRECT,
      ...extra,
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    return { res, verifier, location: new URL(res.headers.get('location') ?? 'about:blank') };
  }

  const token = (form: Record<string, string>) =>
    fetch(`${emu.apiUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });

  it('refuses the wrong PKCE verifier with invalid_grant, and takes the right one once', async () => {
    const { location, verifier } = await authorize();
    const code = location.searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
    };
    const wrong = await token({ ...form, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'invalid code verifier',
    });

    const otherRedirect = await token({
      ...form,
      code_verifier: verifier,
      redirect_uri: `${REDIRECT}/x`,
    });
    expect(await otherRedirect.json()).toMatchObject({ error: 'invalid_grant' });

    const right = await token({ ...form, code_verifier: verifier });
    expect(right.status).toBe(200);
    const body = (await right.json()) as TokenResult;
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 14_400,
    });
    expect(body.uid).toMatch(/^\d+$/);
    expect(body.account_id).toMatch(/^dbid:/);
    expect(body.refresh_token).toBeTypeOf('string');

    const again = await token({ ...form, code_verifier: verifier });
    expect(await again.json()).toEqual({
      error: 'invalid_grant',
      error_description: "code doesn't exist or has expired",
    });
  });

  it('gives no refresh token without token_access_type=offline', async () => {
    const { location, verifier } = await authorize({ token_access_type: 'online' });
    const res = await token({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
    });
    const body = (await res.json()) as TokenResult;
    expect(body.access_token).toMatch(/^sl\./);
    expect(body).not.toHaveProperty('refresh_token');
  });

  it('answers a 400 page for bad authorize parameters, and denies once when asked', async () => {
    expect((await authorize({ client_id: '' })).res.status).toBe(400);
    expect((await authorize({ redirect_uri: 'http://evil.example/cb' })).res.status).toBe(400);
    expect((await authorize({ code_challenge_method: 'S512' })).res.status).toBe(400);

    await control('POST', 'deny-next-authorize');
    const denied = await authorize();
    expect(denied.res.status).toBe(302);
    expect(denied.location.searchParams.get('error')).toBe('access_denied');
    expect(denied.location.searchParams.get('error_description')).toMatch(/chose not to give/);
    expect(denied.location.searchParams.get('state')).toBe('s-42');
    expect(denied.location.searchParams.has('code')).toBe(false);
    expect((await authorize()).location.searchParams.has('code')).toBe(true);
  });

  it('refreshes: the new access token works, and Dropbox sends no new refresh token', async () => {
    const first = await newToken(true);
    const res = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: 'emulator-app',
    });
    const body = (await res.json()) as TokenResult;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.access_token).not.toBe(first.access_token);
    expect((await rpc(body.access_token, 'users/get_space_usage', null)).status).toBe(200);

    const bad = await token({
      grant_type: 'refresh_token',
      refresh_token: 'nope',
      client_id: 'emulator-app',
    });
    expect(await bad.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes a token and its refresh token with auth/token/revoke', async () => {
    const t = await newToken(true);
    // As the web app does it: no body and no Content-Type.
    const revoked = await fetch(`${emu.apiUrl}/2/auth/token/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.access_token}` },
    });
    expect(revoked.status).toBe(200);
    const after = await rpc(t.access_token, 'users/get_space_usage', null);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      error_summary: 'invalid_access_token/..',
      error: { '.tag': 'invalid_access_token' },
    });
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token!,
      client_id: 'emulator-app',
    });
    expect(refresh.status).toBe(400);
  });

  it('answers 401 expired_access_token once a token has lived its configured lifetime', async () => {
    await control('POST', 'token-lifetime', { seconds: 60 });
    const t = await newToken();
    expect(t.expires_in).toBe(60);
    expect((await rpc(t.access_token, 'users/get_space_usage', null)).status).toBe(200);
    await control('POST', 'expire-tokens');
    const res = await rpc(t.access_token, 'users/get_space_usage', null);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error_summary: 'expired_access_token/..',
      error: { '.tag': 'expired_access_token' },
    });
  });
});

describe('the API over raw HTTP', () => {
  let at: string;
  beforeEach(async () => {
    at = (await newToken()).access_token;
  });

  async function startSession(bytes: Uint8Array) {
    const res = await content(at, 'files/upload_session/start', {}, bytes);
    return ((await res.json()) as { session_id: string }).session_id;
  }

  it('answers 409s in the shapes of the Stone spec', async () => {
    const notFound = { '.tag': 'not_found' };
    const meta = await rpc(at, 'files/get_metadata', { path: '/nope' });
    expect([meta.status, await meta.json()]).toEqual([
      409,
      { error_summary: 'path/not_found/..', error: { '.tag': 'path', path: notFound } },
    ]);
    const del = await rpc(at, 'files/delete_v2', { path: '/nope' });
    expect(await del.json()).toEqual({
      error_summary: 'path_lookup/not_found/..',
      error: { '.tag': 'path_lookup', path_lookup: notFound },
    });
    const dl = await content(at, 'files/download', { path: '/nope' });
    expect([dl.status, await dl.json()]).toEqual([
      409,
      { error_summary: 'path/not_found/..', error: { '.tag': 'path', path: notFound } },
    ]);
    await content(at, 'files/upload', { path: '/file' }, Buffer.from('x'));
    const list = await rpc(at, 'files/list_folder', { path: '/file' });
    expect(await list.json()).toMatchObject({
      error: { '.tag': 'path', path: { '.tag': 'not_folder' } },
    });
    const under = await rpc(at, 'files/create_folder_v2', { path: '/file/sub' });
    expect(await under.json()).toMatchObject({
      error_summary: 'path/conflict/file_ancestor/..',
    });
    const conflict = await content(
      at,
      'files/upload',
      { path: '/FILE', mode: 'add' },
      Buffer.from('y'),
    );
    expect(await conflict.json()).toMatchObject({
      error_summary: 'path/conflict/file/..',
      error: { '.tag': 'path', reason: { '.tag': 'conflict', conflict: { '.tag': 'file' } } },
    });
  });

  it('answers a wrong offset with incorrect_offset and correct_offset (in lookup_failed on finish)', async () => {
    const id = await startSession(Buffer.alloc(10, 1));
    const append = await content(
      at,
      'files/upload_session/append_v2',
      {
        cursor: { session_id: id, offset: 0 },
        close: false,
      },
      Buffer.alloc(5, 2),
    );
    expect(append.status).toBe(409);
    expect(await append.json()).toEqual({
      error_summary: 'incorrect_offset/..',
      error: { '.tag': 'incorrect_offset', correct_offset: 10 },
    });
    const finish = await content(
      at,
      'files/upload_session/finish',
      {
        cursor: { session_id: id, offset: 3 },
        commit: { path: '/f.bin', mode: 'add', autorename: false, mute: true },
      },
      new Uint8Array(0),
    );
    expect(await finish.json()).toEqual({
      error_summary: 'lookup_failed/incorrect_offset/..',
      error: {
        '.tag': 'lookup_failed',
        lookup_failed: { '.tag': 'incorrect_offset', correct_offset: 10 },
      },
    });
    const unknown = await content(
      at,
      'files/upload_session/append_v2',
      {
        cursor: { session_id: 'pid_upload_session:nope', offset: 0 },
      },
      Buffer.alloc(1),
    );
    expect(await unknown.json()).toEqual({
      error_summary: 'not_found/..',
      error: { '.tag': 'not_found' },
    });
  });

  it('keeps nothing of a request whose connection was destroyed mid-body', async () => {
    const id = await startSession(Buffer.alloc(4, 1));
    await control('POST', 'faults', {
      path: '/2/files/upload_session/append_v2',
      destroy: 'mid-body',
      afterBytes: MiB,
    });
    const piece = crypto.randomBytes(4 * MiB);
    const args = { cursor: { session_id: id, offset: 4 }, close: false };
    await expect(content(at, 'files/upload_session/append_v2', args, piece)).rejects.toThrow();
    const retried = await content(at, 'files/upload_session/append_v2', args, piece);
    expect(retried.status).toBe(200);
    const finish = await content(
      at,
      'files/upload_session/finish',
      {
        cursor: { session_id: id, offset: 4 + piece.length },
        commit: { path: '/resumed.bin' },
      },
      new Uint8Array(0),
    );
    expect(((await finish.json()) as { size: number }).size).toBe(4 + piece.length);
  });

  it('answers Range requests with 206 and Content-Range, and 416 past the end', async () => {
    const bytes = Buffer.from('0123456789');
    await content(at, 'files/upload', { path: '/r.bin' }, bytes);
    const part = await content(at, 'files/download', { path: '/r.bin' }, undefined, {
      Range: 'bytes=2-5',
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('2345');
    expect(JSON.parse(part.headers.get('dropbox-api-result')!)).toMatchObject({ size: 10 });
    const tail = await content(at, 'files/download', { path: '/r.bin' }, undefined, {
      Range: 'bytes=-3',
    });
    expect([tail.status, await tail.text()]).toEqual([206, '789']);
    const open = await content(at, 'files/download', { path: '/r.bin' }, undefined, {
      Range: 'bytes=8-',
    });
    expect([open.headers.get('content-range'), await open.text()]).toEqual(['bytes 8-9/10', '89']);
    const past = await content(at, 'files/download', { path: '/r.bin' }, undefined, {
      Range: 'bytes=10-',
    });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */10']);
    const whole = await content(at, 'files/download', { path: '/r.bin' });
    expect([whole.status, await whole.text()]).toEqual([200, '0123456789']);
  });

  it('answers injected 429s with Retry-After and a RateLimitError, for the next N requests only', async () => {
    await control('POST', 'faults', {
      path: '/2/files/list_folder',
      status: 429,
      retryAfter: 3,
      count: 2,
    });
    for (let i = 0; i < 2; i += 1) {
      const res = await rpc(at, 'files/list_folder', { path: '' });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('3');
      expect(await res.json()).toEqual({
        error_summary: 'too_many_requests/..',
        error: { reason: { '.tag': 'too_many_requests' }, retry_after: 3 },
      });
    }
    const ok = await rpc(at, 'files/list_folder', { path: '' });
    expect(await ok.json()).toMatchObject({ entries: [], has_more: false });
  });

  it('answers an injected 503 in plain text, then the endpoint recovers', async () => {
    await control('POST', 'faults', { path: '/2/files/upload*', status: 503, retryAfter: 1 });
    const failed = await content(at, 'files/upload_session/start', {}, Buffer.alloc(1));
    expect([failed.status, failed.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await content(at, 'files/upload_session/start', {}, Buffer.alloc(1))).status).toBe(200);
  });

  it('lets browsers in: preflights allow the Dropbox headers, answers expose Dropbox-API-Result', async () => {
    const preflight = await fetch(`${emu.contentUrl}/2/files/download`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,dropbox-api-arg,range,content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'dropbox-api-arg', 'range', 'content-type']) {
      expect(allowed).toContain(h);
    }
    await content(at, 'files/upload', { path: '/c.bin' }, Buffer.from('c'));
    const res = await content(at, 'files/download', { path: '/c.bin' }, undefined, {
      Origin: 'http://localhost:5173',
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const h of ['dropbox-api-result', 'content-range', 'retry-after'])
      expect(exposed).toContain(h);
    const rejected = await fetch(`${emu.apiUrl}/2/files/list_folder?reject_cors_preflight=true`, {
      method: 'OPTIONS',
    });
    expect(rejected.status).toBe(400);
  });

  it('refuses raw non-ASCII in Dropbox-API-Arg with a 400, and takes it escaped as \\uXXXX', async () => {
    const raw = Buffer.from('{"path":"/café.bin"}', 'utf8').toString('latin1'); // the UTF-8 bytes
    const refused = await fetch(`${emu.contentUrl}/2/files/upload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${at}`,
        'Content-Type': 'application/octet-stream',
        'Dropbox-API-Arg': raw,
      },
      body: Buffer.from('x'),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe(
      'Error in call to API function "files/upload": HTTP header "Dropbox-API-Arg": could not decode input as JSON',
    );
    const escaped = await fetch(`${emu.contentUrl}/2/files/upload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${at}`,
        'Content-Type': 'application/octet-stream',
        'Dropbox-API-Arg': '{"path":"/caf\\u00e9.bin"}',
      },
      body: Buffer.from('x'),
    });
    expect(await escaped.json()).toMatchObject({ name: 'café.bin', path_lower: '/café.bin' });
    const result = await fetch(`${emu.contentUrl}/2/files/download`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${at}`, 'Dropbox-API-Arg': '{"path":"/CAF\\u00c9.bin"}' },
    });
    const header = result.headers.get('dropbox-api-result')!;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toContain('caf\\u00e9.bin');
  });

  it('takes the arg and authorization URL parameters (a GET download without custom headers)', async () => {
    await content(at, 'files/upload', { path: '/q.bin' }, Buffer.from('query'));
    const url = new URL(`${emu.contentUrl}/2/files/download`);
    url.searchParams.set('arg', JSON.stringify({ path: '/q.bin' }));
    url.searchParams.set('authorization', `Bearer ${at}`);
    const res = await fetch(url);
    expect([res.status, await res.text()]).toEqual([200, 'query']);
  });

  it('answers insufficient_space when the quota is full, keeping an upload session to finish later', async () => {
    await control('POST', 'quota', { bytes: 100 });
    const id = await startSession(Buffer.alloc(80));
    const finish = await content(
      at,
      'files/upload_session/finish',
      {
        cursor: { session_id: id, offset: 80 },
        commit: { path: '/big.bin', mode: 'add', autorename: false, mute: true },
      },
      Buffer.alloc(40),
    );
    expect(await finish.json()).toEqual({
      error_summary: 'path/insufficient_space/..',
      error: { '.tag': 'path', path: { '.tag': 'insufficient_space' } },
    });
    const upload = await content(at, 'files/upload', { path: '/up.bin' }, Buffer.alloc(101));
    const body = (await upload.json()) as {
      error_summary: string;
      error: { upload_session_id: string };
    };
    expect(body.error_summary).toBe('path/insufficient_space/..');
    expect(body.error.upload_session_id).toMatch(/^pid_upload_session:/);

    await control('POST', 'quota', { bytes: 1000 });
    // The 40 bytes of the failed finish were kept: go on from offset 120 with an empty body.
    const retried = await content(
      at,
      'files/upload_session/finish',
      {
        cursor: { session_id: id, offset: 120 },
        commit: { path: '/big.bin' },
      },
      new Uint8Array(0),
    );
    expect(((await retried.json()) as { size: number }).size).toBe(120);
    const usage = await rpc(at, 'users/get_space_usage', null);
    expect(await usage.json()).toEqual({
      used: 120,
      allocation: { '.tag': 'individual', allocated: 1000 },
    });
  });

  it('refuses an upload whose content_hash does not match its bytes', async () => {
    const res = await content(
      at,
      'files/upload',
      {
        path: '/h.bin',
        content_hash: referenceContentHash(Buffer.from('other')),
      },
      Buffer.from('these'),
    );
    expect(await res.json()).toEqual({
      error_summary: 'content_hash_mismatch/..',
      error: { '.tag': 'content_hash_mismatch' },
    });
  });

  it('answers malformed calls with a plain-text 400 naming the function', async () => {
    const noPath = await rpc(at, 'files/get_metadata', {});
    expect([noPath.status, await noPath.text()]).toEqual([
      400,
      `Error in call to API function "files/get_metadata": request body: missing required field 'path'`,
    ]);
    const slashRoot = await rpc(at, 'files/list_folder', { path: '/' });
    expect(await slashRoot.text()).toContain('Specify the root folder as an empty string');
    const notJson = await fetch(`${emu.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${at}`, 'Content-Type': 'application/json' },
      body: '{path',
    });
    expect(await notJson.text()).toContain('could not decode input as JSON');
    const form = await fetch(`${emu.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${at}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: '{"path":""}',
    });
    expect([form.status, await form.text()]).toEqual([
      400,
      expect.stringContaining('Bad HTTP "Content-Type" header'),
    ]);
    const noAuth = await fetch(`${emu.apiUrl}/2/files/list_folder`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"path":""}',
    });
    expect(await noAuth.text()).toContain('Must provide HTTP header "Authorization"');
  });

  it('shows tests what it stores: files with their SHA-256, raw bytes, and where a canary is', async () => {
    const secret = Buffer.from('plaintext canary 7f3a');
    await content(
      at,
      'files/upload',
      { path: '/Vault/leak.bin' },
      Buffer.concat([Buffer.alloc(8), secret]),
    );
    await startSession(Buffer.from('also the canary? plaintext canary 7f3a'));
    await content(at, 'files/upload', { path: '/Vault/clean.bin' }, crypto.randomBytes(64));
    const found = await control<{ files: string[]; sessions: string[] }>('POST', 'find-bytes', {
      text: 'plaintext canary 7f3a',
    });
    expect(found.files).toEqual(['/Vault/leak.bin']);
    expect(found.sessions).toHaveLength(1);
    const raw = await fetch(
      `${emu.origin}/__emulator/file?path=${encodeURIComponent('/vault/LEAK.bin')}`,
    );
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.subarray(8).equals(secret)).toBe(true);
    const { files } = await control<{
      files: { path_display: string; sha256: string; size: number }[];
    }>('GET', 'files');
    expect(files.find((f) => f.path_display === '/Vault/leak.bin')).toMatchObject({
      sha256: sha256Hex(bytes),
      size: bytes.length,
    });
  });
});
