// The OneDrive emulator driven with plain fetch, as the web app will drive it from the browser:
// the identity platform's code flow with PKCE end to end, refresh, expiry and revocation, the
// scopes asked for, the app folder's boundary, the upload session's rules, Graph's error shape,
// quota, injected throttling and CORS. onedrive-sdk.test.ts drives it with Microsoft's own client.
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOneDriveEmulator, type OneDriveEmulator } from './onedrive.ts';

const CLIENT_ID = '6f1c1d4e-5b1a-4a53-9c0e-5ea1fa017e2e';
const REDIRECT = 'http://127.0.0.1:5173/onedrive-auth';
const APP_ORIGIN = 'http://127.0.0.1:5173';
const SCOPE = 'Files.ReadWrite.AppFolder offline_access';
const KiB320 = 320 * 1024;

let emu: OneDriveEmulator;

beforeAll(async () => {
  emu = await startOneDriveEmulator();
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

interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
  scope: string;
}
interface GraphErrorBody {
  error: { code: string; message: string; innerError: { code?: string; 'request-id': string } };
}

const token = (form: Record<string, string>, origin: string | null = APP_ORIGIN) =>
  fetch(emu.tokenUrl, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin ? { Origin: origin } : {}),
    },
    body: new URLSearchParams(form),
  });

const graph = (accessToken: string, path: string, init: RequestInit = {}) =>
  fetch(`${emu.graphUrl}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${accessToken}`,
      ...(init.headers as Record<string, string>),
    },
  });

/** The whole sign-in: authorize (auto-consent), then the code and its verifier for tokens. */
async function signIn(scope = SCOPE) {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const url = new URL(emu.authUrl);
  const params = {
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    state: 'state-42',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('Location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-42');
  const code = back.searchParams.get('code') ?? '';
  const form = {
    client_id: CLIENT_ID,
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
  };
  return { code, verifier, form: { ...form, code_verifier: verifier } };
}

async function appFolder(accessToken: string) {
  const res = await graph(accessToken, '/me/drive/special/approot');
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

const newTokens = () => control<Tokens>('POST', 'tokens');

describe('identity platform', () => {
  it('signs in with the code flow and PKCE, asking only for the app folder and offline access', async () => {
    const { form } = await signIn();
    const res = await token(form);
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(APP_ORIGIN);
    const tokens = (await res.json()) as Tokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'Files.ReadWrite.AppFolder' });
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.refresh_token).toBeTruthy();
    expect((await graph(tokens.access_token, '/me/drive')).status).toBe(200);
    const { requests } = await control<{ requests: { endpoint: string; scopes: string[] }[] }>(
      'GET',
      'scopes',
    );
    expect(requests).toEqual([
      {
        endpoint: 'authorize',
        clientId: CLIENT_ID,
        scopes: ['Files.ReadWrite.AppFolder', 'offline_access'],
      },
    ]);
  });

  it('refuses a wrong verifier, a second use of a code, a secret and a redemption without Origin', async () => {
    const { form } = await signIn();
    const wrong = await token({
      ...form,
      code_verifier: crypto.randomBytes(32).toString('base64url'),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_codes: [501481] });
    const secret = await token({ ...form, client_secret: 's3cret' });
    expect(secret.status).toBe(401);
    expect(await secret.json()).toMatchObject({ error: 'invalid_client' });
    const noOrigin = await token(form, null);
    expect(noOrigin.status).toBe(400);
    expect(((await noOrigin.json()) as { error_description: string }).error_description).toMatch(
      /^AADSTS9002327/,
    );
    expect((await token(form)).status).toBe(200);
    const again = await token(form);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant', error_codes: [54005] });
  });

  it('requires PKCE, and redirects access_denied once when told to deny', async () => {
    const url = new URL(emu.authUrl);
    url.search = new URLSearchParams({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: SCOPE,
      state: 's',
    }).toString();
    const noPkce = new URL(
      (await fetch(url, { redirect: 'manual' })).headers.get('Location') ?? '',
    );
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    await control('POST', 'deny-next-authorize');
    url.searchParams.set('code_challenge', 'x'.repeat(43));
    url.searchParams.set('code_challenge_method', 'S256');
    const denied = new URL(
      (await fetch(url, { redirect: 'manual' })).headers.get('Location') ?? '',
    );
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s');
  });

  it('renews an expired access token with the refresh token; Graph said InvalidAuthenticationToken', async () => {
    const tokens = (await (await token((await signIn()).form)).json()) as Tokens;
    await control('POST', 'expire-tokens');
    const expired = await graph(tokens.access_token, '/me/drive');
    expect(expired.status).toBe(401);
    expect(expired.headers.get('WWW-Authenticate')).toMatch(/^Bearer /);
    const body = (await expired.json()) as GraphErrorBody;
    expect(body.error.code).toBe('InvalidAuthenticationToken');
    expect(body.error.innerError['request-id']).toBeTruthy();
    const res = await token({
      client_id: CLIENT_ID,
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(res.status).toBe(200);
    const renewed = (await res.json()) as Tokens;
    expect(renewed.refresh_token).toBeTruthy();
    expect((await graph(renewed.access_token, '/me/drive')).status).toBe(200);
  });

  it('after revocation answers 401 to Graph and invalid_grant to a refresh', async () => {
    const tokens = (await (await token((await signIn()).form)).json()) as Tokens;
    await control('POST', 'revoke-all');
    const res = await graph(tokens.access_token, '/me/drive');
    expect(res.status).toBe(401);
    expect(((await res.json()) as GraphErrorBody).error.code).toBe('InvalidAuthenticationToken');
    const refresh = await token({
      client_id: CLIENT_ID,
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await graph('', '/me/drive')).status).toBe(401);
  });

  it("revokes one user's tokens and leaves another's working", async () => {
    const mine = (await (await token((await signIn()).form)).json()) as Tokens;
    const theirs = (await (await token((await signIn()).form)).json()) as Tokens;
    await control('POST', 'revoke', { tokens: [mine.access_token, mine.refresh_token] });
    expect((await graph(mine.access_token, '/me/drive')).status).toBe(401);
    const refresh = await token({
      client_id: CLIENT_ID,
      grant_type: 'refresh_token',
      refresh_token: mine.refresh_token ?? '',
    });
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await graph(theirs.access_token, '/me/drive')).status).toBe(200);
  });
});

