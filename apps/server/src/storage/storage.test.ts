// The cloud storage providers' configuration (issue 16): validated at start-up, handed to the
// browser by GET /api/storage-config, offered for new vaults only when configured, and the only
// API origins the CSP lets the app reach besides its own. Files vaults there record their folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  storageConfigResponseSchema,
  vaultResponseSchema,
} from '@sealvault/protocol';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault, send, setPlan, vaultRequest } from '../testing/vaults.ts';
import { offeredProviders } from '../vaults/providers.ts';

const EMULATOR = 'http://127.0.0.1:4010';
const configured = {
  DROPBOX_APP_KEY: 'dbx-app-key',
  DROPBOX_AUTH_URL: `${EMULATOR}/oauth2/authorize`,
  DROPBOX_API_URL: EMULATOR,
  DROPBOX_CONTENT_URL: 'http://127.0.0.1:4011/',
  GOOGLE_DRIVE_CLIENT_ID: 'drive-client.apps.googleusercontent.com',
  GOOGLE_OAUTH_URL: 'http://127.0.0.1:4020/o/oauth2/v2/auth',
  GOOGLE_OAUTH_REVOKE_URL: 'http://127.0.0.1:4020/revoke',
  GOOGLE_DRIVE_API_URL: 'http://127.0.0.1:4020',
};

describe('without cloud providers (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('says none is configured, and the CSP reaches no other origin', async () => {
    const res = await t.request('/api/storage-config');
    expect(res.status).toBe(200);
    expect(storageConfigResponseSchema.parse(await res.json())).toEqual({
      dropbox: null,
      googledrive: null,
      onedrive: null,
    });
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self';");
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('serves the popup return pages without cutting the opener', async () => {
    for (const p of ['/dropbox-auth', '/google-auth', '/onedrive-auth']) {
      const res = await t.request(p);
      expect(res.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    }
  });
});

describe('with Dropbox and Google Drive configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(configured);
  });
  afterAll(() => t.close());

  it('hands the browser the client ids and base URLs (no trailing slash)', async () => {
    const res = await t.request('/api/storage-config');
    expect(storageConfigResponseSchema.parse(await res.json())).toEqual({
      dropbox: {
        app_key: 'dbx-app-key',
        auth_url: `${EMULATOR}/oauth2/authorize`,
        api_url: EMULATOR,
        content_url: 'http://127.0.0.1:4011',
      },
      googledrive: {
        client_id: 'drive-client.apps.googleusercontent.com',
        oauth_url: 'http://127.0.0.1:4020/o/oauth2/v2/auth',
        revoke_url: 'http://127.0.0.1:4020/revoke',
        api_url: 'http://127.0.0.1:4020',
      },
      onedrive: null,
    });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(
      "connect-src 'self' http://127.0.0.1:4010 http://127.0.0.1:4011 http://127.0.0.1:4020;",
    );
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });

  it('offers both for new vaults; a files vault records its folder', async () => {
    expect([...offeredProviders(t.config)].sort()).toEqual([
      'dropbox',
      'googledrive',
      'local',
      'server',
    ]);
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const res = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'files', provider_type: 'dropbox' }),
      storage_folder: '/SealVault_Taxes',
    });
    expect(res.status).toBe(201);
    const { vault } = vaultResponseSchema.parse(await res.json());
    expect(vault).toMatchObject({ provider_type: 'dropbox', storage_folder: '/SealVault_Taxes' });
    const again = vaultResponseSchema.parse(
      await (await send(t, u.cookie, 'GET', `/api/vaults/${vault.id}`)).json(),
    );
    expect(again.vault.storage_folder).toBe('/SealVault_Taxes');
  });

  it('refuses a cloud files vault without its folder, and a folder where none belongs', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const missing = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'files', provider_type: 'googledrive' }),
    });
    expect(missing.status).toBe(400);
    expect(errorBodySchema.parse(await missing.json()).error.message).toBe(
      'A Google Drive vault needs its folder.',
    );
    for (const body of [
      { ...vaultRequest({ vault_type: 'files', provider_type: 'server' }), storage_folder: 'x' },
      { ...vaultRequest({ vault_type: 'secrets', provider_type: 'local' }), storage_folder: 'x' },
    ]) {
      const res = await send(t, u.cookie, 'POST', '/api/vaults', body);
      expect(res.status).toBe(400);
    }
    // A secrets vault there keeps its segments in a folder (ADR 0008); one made before had none.
    const secrets = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'secrets', provider_type: 'dropbox' }),
      storage_folder: '/SealVault_Passwords',
    });
    expect(secrets.status).toBe(201);
    const older = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'secrets', provider_type: 'dropbox' }),
    });
    expect(older.status).toBe(201);
    const { vault } = vaultResponseSchema.parse(await older.json());
    // Its folder is recorded once, when its items move, and never changed after.
    const set = await send(t, u.cookie, 'PATCH', `/api/vaults/${vault.id}`, {
      storage_folder: '/SealVault_Older',
    });
    expect(set.status).toBe(200);
    expect(vaultResponseSchema.parse(await set.json()).vault.storage_folder).toBe(
      '/SealVault_Older',
    );
    const again = await send(t, u.cookie, 'PATCH', `/api/vaults/${vault.id}`, {
      storage_folder: '/SealVault_Other',
    });
    expect(again.status).toBe(409);
    const serverVault = await createVault(t, u.cookie, { vault_type: 'files' });
    const refused = await send(t, u.cookie, 'PATCH', `/api/vaults/${serverVault}`, {
      storage_folder: '/x',
    });
    expect(refused.status).toBe(400);
  });
});

