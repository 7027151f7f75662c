// The Microsoft identity platform's v2.0 endpoints as a single-page app meets them, for the
// OneDrive emulator (test tooling; see onedrive.ts): the authorization code flow with PKCE
// ("Microsoft identity platform and OAuth 2.0 authorization code flow", RFC 6749 and RFC 7636),
// refresh tokens, and the errors it answers: `{error, error_description: "AADSTSnnnn: ...",
// error_codes, timestamp, trace_id, correlation_id}`. What a SPA registration implies is kept:
// PKCE is required, a client secret is refused (the client is public), a code or refresh token is
// redeemed only cross-origin (an Origin header), and a refresh token lives 24 hours from the
// sign-in however often it is used. A refresh token is issued only for the offline_access scope.
//
// Bearer checks for Graph are here too: 401 InvalidAuthenticationToken with WWW-Authenticate.
import { createHash, randomUUID } from 'node:crypto';
import type http from 'node:http';
import {
  escapeHtml,
  graphError,
  htmlReply,
  jsonReply,
  Answer,
  type Reply,
} from './onedrive-http.ts';
import { randomToken, type AccessToken, type State } from './onedrive-store.ts';

const CODE_TTL_MS = 10 * 60_000;
const SPA_REFRESH_LIFETIME_MS = 24 * 3600_000;
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
/** OpenID Connect scopes: asked for, but not Graph permissions and not echoed in `scope`. */
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access']);

