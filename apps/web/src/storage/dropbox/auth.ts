// Connecting Dropbox (issue 16; docs/product.md §7 "File-hosting service", §9): the authorization code flow
// with PKCE (S256, a verifier of 128 characters), a state check and token_access_type=offline, in
// a popup that comes back to /dropbox-auth. The code is exchanged from the browser, with the
// verifier and the redirect address; refresh tokens renew an expired access token without asking.
// 14,400 s is the lifetime when Dropbox names none.
import type { StorageConfigResponse } from '@sealvault/protocol';
import { connections, type DropboxToken } from '../cloud/connections.ts';
import { ConnectError, pkceChallenge, randomString, signInPopup } from '../cloud/popup.ts';

export type DropboxSettings = NonNullable<StorageConfigResponse['dropbox']>;

export const DEFAULT_TOKEN_LIFETIME_S = 14_400;
export const PKCE_VERIFIER_LENGTH = 128;

export const redirectUri = () => `${window.location.origin}/dropbox-auth`;

export function authorizeUrl(
  cfg: DropboxSettings,
  p: { state: string; challenge: string; redirectUri: string },
): string {
  const url = new URL(cfg.auth_url);
  url.search = new URLSearchParams({
    client_id: cfg.app_key,
    response_type: 'code',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    token_access_type: 'offline',
    state: p.state,
    redirect_uri: p.redirectUri,
  }).toString();
  return url.toString();
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
}

async function tokenRequest(
  cfg: DropboxSettings,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const res = await fetch(`${cfg.api_url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, client_id: cfg.app_key }),
  });
  const body = (await res.json().catch(() => ({}))) as TokenAnswer & { error?: unknown };
  if (!res.ok || typeof body.access_token !== 'string') {
    throw new ConnectError(
      'failed',
      typeof body.error === 'string' ? body.error : `HTTP ${res.status}`,
    );
  }
  return body;
}

const tokenFrom = (a: TokenAnswer, refreshToken?: string): DropboxToken => ({
  accessToken: a.access_token as string,
  expiresAt:
    Date.now() +
    (typeof a.expires_in === 'number' && a.expires_in > 0
      ? a.expires_in
      : DEFAULT_TOKEN_LIFETIME_S) *
      1000,
  ...((typeof a.refresh_token === 'string' ? a.refresh_token : refreshToken)
    ? { refreshToken: (typeof a.refresh_token === 'string' ? a.refresh_token : refreshToken)! }
    : {}),
});

/** The whole connect flow: popup, state check, code exchange; stores the token. */
export async function connectDropbox(cfg: DropboxSettings): Promise<void> {
  const verifier = randomString(PKCE_VERIFIER_LENGTH);
  const state = randomString(32);
  const redirect = redirectUri();
  const url = authorizeUrl(cfg, {
    state,
    challenge: await pkceChallenge(verifier),
    redirectUri: redirect,
  });
  const params = await signInPopup(url, state);
  const code = params.get('code');
  if (!code) throw new ConnectError('failed', 'No authorization code.');
  const answer = await tokenRequest(cfg, {
    code,
    grant_type: 'authorization_code',
    code_verifier: verifier,
    redirect_uri: redirect,
  });
  connections.save('dropbox', tokenFrom(answer));
}

/** A new access token from the refresh token, saved; null when there is none or it is refused. */
export async function refreshDropbox(cfg: DropboxSettings): Promise<DropboxToken | null> {
  const current = connections.token('dropbox');
  if (!current?.refreshToken) return null;
  try {
    const answer = await tokenRequest(cfg, {
      grant_type: 'refresh_token',
      refresh_token: current.refreshToken,
    });
    const next = tokenFrom(answer, current.refreshToken);
    connections.save('dropbox', next);
    return next;
  } catch (err) {
    if (err instanceof ConnectError) return null;
    throw err; // offline: keep the connection, the caller reports the failure
  }
}

/** Disconnect: revokes the token at Dropbox (best effort) and forgets it here. */
export async function disconnectDropbox(cfg: DropboxSettings | null): Promise<void> {
  const current = connections.token('dropbox');
  connections.clear('dropbox');
  if (!cfg || !current) return;
  await fetch(`${cfg.api_url}/2/auth/token/revoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${current.accessToken}` },
  }).catch(() => undefined);
}