describe('Graph', () => {
  it('keeps a Files.ReadWrite.AppFolder token inside the app folder (403 accessDenied elsewhere)', async () => {
    const { access_token } = await newTokens();
    await appFolder(access_token);
    const res = await graph(access_token, '/me/drive/root/children');
    expect(res.status).toBe(403);
    expect(((await res.json()) as GraphErrorBody).error.code).toBe('accessDenied');
  });

  it("answers errors in Graph's shape: itemNotFound, invalidRequest, conflict renames", async () => {
    const { access_token } = await newTokens();
    const root = await appFolder(access_token);
    const missing = await graph(access_token, `/me/drive/items/${root.id}:/nope.bin:`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as GraphErrorBody).error.code).toBe('itemNotFound');
    const post = (body: unknown) =>
      graph(access_token, `/me/drive/items/${root.id}/children`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await post({ name: 'a:b', folder: {} });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as GraphErrorBody).error.code).toBe('invalidRequest');
    expect((await post({ name: 'v', folder: {} })).status).toBe(201);
    const renamed = await post({
      name: 'v',
      folder: {},
      '@microsoft.graph.conflictBehavior': 'rename',
    });
    expect(((await renamed.json()) as { name: string }).name).toBe('v 1');
  });

  it('holds upload sessions to their rules: no token, in order, 320 KiB multiples, status, cancel', async () => {
    const { access_token } = await newTokens();
    const root = await appFolder(access_token);
    const data = crypto.randomBytes(KiB320 * 2 + 10);
    const created = await graph(
      access_token,
      `/me/drive/items/${root.id}:/f.bin:/createUploadSession`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'fail' } }),
      },
    );
    const { uploadUrl, nextExpectedRanges } = (await created.json()) as {
      uploadUrl: string;
      nextExpectedRanges: string[];
    };
    expect(new URL(uploadUrl).origin).toBe(emu.contentOrigin);
    expect(nextExpectedRanges).toEqual(['0-']);
    const put = (from: number, to: number, headers: Record<string, string> = {}) =>
      fetch(uploadUrl, {
        method: 'PUT',
        headers: { 'Content-Range': `bytes ${from}-${to}/${data.length}`, ...headers },
        body: data.subarray(from, to + 1),
      });
    expect((await put(0, KiB320 - 1, { Authorization: `Bearer ${access_token}` })).status).toBe(
      401,
    );
    expect((await put(0, 1000)).status).toBe(400); // not a multiple of 320 KiB
    const outOfOrder = await put(KiB320, 2 * KiB320 - 1);
    expect(outOfOrder.status).toBe(416);
    expect(((await outOfOrder.json()) as GraphErrorBody).error.innerError.code).toBe(
      'fragmentOutOfOrder',
    );
    const first = await put(0, KiB320 - 1);
    expect(first.status).toBe(202);
    expect(((await first.json()) as { nextExpectedRanges: string[] }).nextExpectedRanges).toEqual([
      `${KiB320}-`,
    ]);
    expect((await put(0, KiB320 - 1)).status).toBe(416); // overlap
    const status = (await (await fetch(uploadUrl)).json()) as { nextExpectedRanges: string[] };
    expect(status.nextExpectedRanges).toEqual([`${KiB320}-`]);
    expect((await fetch(uploadUrl, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(uploadUrl)).status).toBe(404);
  });

  it('refuses an upload past the quota with 507 quotaLimitReached, storing nothing', async () => {
    const { access_token } = await newTokens();
    const root = await appFolder(access_token);
    await control('POST', 'quota', { bytes: 1000 });
    const res = await graph(access_token, `/me/drive/items/${root.id}:/big.bin:/content`, {
      method: 'PUT',
      body: crypto.randomBytes(1001),
    });
    expect(res.status).toBe(507);
    expect(((await res.json()) as GraphErrorBody).error.code).toBe('quotaLimitReached');
    const { items } = await control<{ items: { name: string }[] }>('GET', 'items');
    expect(items.map((i) => i.name)).toEqual(['Apps', 'SealVault']);
  });

  it('redirects /content to the download URL, which answers ranges and expires', async () => {
    const { access_token } = await newTokens();
    const root = await appFolder(access_token);
    const data = crypto.randomBytes(300);
    await graph(access_token, `/me/drive/items/${root.id}:/d.bin:/content`, {
      method: 'PUT',
      body: data,
    });
    const item = (await (
      await graph(access_token, `/me/drive/items/${root.id}:/d.bin:`)
    ).json()) as { id: string };
    const redirect = await graph(access_token, `/me/drive/items/${item.id}/content`, {
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('Location') ?? '';
    const suffix = await fetch(location, { headers: { Range: 'bytes=-50' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(data.subarray(250))).toBe(true);
    const past = await fetch(location, { headers: { Range: 'bytes=300-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('Content-Range')).toBe('bytes */300');
    await control('POST', 'expire-download-urls');
    expect((await fetch(location)).status).toBe(401);
  });

  it('answers injected 503s with Retry-After, then serves again', async () => {
    const { access_token } = await newTokens();
    await control('POST', 'faults', { status: 503, retryAfter: 7, count: 2 });
    for (let i = 0; i < 2; i += 1) {
      const res = await graph(access_token, '/me/drive');
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('7');
      expect(((await res.json()) as GraphErrorBody).error.code).toBe('serviceNotAvailable');
    }
    expect((await graph(access_token, '/me/drive')).status).toBe(200);
  });

  it('lets a browser preflight Graph and the upload URL (Authorization, Content-Type, Content-Range)', async () => {
    for (const url of [`${emu.graphUrl}/me/drive`, `${emu.contentOrigin}/up/x/y`]) {
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: APP_ORIGIN,
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': 'authorization,content-type,content-range',
        },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(APP_ORIGIN);
      const allowed = (res.headers.get('Access-Control-Allow-Headers') ?? '').toLowerCase();
      for (const h of ['authorization', 'content-type', 'content-range'])
        expect(allowed).toContain(h);
    }
  });
});
