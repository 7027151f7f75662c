// Connecting OneDrive (issue 26): the Microsoft identity platform's authorization code flow with
// PKCE (S256, a verifier of 128 characters) for a single-page app, in a 500x700 popup with a state
// check that comes back to /onedrive-auth. The scopes are the app folder and a refresh token
// (Files.ReadWrite.AppFolder offline_access) and nothing broader. The code and the refresh token
// are redeemed from the browser (a public client: no secret; Microsoft accepts a SPA's redemption
// only cross-origin, which a fetch from this page is). A refresh token replaces itself on every
// use, and a SPA's lives 24 hours from the sign-in however often it is used: after that, or once
// revoked, the renewal fails and the vault page asks to connect again (cloud/http.ts).
// Microsoft offers a SPA no token revocation: Disconnect forgets the tokens here.
import type { StorageConfigResponse } from '@sealvault/protocol';
import { connections, type OneDriveToken } from '../cloud/connections.ts';
import { ConnectError, pkceChallenge, randomString, signInPopup } from '../cloud/popup.ts';

export type OneDriveSettings = NonNullable<StorageConfigResponse['onedrive']>;

/** The app folder (read and write) and a refresh token: nothing of the rest of the drive. */
export const ONEDRIVE_SCOPES = 'Files.ReadWrite.AppFolder offline_access';
export const PKCE_VERIFIER_LENGTH = 128;
/** An access token's lifetime when the answer names none (the identity platform's is ~1 h). */
export const DEFAULT_TOKEN_LIFETIME_S = 3600;

export const redirectUri = () => `${window.location.origin}/onedrive-auth`;

export function authorizeUrl(
  cfg: OneDriveSettings,
  p: { state: string; challenge: string; redirectUri: string },
): string {
  const url = new URL(cfg.auth_url);
  url.search = new URLSearchParams({
    client_id: cfg.client_id,
    response_type: 'code',
    response_mode: 'query',
    redirect_uri: p.redirectUri,
    scope: ONEDRIVE_SCOPES,
    state: p.state,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
}

/** One request to the token endpoint; a refusal is a ConnectError naming Microsoft's error. */
async function tokenRequest(
  cfg: OneDriveSettings,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const res = await fetch(cfg.token_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: cfg.client_id, scope: ONEDRIVE_SCOPES, ...form }),
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

/** The stored token of an answer; a refresh that names no new refresh token keeps the old one. */
export function tokenFrom(
  a: TokenAnswer,
  previousRefresh?: string,
  now = Date.now(),
): OneDriveToken {
  const lifetime =
    typeof a.expires_in === 'number' && a.expires_in > 0 ? a.expires_in : DEFAULT_TOKEN_LIFETIME_S;
  const refreshToken = typeof a.refresh_token === 'string' ? a.refresh_token : previousRefresh;
  return {
    accessToken: a.access_token as string,
    expiresAt: now + lifetime * 1000,
    ...(refreshToken ? { refreshToken } : {}),
  };
}

/** The whole connect flow: popup, state check, code redemption; stores the tokens. */
export async function connectOneDrive(cfg: OneDriveSettings): Promise<void> {
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
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    code_verifier: verifier,
  });
  connections.save('onedrive', tokenFrom(answer));
}

let renewing: Promise<OneDriveToken | null> | null = null;

/**
 * A new access token from the refresh token, saved; null when there is none or Microsoft refuses
 * it (revoked, or past its 24 hours). Calls made at once share one renewal: a refresh token is
 * replaced by each use.
 */
export function refreshOneDrive(cfg: OneDriveSettings): Promise<OneDriveToken | null> {
  renewing ??= (async () => {
    const current = connections.token('onedrive');
    if (!current?.refreshToken) return null;
    try {
      const answer = await tokenRequest(cfg, {
        grant_type: 'refresh_token',
        refresh_token: current.refreshToken,
      });
      const next = tokenFrom(answer, current.refreshToken);
      connections.save('onedrive', next);
      return next;
    } catch (err) {
      if (err instanceof ConnectError) return null;
      throw err; // offline: keep the connection, the caller reports the failure
    }
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/** A token to send: the stored one until a minute before its expiry, then a renewed one. */
export async function oneDriveToken(cfg: OneDriveSettings): Promise<string | null> {
  const t = connections.token('onedrive');
  if (!t) return null;
  if (t.expiresAt - 60_000 > Date.now()) return t.accessToken;
  const renewed = await refreshOneDrive(cfg);
  if (renewed) return renewed.accessToken;
  return t.expiresAt > Date.now() ? t.accessToken : null;
}

/** Disconnect: forgets the tokens in this browser (Microsoft has no revocation for a SPA). */
export function disconnectOneDrive(): Promise<void> {
  connections.clear('onedrive');
  return Promise.resolve();
}
