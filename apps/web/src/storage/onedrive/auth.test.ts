// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connections } from '../cloud/connections.ts';
import { pkceChallenge } from '../cloud/popup.ts';
import {
  authorizeUrl,
  disconnectOneDrive,
  oneDriveToken,
  ONEDRIVE_SCOPES,
  refreshOneDrive,
  tokenFrom,
} from './auth.ts';

const cfg = {
  client_id: 'client-1',
  auth_url: 'https://login.example/common/oauth2/v2.0/authorize',
  token_url: 'https://login.example/common/oauth2/v2.0/token',
  graph_url: 'https://graph.example',
};

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('OneDrive sign-in', () => {
  it('asks for the code with PKCE S256, the state, and the app folder scopes only', () => {
    const url = new URL(
      authorizeUrl(cfg, {
        state: 's'.repeat(32),
        challenge: 'c'.repeat(43),
        redirectUri: 'https://app.example/onedrive-auth',
      }),
    );
    expect(url.origin + url.pathname).toBe(cfg.auth_url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      response_type: 'code',
      response_mode: 'query',
      redirect_uri: 'https://app.example/onedrive-auth',
      scope: 'Files.ReadWrite.AppFolder offline_access',
      state: 's'.repeat(32),
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(ONEDRIVE_SCOPES.split(' ')).not.toContain('Files.ReadWrite');
  });

  it("derives the S256 challenge of RFC 7636's example", async () => {
    // RFC 7636, Appendix B.
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('stores the expiry and keeps the refresh token a renewal does not replace', () => {
    expect(
      tokenFrom({ access_token: 'a', expires_in: 100, refresh_token: 'r' }, undefined, 1000),
    ).toEqual({
      accessToken: 'a',
      expiresAt: 101_000,
      refreshToken: 'r',
    });
    expect(tokenFrom({ access_token: 'b' }, 'old', 0)).toEqual({
      accessToken: 'b',
      expiresAt: 3_600_000,
      refreshToken: 'old',
    });
  });
});

describe('OneDrive tokens', () => {
  const tokenAnswer = (body: unknown, status = 200) =>
    vi.fn(() => Promise.resolve(Response.json(body, { status })));

  it('uses a token until a minute before it expires, then renews it with the refresh token, once for calls at once', async () => {
    connections.save('onedrive', {
      accessToken: 'fresh',
      expiresAt: Date.now() + 120_000,
      refreshToken: 'r1',
    });
    const fetch = tokenAnswer({ access_token: 'renewed', expires_in: 3600, refresh_token: 'r2' });
    vi.stubGlobal('fetch', fetch);
    expect(await oneDriveToken(cfg)).toBe('fresh');
    expect(fetch).not.toHaveBeenCalled();
    connections.save('onedrive', {
      accessToken: 'old',
      expiresAt: Date.now() + 30_000,
      refreshToken: 'r1',
    });
    expect(await Promise.all([oneDriveToken(cfg), oneDriveToken(cfg)])).toEqual([
      'renewed',
      'renewed',
    ]);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(cfg.token_url);
    expect(Object.fromEntries(new URLSearchParams(init.body as URLSearchParams))).toEqual({
      client_id: 'client-1',
      scope: ONEDRIVE_SCOPES,
      grant_type: 'refresh_token',
      refresh_token: 'r1',
    });
    expect(connections.token('onedrive')).toMatchObject({
      accessToken: 'renewed',
      refreshToken: 'r2',
    });
  });

  it('answers null when Microsoft refuses the refresh token (revoked, or past its 24 hours)', async () => {
    connections.save('onedrive', {
      accessToken: 'old',
      expiresAt: Date.now() - 1,
      refreshToken: 'r1',
    });
    vi.stubGlobal(
      'fetch',
      tokenAnswer({ error: 'invalid_grant', error_description: 'AADSTS50173: revoked' }, 400),
    );
    expect(await refreshOneDrive(cfg)).toBeNull();
    expect(await oneDriveToken(cfg)).toBeNull();
  });

  it('keeps the connection when the renewal could not be sent (offline)', async () => {
    connections.save('onedrive', {
      accessToken: 'old',
      expiresAt: Date.now() - 1,
      refreshToken: 'r1',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(refreshOneDrive(cfg)).rejects.toThrow('Failed to fetch');
    expect(connections.isConnected('onedrive')).toBe(true);
  });

  it('Disconnect forgets the tokens', async () => {
    connections.save('onedrive', {
      accessToken: 'a',
      expiresAt: Date.now() + 1e6,
      refreshToken: 'r',
    });
    await disconnectOneDrive();
    expect(connections.isConnected('onedrive')).toBe(false);
  });
});
