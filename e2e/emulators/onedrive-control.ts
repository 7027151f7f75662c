// The OneDrive emulator's control API and injected faults (test tooling; see onedrive.ts and
// [Note: emulator controls] in dropbox.ts). Throttling replies follow Graph's throttling guidance
// and OneDrive's error codes: 429 activityLimitReached (inner throttledRequest) and 503
// serviceNotAvailable, each with Retry-After in seconds.
import { graphError, isObject, jsonReply, type Json, type Reply } from './onedrive-http.ts';
import { issueTokens } from './onedrive-identity.ts';
import { ancestry, sha256Hex, type Fault, type State } from './onedrive-store.ts';

/** A pending fault for `path` (its prefix matched), counted down; undefined when none. */
export function takeFault(s: State, path: string): Reply | undefined {
  const f = s.faults.find((x) => path.startsWith(x.pathPrefix));
  if (!f) return undefined;
  f.remaining -= 1;
  if (f.remaining <= 0) s.faults.splice(s.faults.indexOf(f), 1);
  const headers = { 'Retry-After': String(f.retryAfter) };
  if (f.status === 429) {
    return graphError(
      429,
      'activityLimitReached',
      'The request has been throttled',
      'throttledRequest',
      headers,
    );
  }
  if (f.status === 503) {
    return graphError(
      503,
      'serviceNotAvailable',
      'Service unavailable',
      'serviceNotAvailable',
      headers,
    );
  }
  return graphError(
    f.status,
    'generalException',
    'An unspecified error has occurred.',
    undefined,
    headers,
  );
}

function parseFault(input: Record<string, unknown>): Fault {
  const { status, count = 1, retryAfter = 1, path = '/v1.0/' } = input;
  const int = (v: unknown, min: number, max: number) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (!int(status, 400, 599)) throw new Error('status: 429, 503 or another 4xx/5xx');
  if (!int(count, 1, 1e6) || !int(retryAfter, 0, 86_400))
    throw new Error('count or retryAfter out of range');
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new Error('path: a prefix such as "/v1.0/", "/up/", "/dl/" or "/common/oauth2/"');
  }
  return {
    status: status as number,
    remaining: count as number,
    retryAfter: retryAfter as number,
    pathPrefix: path,
  };
}

/**
 * The control API, under /__emulator (JSON in and out; 400 {error} on bad input):
 *   POST   /reset                  everything back to a fresh start (items, tokens, faults, logs)
 *   POST   /token-lifetime         {seconds}: lifetime of access tokens issued from now on
 *   POST   /expire-tokens          every access token issued so far expires now
 *   POST   /expire-refresh-tokens  every refresh token passes its 24 h SPA lifetime now
 *   POST   /revoke-all             every access and refresh token revoked (refresh: invalid_grant)
 *   POST   /revoke                 {tokens: [...]}: those access or refresh tokens revoked, as when
 *                                  one user removes the app's access (the others keep theirs)
 *   POST   /deny-next-authorize    the next authorize redirects with access_denied
 *   POST   /tokens                 {scope?, client_id?}: a token answer without the OAuth dance
 *                                  (scope default "Files.ReadWrite.AppFolder offline_access")
 *   GET    /scopes                 {requests: [{endpoint: 'authorize'|'token', clientId, scopes}]}
 *   POST   /quota                  {bytes}: the drive's total; writes past it get 507
 *   POST   /faults                 {status: 429|503|..., count=1, retryAfter=1, path="/v1.0/"}:
 *                                  the next `count` requests whose path starts with `path` answer
 *                                  `status` with Retry-After (content paths: "/up/", "/dl/")
 *   GET    /faults, DELETE /faults the pending faults; forget them
 *   POST   /expire-upload-sessions every upload session expires now (then 404 on its URL)
 *   POST   /expire-download-urls   every download URL issued so far expires now
 *   GET    /items                  {items: [{id, path, name, folder, size, quickXorHash, sha256}],
 *                                  sessions: [{id, path, received, total}]}
 *   GET    /item?id=...            the stored bytes of a file (application/octet-stream)
 *   GET    /log                    {log: [{method, path, status, authorization}]} of the last
 *                                  2000 Graph, identity and content requests
 */