/** Scopes as Graph knows them: "https://graph.microsoft.com/Files.Read" is "Files.Read". */
export const normaliseScope = (scope: string) =>
  scope.replace(/^https:\/\/graph\.microsoft\.com\//i, '');

const scopeList = (raw: string | null) =>
  (raw ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((x) => normaliseScope(x));

function tokenError(status: number, error: string, code: number, description: string): Reply {
  return jsonReply(status, {
    error,
    error_description: `AADSTS${code}: ${description}`,
    error_codes: [code],
    timestamp: new Date()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z'),
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  });
}

/** A loopback http address or any https one; no fragment (RFC 6749 §3.1.2). */
function validRedirect(uri: string) {
  try {
    const u = new URL(uri);
    if (u.hash) return false;
    return (
      u.protocol === 'https:' ||
      (u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname))
    );
  } catch {
    return false;
  }
}

function redirect(uri: string, params: Record<string, string | undefined>, fragment: boolean) {
  const u = new URL(uri);
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  if (fragment) u.hash = q.toString();
  else for (const [k, v] of q) u.searchParams.set(k, v);
  return { status: 302, headers: { Location: u.toString() }, body: Buffer.alloc(0) };
}

/**
 * GET /common/oauth2/v2.0/authorize: consents at once (no page, as the other emulators) and
 * redirects with a code, or with access_denied once after the deny-next-authorize control.
 */
export function authorize(s: State, url: URL): Reply {
  const q = url.searchParams;
  const page = (message: string) =>
    htmlReply(400, 'Sign in error', `<p id="error">${escapeHtml(message)}</p>`);
  const clientId = q.get('client_id');
  if (!clientId) return page("AADSTS900144: The request body must contain 'client_id'.");
  const redirectUri = q.get('redirect_uri');
  if (!redirectUri || !validRedirect(redirectUri)) {
    return page('AADSTS50011: The redirect URI specified in the request is not valid.');
  }
  const responseMode = q.get('response_mode') ?? 'query';
  if (responseMode !== 'query' && responseMode !== 'fragment') {
    return page('AADSTS900144: response_mode must be query or fragment for a SPA.');
  }
  const state = q.get('state') ?? undefined;
  const back = (error: string, description: string) =>
    redirect(
      redirectUri,
      { error, error_description: description, state },
      responseMode === 'fragment',
    );
  if (q.get('response_type') !== 'code') {
    return back('unsupported_response_type', 'AADSTS700054: response_type must be code.');
  }
  const scopes = scopeList(q.get('scope'));
  s.scopeLog.push({ endpoint: 'authorize', clientId, scopes });
  if (scopes.length === 0) {
    return back('invalid_request', "AADSTS900144: The request body must contain 'scope'.");
  }
  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method') ?? 'plain';
  if (!challenge) {
    return back(
      'invalid_request',
      'AADSTS9002325: Proof Key for Code Exchange is required for cross-origin authorization code redemption.',
    );
  }
  if (!PKCE_VALUE.test(challenge) || (method !== 'S256' && method !== 'plain')) {
    return back(
      'invalid_request',
      'AADSTS501491: Invalid code_challenge or code_challenge_method.',
    );
  }
  if (s.denyNext) {
    s.denyNext = false;
    return back('access_denied', 'AADSTS65004: User declined to consent to access the app.');
  }
  const code = `M.C5${randomToken(32)}`;
  s.codes.set(code, {
    clientId,
    redirectUri,
    challenge,
    method,
    scopes,
    expiresAt: Date.now() + CODE_TTL_MS,
    used: false,
  });
  return redirect(redirectUri, { code, state }, responseMode === 'fragment');
}

/** Resource scopes granted: what was asked, less the OpenID Connect ones. */
const granted = (scopes: string[]) => scopes.filter((x) => !OIDC_SCOPES.has(x.toLowerCase()));

export function issueTokens(
  s: State,
  clientId: string,
  scopes: string[],
  refreshExpiresAt?: number,
) {
  const accessToken = `EwB${randomToken(48)}`;
  s.accessTokens.set(accessToken, {
    clientId,
    scopes,
    expiresAt: Date.now() + s.lifetimeS * 1000,
    revoked: false,
  });
  // A refresh grant keeps the offline access of the sign-in, whatever scope it names.
  const offline =
    refreshExpiresAt !== undefined || scopes.some((x) => x.toLowerCase() === 'offline_access');
  const refreshToken = offline ? `M.C5_R${randomToken(48)}` : undefined;
  if (refreshToken) {
    s.refreshTokens.set(refreshToken, {
      clientId,
      scopes,
      expiresAt: refreshExpiresAt ?? Date.now() + SPA_REFRESH_LIFETIME_MS,
      revoked: false,
    });
  }
  return {
    token_type: 'Bearer',
    scope: granted(scopes).join(' '),
    expires_in: s.lifetimeS,
    ext_expires_in: s.lifetimeS,
    access_token: accessToken,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

/** POST /common/oauth2/v2.0/token: form-encoded, as RFC 6749 §4.1.3 and §6. */
export function tokenGrant(s: State, req: http.IncomingMessage, body: Buffer): Reply {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return tokenError(
      400,
      'invalid_request',
      900144,
      "The request body must contain 'grant_type'.",
    );
  }
  const p = new URLSearchParams(body.toString('utf8'));
  const clientId = p.get('client_id');
  if (!clientId) {
    return tokenError(400, 'invalid_request', 900144, "The request body must contain 'client_id'.");
  }
  if (p.has('client_secret') || p.has('client_assertion')) {
    return tokenError(
      401,
      'invalid_client',
      700025,
      "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.",
    );
  }
  if (!req.headers.origin) {
    return tokenError(
      400,
      'invalid_request',
      9002327,
      "Tokens issued for the 'Single-Page Application' client-type may only be redeemed via cross-origin requests.",
    );
  }
  const grant = p.get('grant_type');
  if (p.has('scope'))
    s.scopeLog.push({ endpoint: 'token', clientId, scopes: scopeList(p.get('scope')) });

  if (grant === 'authorization_code') {
    const entry = s.codes.get(p.get('code') ?? '');
    if (!entry || Date.now() > entry.expiresAt) {
      return tokenError(
        400,
        'invalid_grant',
        70008,
        'The provided authorization code or refresh token has expired due to inactivity.',
      );
    }
    if (entry.used) {
      return tokenError(
        400,
        'invalid_grant',
        54005,
        'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
      );
    }
    if (entry.clientId !== clientId) {
      return tokenError(
        400,
        'invalid_grant',
        70000,
        'The provided authorization code was issued to another client.',
      );
    }
    if (p.get('redirect_uri') !== entry.redirectUri) {
      return tokenError(
        400,
        'invalid_grant',
        50148,
        'The redirect_uri does not match the one of the authorization request.',
      );
    }
    const verifier = p.get('code_verifier') ?? '';
    const derived =
      entry.method === 'S256'
        ? createHash('sha256').update(verifier, 'ascii').digest('base64url')
        : verifier;
    if (!PKCE_VALUE.test(verifier) || derived !== entry.challenge) {
      return tokenError(
        400,
        'invalid_grant',
        501481,
        'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    }
    entry.used = true;
    return jsonReply(200, issueTokens(s, clientId, entry.scopes));
  }

  if (grant === 'refresh_token') {
    const r = s.refreshTokens.get(p.get('refresh_token') ?? '');
    if (!r)
      return tokenError(
        400,
        'invalid_grant',
        9002313,
        'Invalid request. Request is malformed or invalid.',
      );
    if (r.revoked) {
      return tokenError(
        400,
        'invalid_grant',
        50173,
        'The provided grant has expired due to it being revoked, a fresh auth token is needed.',
      );
    }
    if (Date.now() > r.expiresAt) {
      return tokenError(
        400,
        'invalid_grant',
        700084,
        'The refresh token was issued to a single page app (SPA), and therefore has a fixed, limited lifetime of 1.00:00:00, which cannot be extended.',
      );
    }
    if (r.clientId !== clientId) {
      return tokenError(
        400,
        'invalid_grant',
        70000,
        'The refresh token was issued to another client.',
      );
    }
    const asked = p.has('scope') ? scopeList(p.get('scope')) : r.scopes;
    const extra = asked.filter((x) => !r.scopes.some((y) => y.toLowerCase() === x.toLowerCase()));
    if (extra.length > 0) {
      return tokenError(
        400,
        'invalid_grant',
        65001,
        `The user has not consented to ${extra.join(' ')}.`,
      );
    }
    return jsonReply(200, issueTokens(s, clientId, asked, r.expiresAt));
  }
  return tokenError(
    400,
    'unsupported_grant_type',
    70003,
    `The app requested an unsupported grant type '${grant ?? ''}'.`,
  );
}

const WWW_AUTHENTICATE =
  'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"';

/** The access token of a Graph request, or 401 InvalidAuthenticationToken. */
export function bearer(s: State, req: http.IncomingMessage): AccessToken {
  const deny = (message: string): never => {
    throw new Answer(
      graphError(401, 'InvalidAuthenticationToken', message, undefined, {
        'WWW-Authenticate': WWW_AUTHENTICATE,
      }),
    );
  };
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return deny('Access token is empty.');
  const t = s.accessTokens.get(m[1]);
  if (!t) return deny('IDX14100: JWT is not well formed, there are no dots (.).');
  if (t.revoked) return deny('Access token has been revoked.');
  if (Date.now() >= t.expiresAt) return deny('Lifetime validation failed, the token is expired.');
  return t;
}