describe('with OneDrive configured (issue 26)', () => {
  const ONEDRIVE = 'http://127.0.0.1:4030';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ONEDRIVE_CLIENT_ID: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
      ONEDRIVE_AUTH_URL: `${ONEDRIVE}/common/oauth2/v2.0/authorize`,
      ONEDRIVE_TOKEN_URL: `${ONEDRIVE}/common/oauth2/v2.0/token`,
      ONEDRIVE_GRAPH_URL: `${ONEDRIVE}/`,
      ONEDRIVE_CONTENT_HOSTS: ' http://localhost:4031  https://*.contoso.example ',
    });
  });
  afterAll(() => t.close());

  it('hands the browser the client id, the identity platform and Graph (no trailing slash)', async () => {
    const res = await t.request('/api/storage-config');
    expect(storageConfigResponseSchema.parse(await res.json())).toEqual({
      dropbox: null,
      googledrive: null,
      onedrive: {
        client_id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
        auth_url: `${ONEDRIVE}/common/oauth2/v2.0/authorize`,
        token_url: `${ONEDRIVE}/common/oauth2/v2.0/token`,
        graph_url: ONEDRIVE,
      },
    });
  });

  it("lets the app reach Graph, the token endpoint, Microsoft's content hosts and the added ones", async () => {
    const res = await t.request('/api/storage-config');
    const csp = res.headers.get('content-security-policy') ?? '';
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    expect(connect).toEqual([
      "'self'",
      ONEDRIVE,
      'https://*.1drv.com',
      'https://*.files.1drv.com',
      'https://*.livefilestore.com',
      'https://*.microsoftpersonalcontent.com',
      'https://*.sharepoint.com',
      'https://api.onedrive.com',
      'http://localhost:4031',
      'https://*.contoso.example',
    ]);
    // The sign-in page is a navigation of the popup, not a fetch: not in connect-src.
    expect(csp).not.toContain('login.microsoftonline.com');
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
  });

  it('offers OneDrive for new vaults, and a files vault there records its folder', async () => {
    expect(offeredProviders(t.config).has('onedrive')).toBe(true);
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const missing = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'files', provider_type: 'onedrive' }),
    });
    expect(missing.status).toBe(400);
    expect(errorBodySchema.parse(await missing.json()).error.message).toBe(
      'A OneDrive vault needs its folder.',
    );
    const res = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest({ vault_type: 'files', provider_type: 'onedrive' }),
      storage_folder: '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
    });
    expect(res.status).toBe(201);
    const { vault } = vaultResponseSchema.parse(await res.json());
    expect(vault).toMatchObject({
      provider_type: 'onedrive',
      storage_folder: '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
    });
  });
});

describe('configuration at start-up', () => {
  it('refuses a malformed client id or URL, naming the variable', () => {
    expect(() => loadConfig({ DROPBOX_APP_KEY: 'has space' })).toThrow(/DROPBOX_APP_KEY/);
    expect(() => loadConfig({ GOOGLE_DRIVE_API_URL: 'ftp://x' })).toThrow(/GOOGLE_DRIVE_API_URL/);
    expect(() => loadConfig({ ONEDRIVE_CLIENT_ID: 'a b' })).toThrow(/ONEDRIVE_CLIENT_ID/);
    expect(() => loadConfig({ ONEDRIVE_GRAPH_URL: 'graph.microsoft.com' })).toThrow(
      /ONEDRIVE_GRAPH_URL/,
    );
    expect(() => loadConfig({ ONEDRIVE_TOKEN_URL: 'javascript:alert(1)' })).toThrow(
      /ONEDRIVE_TOKEN_URL/,
    );
  });

  it('refuses a OneDrive content host that is not a plain CSP host source (it could widen the policy)', () => {
    for (const bad of [
      "'unsafe-inline'",
      'https://x.example/path',
      '*',
      'https://a.example;script-src *',
    ])
      expect(() => loadConfig({ ONEDRIVE_CONTENT_HOSTS: bad })).toThrow(/ONEDRIVE_CONTENT_HOSTS/);
    expect(loadConfig({}).storage.onedrive).toBeNull();
    const c = loadConfig({ ONEDRIVE_CLIENT_ID: 'client' }).storage.onedrive;
    expect(c).toMatchObject({
      authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      graphUrl: 'https://graph.microsoft.com',
    });
    expect(c?.contentHosts).toContain('https://*.sharepoint.com');
  });
});