export function control(
  s: State,
  defaults: () => State,
  method: string,
  url: URL,
  body: Buffer,
): Reply {
  let input: Record<string, unknown> = {};
  if (body.length > 0) {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (!isObject(parsed)) throw new Error('a JSON object wanted');
    input = parsed;
  }
  const ok = jsonReply(200, { ok: true });
  const nonNegative = (v: unknown, name: string) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new Error(`${name}: integer ≥ 0`);
    return v;
  };
  const pathOf = (id: string) => {
    const item = s.items.get(id);
    return item
      ? `/${ancestry(s, item)
          .map((a) => a.name)
          .join('/')}`
      : '(deleted)';
  };
  const past = Date.now() - 1;
  switch (`${method} ${url.pathname.slice('/__emulator'.length)}`) {
    case 'POST /reset':
      Object.assign(s, defaults());
      return ok;
    case 'POST /token-lifetime':
      s.lifetimeS = nonNegative(input.seconds, 'seconds');
      return ok;
    case 'POST /expire-tokens':
      for (const t of s.accessTokens.values()) t.expiresAt = Math.min(t.expiresAt, past);
      return ok;
    case 'POST /expire-refresh-tokens':
      for (const t of s.refreshTokens.values()) t.expiresAt = Math.min(t.expiresAt, past);
      return ok;
    case 'POST /revoke-all':
      for (const t of s.accessTokens.values()) t.revoked = true;
      for (const t of s.refreshTokens.values()) t.revoked = true;
      return ok;
    case 'POST /revoke': {
      const tokens = input.tokens;
      if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string'))
        throw new Error('tokens: an array of strings');
      for (const t of tokens as string[]) {
        const held = s.accessTokens.get(t) ?? s.refreshTokens.get(t);
        if (held) held.revoked = true;
      }
      return ok;
    }
    case 'POST /deny-next-authorize':
      s.denyNext = true;
      return ok;
    case 'POST /tokens': {
      const scope =
        typeof input.scope === 'string' ? input.scope : 'Files.ReadWrite.AppFolder offline_access';
      const clientId = typeof input.client_id === 'string' ? input.client_id : 'emulator-app';
      return jsonReply(200, issueTokens(s, clientId, scope.split(/\s+/).filter(Boolean)));
    }
    case 'GET /scopes':
      return jsonReply(200, { requests: s.scopeLog as unknown as Json });
    case 'POST /quota':
      s.quota = nonNegative(input.bytes, 'bytes');
      return ok;
    case 'POST /faults':
      s.faults.push(parseFault(input));
      return jsonReply(200, { faults: s.faults.length });
    case 'GET /faults':
      return jsonReply(200, { faults: s.faults as unknown as Json });
    case 'DELETE /faults':
      s.faults = [];
      return ok;
    case 'POST /expire-upload-sessions':
      for (const x of s.sessions.values()) x.expiresAt = past;
      return ok;
    case 'POST /expire-download-urls':
      for (const x of s.downloads.values()) x.expiresAt = past;
      return ok;
    case 'GET /items':
      return jsonReply(200, {
        items: [...s.items.values()]
          .filter((i) => i.parentId !== null)
          .map((i) => ({
            id: i.id,
            path: pathOf(i.id),
            name: i.name,
            folder: i.bytes === null,
            size: i.bytes?.length ?? 0,
            quickXorHash: i.quickXor,
            sha256: i.bytes ? sha256Hex(i.bytes) : null,
          })),
        sessions: [...s.sessions.values()].map((x) => ({
          id: x.id,
          path: `${pathOf(x.parentId)}/${x.name}`,
          received: x.received,
          total: x.total,
        })),
      });
    case 'GET /item': {
      const item = s.items.get(url.searchParams.get('id') ?? '');
      if (!item?.bytes) return jsonReply(404, { error: 'no such file' });
      return {
        status: 200,
        headers: { 'Content-Type': 'application/octet-stream' },
        body: item.bytes,
      };
    }
    case 'GET /log':
      return jsonReply(200, { log: s.log as unknown as Json });
    default:
      return jsonReply(404, { error: `no control ${method} ${url.pathname}` });
  }
}
