// Connecting Google Drive (issue 16; docs/product.md §4, §7 "Cloud drive service"): sign-in in a popup with
// the OAuth 2.0 flow for browser apps (response_type=token), the scope limited to the files the
// app creates (drive.file), and a state check. The popup comes back to /google-auth with the token
// in the address's fragment. On restore a token that has not expired is reused; otherwise a
// silent sign-in (prompt=none) is tried before asking the user, and when it fails the stored
// value is cleared. Disconnect revokes the token at Google.
import type { StorageConfigResponse } from '@sealvault/protocol';
import { connections, type DriveToken } from '../cloud/connections.ts';
import { ConnectError, randomString, signInPopup } from '../cloud/popup.ts';

export type DriveSettings = NonNullable<StorageConfigResponse['googledrive']>;

export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';

export const redirectUri = () => `${window.location.origin}/google-auth`;

export function signInUrl(
  cfg: DriveSettings,
  p: { state: string; redirectUri: string; silent?: boolean },
): string {
  const url = new URL(cfg.oauth_url);
  url.search = new URLSearchParams({
    client_id: cfg.client_id,
    redirect_uri: p.redirectUri,
    response_type: 'token',
    scope: DRIVE_SCOPE,
    include_granted_scopes: 'true',
    state: p.state,
    ...(p.silent ? { prompt: 'none' } : {}),
  }).toString();
  return url.toString();
}

async function signIn(cfg: DriveSettings, silent: boolean): Promise<DriveToken> {
  const state = randomString(32);
  const params = await signInPopup(
    signInUrl(cfg, { state, redirectUri: redirectUri(), silent }),
    state,
  );
  const accessToken = params.get('access_token');
  if (!accessToken) throw new ConnectError('failed', 'No access token.');
  const scopes = (params.get('scope') ?? DRIVE_SCOPE).split(' ');
  if (!scopes.includes(DRIVE_SCOPE))
    throw new ConnectError('denied', 'Drive access was not granted.');
  const expiresIn = Number(params.get('expires_in')) || 3599;
  const token = { access_token: accessToken, expires_at: Date.now() + expiresIn * 1000 };
  connections.save('googledrive', token);
  return token;
}

/** Connect (from a click): the consent popup. */
export const connectDrive = (cfg: DriveSettings): Promise<void> =>
  signIn(cfg, false).then(() => undefined);

/**
 * A usable access token: the stored one while it has not expired; otherwise a silent sign-in
 * (a popup: it needs a user gesture); if Google refuses it the stored value is cleared, and null
 * is answered either way (the caller asks the user to connect).
 */
export async function driveToken(cfg: DriveSettings): Promise<string | null> {
  const t = connections.token('googledrive');
  if (!t) return null;
  if (t.expires_at - 60_000 > Date.now()) return t.access_token;
  try {
    return (await signIn(cfg, true)).access_token;
  } catch (err) {
    // A blocked popup says nothing about the account: keep it, the next click can try again.
    // Google's answer (interaction_required, consent_required, ...) means the grant is gone.
    if (!(err instanceof ConnectError && err.kind === 'blocked')) connections.clear('googledrive');
    return null;
  }
}

/** Disconnect: revokes the token at Google (best effort) and forgets it here. */
export async function disconnectDrive(cfg: DriveSettings | null): Promise<void> {
  const t = connections.token('googledrive');
  connections.clear('googledrive');
  if (!cfg || !t) return;
  await fetch(cfg.revoke_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: t.access_token }),
  }).catch(() => undefined);
}
