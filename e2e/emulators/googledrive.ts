// A local stand-in for Google, for tests only: the OAuth 2.0 token flow for browser apps
// (accounts.google.com/o/oauth2/v2/auth, oauth2.googleapis.com/revoke) and the part of the Drive v3
// REST API a browser vault uses (files create/list/get/delete, multipart and resumable uploads,
// about.get), on one node:http server on 127.0.0.1. It follows Google's public references: "OAuth
// 2.0 for Client-side Web Applications", the Drive v3 reference, and the guides "Upload file data",
// "Search for files and folders" and "Resolve errors". Where they leave a behaviour open, it answers
// what the live service is known to answer, and says so at that place.
//
// A control API under /__emulator/ (no auth, JSON) lets a test shape the world (quota, token expiry,
// faults) and look inside it (stored bytes and their SHA-256, request counts per endpoint); the
// table is at `control` below. Everything is in memory and gone when the server stops.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GoogleDriveEmulatorOptions {
  /** Port on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** Lifetime of the access tokens it issues; Google's is 3599 s. */
  tokenLifetimeS?: number;
}

export interface GoogleDriveEmulator {
  origin: string;
  /** GOOGLE_OAUTH_URL: `${origin}/o/oauth2/v2/auth`. */
  oauthUrl: string;
  /** GOOGLE_DRIVE_API_URL: the origin, serving /drive/v3/... and /upload/drive/v3/.... */
  apiUrl: string;
  /** The revoke endpoint: `${origin}/revoke`. */
  revokeUrl: string;
  stop(): Promise<void>;
}

const FOLDER_MIME = 'application/vnd.google-apps.folder';
const SCOPE_FILE = 'https://www.googleapis.com/auth/drive.file';
const SCOPE_DRIVE = 'https://www.googleapis.com/auth/drive';
/** Non-final chunks of a resumable upload are persisted in multiples of this ("Upload file data"). */
const CHUNK_UNIT = 256 * 1024;
/** A free Google account's 15 GB. */
const DEFAULT_QUOTA = 15 * 1024 ** 3;
const DEFAULT_TOKEN_LIFETIME_S = 3599;

interface Token {
  clientId: string;
  /**
   * The browser sign-in it was issued to (a cookie the consent screen sets), '' when the control
   * API issued it. [Note: sign-ins] Each browser that goes through the consent screen is its own
   * sign-in, with its own grant: Google revokes a user's grant, and parallel tests each stand for
   * a user of their own, so one test's Disconnect must not end another's tokens. All sign-ins
   * share the one Drive.
   */
  signin: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

interface StoredFile {
  id: string;
  seq: number;
  clientId: string;
  name: string;
  mimeType: string;
  parents: string[];
  createdTime: string;
  modifiedTime: string;
  /** null for a folder. */
  content: Buffer | null;
  checksums: { md5Checksum: string; sha1Checksum: string; sha256Checksum: string } | null;
  description?: string;
  appProperties?: Record<string, string>;
  properties?: Record<string, string>;
}

interface Metadata {
  name?: string;
  mimeType?: string;
  parents?: string[];
  description?: string;
  appProperties?: Record<string, string>;
  properties?: Record<string, string>;
  createdTime?: string;
  modifiedTime?: string;
}

interface UploadSession {
  id: string;
  clientId: string;
  metadata: Metadata;
  mimeType: string;
  total: number | null;
  parts: Buffer[];
  received: number;
  fields: string | null;
  file: StoredFile | null;
}

interface Fault {
  pathPrefix: string;
  method: string | null;
  remaining: number;
  status: number | null;
  reason: string | null;
  retryAfterS: number | null;
  drop: boolean;
  dropAfterBytes: number;
}

interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  cors: Record<string, string>;
  /** A matched "drop" fault: the connection is destroyed instead of answered. */
  drop: Fault | null;
}

// ---------------------------------------------------------------------------------------------
// Errors in Google's JSON shape ("Resolve errors"). Errors from Google's front end (credentials,
// scopes) carry a `status`; the Drive backend's own (notFound, quota) do not, as the live API.

interface ErrorItem {
  domain: string;
  reason: string;
  message: string;
  location?: string;
  locationType?: string;
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly item: ErrorItem,
    readonly extra: { topMessage?: string; status?: string; headers?: Record<string, string> } = {},
  ) {
    super(item.message);
  }

  body() {
    return {
      error: {
        code: this.code,
        message: this.extra.topMessage ?? this.item.message,
        errors: [this.item],
        ...(this.extra.status ? { status: this.extra.status } : {}),
      },
    };
  }
}

const SEE_CONSOLE = 'See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const errors = {
  notFound: (id: string) =>
    new ApiError(404, {
      domain: 'global',
      reason: 'notFound',
      message: `File not found: ${id}.`,
      location: 'fileId',
      locationType: 'parameter',
    }),
  loginRequired: () =>
    new ApiError(
      401,
      {
        domain: 'global',
        reason: 'required',
        message: 'Login Required.',
        location: 'Authorization',
        locationType: 'header',
      },
      {
        topMessage: `Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${SEE_CONSOLE}`,
        status: 'UNAUTHENTICATED',
        headers: { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/"' },
      },
    ),
  invalidCredentials: () =>
    new ApiError(
      401,
      {
        domain: 'global',
        reason: 'authError',
        message: 'Invalid Credentials',
        location: 'Authorization',
        locationType: 'header',
      },
      {
        topMessage: `Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${SEE_CONSOLE}`,
        status: 'UNAUTHENTICATED',
        headers: {
          'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        },
      },
    ),
  insufficientScopes: () =>
    new ApiError(
      403,
      { domain: 'global', reason: 'insufficientPermissions', message: 'Insufficient Permission' },
      {
        topMessage: 'Request had insufficient authentication scopes.',
        status: 'PERMISSION_DENIED',
      },
    ),
  quotaExceeded: () =>
    new ApiError(403, {
      domain: 'usageLimits',
      reason: 'storageQuotaExceeded',
      message: "The user's Drive storage quota has been exceeded.",
    }),
  invalidParam: (location: string, message = 'Invalid Value') =>
    new ApiError(400, {
      domain: 'global',
      reason: 'invalid',
      message,
      location,
      locationType: 'parameter',
    }),
  invalidFields: (name: string) =>
    new ApiError(400, {
      domain: 'global',
      reason: 'invalidParameter',
      message: `Invalid field selection ${name}`,
      location: 'fields',
      locationType: 'parameter',
    }),
  badRequest: (message: string) =>
    new ApiError(400, { domain: 'global', reason: 'badRequest', message }),
  parseError: () =>
    new ApiError(400, { domain: 'global', reason: 'parseError', message: 'Parse Error' }),
};

/** The error a status fault answers with, by status (reason overridable). */
function faultError(status: number, reason: string | null, retryAfterS: number | null): ApiError {
  const retry: Record<string, string> =
    retryAfterS === null ? {} : { 'Retry-After': String(retryAfterS) };
  const known: Record<string, [string, string]> = {
    userRateLimitExceeded: ['usageLimits', 'User Rate Limit Exceeded'],
    rateLimitExceeded: ['usageLimits', 'Rate Limit Exceeded'],
    storageQuotaExceeded: ['usageLimits', "The user's Drive storage quota has been exceeded."],
    backendError: ['global', 'Backend Error'],
    notFound: ['global', 'Not Found'],
    authError: ['global', 'Invalid Credentials'],
    badRequest: ['global', 'Bad Request'],
  };
  const byStatus =
    status === 429
      ? 'rateLimitExceeded'
      : status === 403
        ? 'userRateLimitExceeded'
        : status === 401
          ? 'authError'
          : status === 404
            ? 'notFound'
            : status >= 500
              ? 'backendError'
              : 'badRequest';
  const chosen = reason ?? byStatus;
  const [domain, message] = known[chosen] ?? ['global', chosen];
  if (status === 401) {
    const e = errors.invalidCredentials();
    return new ApiError(401, e.item, { ...e.extra, headers: { ...e.extra.headers, ...retry } });
  }
  return new ApiError(status, { domain, reason: chosen, message }, { headers: retry });
}

// ---------------------------------------------------------------------------------------------
// `fields`: the partial-response syntax ("a,b(c,d),e/f", "*"), checked against the resource.

type Selection = Map<string, Selection | null>;

function parseFields(spec: string): Selection {
  let i = 0;
  const fail = (): never => {
    throw errors.invalidFields(spec);
  };
  const list = (): Selection => {
    const sel: Selection = new Map();
    for (;;) {
      let name = '';
      while (i < spec.length && !',()'.includes(spec[i]!)) name += spec[i++];
      const path = name.trim().split('/');
      if (path.some((p) => !/^(\*|[A-Za-z][A-Za-z0-9_]*)$/.test(p))) fail();
      let sub: Selection | null = null;
      if (spec[i] === '(') {
        i++;
        sub = list();
        if (spec[i] !== ')') fail();
        i++;
      }
      // a/b(c) is a(b(c)); a selection merges with what is already selected.
      let into: Selection | null = sel;
      for (const [k, p] of path.entries()) {
        if (into === null) break; // an ancestor is already selected whole
        const had: Selection | null | undefined = into.get(p);
        if (k < path.length - 1) {
          if (had === undefined) into.set(p, new Map());
          into = into.get(p)!;
        } else into.set(p, had && sub ? new Map([...had, ...sub]) : had === null ? null : sub);
      }
      while (spec[i] === ' ') i++;
      if (spec[i] !== ',') return sel;
      i++;
    }
  };
  const sel = list();
  if (i !== spec.length) fail();
  return sel;
}

const FILE_FIELDS = new Set(
  (
    'kind id name mimeType description starred trashed explicitlyTrashed parents properties ' +
    'appProperties spaces version webContentLink webViewLink iconLink hasThumbnail thumbnailLink ' +
    'thumbnailVersion viewedByMe viewedByMeTime createdTime modifiedTime modifiedByMeTime ' +
    'modifiedByMe sharedWithMeTime sharingUser owners teamDriveId driveId lastModifyingUser shared ' +
    'ownedByMe capabilities viewersCanCopyContent copyRequiresWriterPermission writersCanShare ' +
    'permissions permissionIds hasAugmentedPermissions folderColorRgb originalFilename ' +
    'fullFileExtension fileExtension md5Checksum sha1Checksum sha256Checksum size quotaBytesUsed ' +
    'headRevisionId contentHints imageMediaMetadata videoMediaMetadata isAppAuthorized exportLinks ' +
    'shortcutDetails contentRestrictions resourceKey linkShareMetadata labelInfo trashingUser ' +
    'trashedTime inheritedPermissionsDisabled downloadRestrictions'
  ).split(' '),
);
const LIST_FIELDS = new Set(['kind', 'nextPageToken', 'incompleteSearch', 'files']);
const ABOUT_FIELDS = new Set(
  (
    'kind user storageQuota driveThemes canCreateDrives importFormats exportFormats appInstalled ' +
    'maxImportSizes maxUploadSize folderColorPalette teamDriveThemes canCreateTeamDrives'
  ).split(' '),
);

function checkNames(sel: Selection, allowed: Set<string>) {
  for (const name of sel.keys())
    if (name !== '*' && !allowed.has(name)) throw errors.invalidFields(name);
}

function select(value: unknown, sel: Selection | null): unknown {
  if (sel === null || sel.has('*')) return value;
  if (Array.isArray(value)) return value.map((v) => select(v, sel));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of sel) if (key in source) out[key] = select(source[key], sub);
  return out;
}

function fileSelection(fields: string | null): Selection {
  const sel = parseFields(fields ?? 'kind,id,name,mimeType');
  checkNames(sel, FILE_FIELDS);
  return sel;
}

// ---------------------------------------------------------------------------------------------
// The `q` language ("Search for files and folders"): the terms the app uses, with and/or/not and
// parentheses. Anything else is a 400 "Invalid Value" on q, as Drive answers an unparsable query.

type Predicate = (f: StoredFile) => boolean;

function parseQuery(q: string, rootId: string): Predicate {
  const tokens: { t: 'str' | 'word' | 'op' | 'paren'; v: string }[] = [];
  const bad = () => errors.invalidParam('q');
  for (let i = 0; i < q.length;) {
    const c = q[i]!;
    if (/\s/.test(c)) i++;
    else if (c === "'") {
      let v = '';
      i++;
      while (i < q.length && q[i] !== "'") {
        if (q[i] === '\\') i++;
        v += q[i++] ?? '';
      }
      if (q[i] !== "'") throw bad();
      i++;
      tokens.push({ t: 'str', v });
    } else if (c === '(' || c === ')') tokens.push({ t: 'paren', v: q[i++]! });
    else if ('=!<>'.includes(c)) {
      const two = q.slice(i, i + 2);
      const v = ['!=', '<=', '>='].includes(two) ? two : c;
      if (v === '!') throw bad();
      tokens.push({ t: 'op', v });
      i += v.length;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(q.slice(i));
      if (!m) throw bad();
      tokens.push({ t: 'word', v: m[0] });
      i += m[0].length;
    }
  }
  let pos = 0;
  const peekWord = (w: string) => tokens[pos]?.t === 'word' && tokens[pos]!.v.toLowerCase() === w;
  const next = () =>
    tokens[pos++] ??
    (() => {
      throw bad();
    })();

  const term = (): Predicate => {
    const first = next();
    if (first.t === 'str') {
      if (!peekWord('in')) throw bad();
      pos++;
      const field = next();
      const id = first.v === 'root' ? rootId : first.v;
      if (field.t === 'word' && field.v === 'parents') return (f) => f.parents.includes(id);
      if (field.t === 'word' && field.v === 'owners' && first.v === 'me') return () => true;
      throw bad();
    }
    if (first.t !== 'word') throw bad();
    const field = first.v;
    const op = peekWord('contains') ? (pos++, 'contains') : next();
    const operator = typeof op === 'string' ? op : op.t === 'op' ? op.v : '';
    const value = next();
    const text = (get: (f: StoredFile) => string): Predicate => {
      if (value.t !== 'str') throw bad();
      const v = value.v;
      if (operator === '=') return (f) => get(f) === v;
      if (operator === '!=') return (f) => get(f) !== v;
      // "contains" on a name matches a prefix of the name or of one of its words.
      if (operator === 'contains')
        return (f) =>
          get(f)
            .split(/\s+/)
            .concat(get(f))
            .some((w) => w.startsWith(v));
      throw bad();
    };
    if (field === 'name') return text((f) => f.name);
    if (field === 'mimeType') return text((f) => f.mimeType);
    if (field === 'trashed' || field === 'starred') {
      if (value.t !== 'word' || !['true', 'false'].includes(value.v)) throw bad();
      const matches = value.v === 'false'; // Nothing here is ever trashed or starred.
      if (operator === '=') return () => matches;
      if (operator === '!=') return () => !matches;
      throw bad();
    }
    if (field === 'createdTime' || field === 'modifiedTime') {
      if (value.t !== 'str' || Number.isNaN(Date.parse(value.v))) throw bad();
      const at = Date.parse(value.v);
      const cmp: Record<string, (a: number) => boolean> = {
        '=': (a) => a === at,
        '!=': (a) => a !== at,
        '<': (a) => a < at,
        '<=': (a) => a <= at,
        '>': (a) => a > at,
        '>=': (a) => a >= at,
      };
      const test = cmp[operator];
      if (!test) throw bad();
      return (f) => test(Date.parse(f[field]));
    }
    throw bad();
  };
  const unary = (): Predicate => {
    if (peekWord('not')) {
      pos++;
      const inner = unary();
      return (f) => !inner(f);
    }
    if (tokens[pos]?.v === '(' && tokens[pos]?.t === 'paren') {
      pos++;
      const inner = or();
      if (next().v !== ')') throw bad();
      return inner;
    }
    return term();
  };
  const and = (): Predicate => {
    const parts = [unary()];
    while (peekWord('and')) {
      pos++;
      parts.push(unary());
    }
    return (f) => parts.every((p) => p(f));
  };
  const or = (): Predicate => {
    const parts = [and()];
    while (peekWord('or')) {
      pos++;
      parts.push(and());
    }
    return (f) => parts.some((p) => p(f));
  };
  if (tokens.length === 0) return () => true;
  const predicate = or();
  if (pos !== tokens.length) throw bad();
  return predicate;
}

// ---------------------------------------------------------------------------------------------
// HTTP plumbing.

const ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'content-range',
  'content-length',
  'range',
  'x-upload-content-length',
  'x-upload-content-type',
  'x-goog-api-client',
  'x-guploader-no-308',
  'if-match',
  'if-none-match',
  'x-requested-with',
].join(', ');
const EXPOSE_HEADERS = [
  'Location',
  'Range',
  'Content-Range',
  'Content-Length',
  'Content-Type',
  'Retry-After',
  'WWW-Authenticate',
  'X-GUploader-UploadID',
  'X-HTTP-Status-Code-Override',
  'ETag',
].join(', ');

function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin
    ? {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': EXPOSE_HEADERS,
        Vary: 'Origin',
      }
    : { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
}

function send(
  ctx: Ctx,
  status: number,
  body: string | Buffer = '',
  headers: Record<string, string> = {},
  statusMessage?: string,
) {
  if (ctx.drop) {
    ctx.req.socket.destroy();
    return;
  }
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  ctx.res.writeHead(status, statusMessage ?? http.STATUS_CODES[status] ?? '', {
    ...ctx.cors,
    'Content-Length': String(payload.length),
    ...headers,
  });
  ctx.res.end(payload);
}

const sendJson = (ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(ctx, status, JSON.stringify(body, null, 2), {
    'Content-Type': 'application/json; charset=UTF-8',
    ...headers,
  });

/** Reads the request body; with `limit`, stops after that many bytes (complete: false). */
function readBody(req: http.IncomingMessage, limit = Infinity) {
  return new Promise<{ body: Buffer; complete: boolean }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        settled = true;
        req.pause();
        resolve({ body: Buffer.concat(chunks).subarray(0, limit), complete: false });
      }
    });
    req.on('end', () => {
      if (!settled) resolve({ body: Buffer.concat(chunks), complete: true });
      settled = true;
    });
    req.on('error', reject);
  });
}

function parseJsonBody(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw errors.parseError();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw errors.parseError();
  return parsed as Record<string, unknown>;
}

/** multipart/related (RFC 2387) as Drive's multipart upload takes it: metadata part, media part. */
function parseMultipart(body: Buffer, contentType: string) {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/related/i.test(contentType) || !m) {
    throw errors.badRequest(
      'Multipart upload requires a multipart/related Content-Type with a boundary.',
    );
  }
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    if (body.subarray(start, start + 2).toString() === '\r\n') start += 2;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    if (headerEnd === -1) break;
    const nextAt = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (nextAt === -1) break;
    const headers: Record<string, string> = {};
    for (const line of body.subarray(start, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: body.subarray(headerEnd + 4, nextAt) });
    at = nextAt + 2;
  }
  const [meta, media] = parts;
  if (parts.length !== 2 || !meta || !media) {
    throw errors.badRequest('Multipart upload must have exactly two parts: metadata and media.');
  }
  return {
    metadata: parseJsonBody(meta.body),
    media: media.body,
    mediaType: media.headers['content-type'],
  };
}

/**
 * The Content-Range of a PUT to an upload session: `bytes a-b/total` carries bytes a..b,
 * `bytes *\/total` asks for the status, and total is `*` while the client does not know it yet.
 * Without the header the body is the whole file. null: unparsable.
 */
function parseContentRange(header: string | undefined, bodyLength: number) {
  if (header === undefined) return { start: 0, end: bodyLength - 1, total: bodyLength };
  const m = /^bytes (?:\*|(\d+)-(\d+))\/(\*|\d+)$/.exec(header.trim());
  if (!m) return null;
  const total = m[3] === '*' ? null : Number(m[3]);
  if (m[1] === undefined) return { start: null, end: null, total };
  return { start: Number(m[1]), end: Number(m[2]), total };
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const randomId = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

// ---------------------------------------------------------------------------------------------
// The emulator.

export async function startGoogleDriveEmulator(
  opts: GoogleDriveEmulatorOptions = {},
): Promise<GoogleDriveEmulator> {
  const defaultLifetimeS = opts.tokenLifetimeS ?? DEFAULT_TOKEN_LIFETIME_S;
  let origin = '';
  const rootId = `0A${randomId(14)}Uk9PVA`;

  const state = {
    tokens: new Map<string, Token>(),
    /** Scopes each client was granted: what prompt=none can hand out silently. */
    grants: new Map<string, Set<string>>(),
    files: new Map<string, StoredFile>(),
    sessions: new Map<string, UploadSession>(),
    faults: [] as Fault[],
    /** Files stored from now on whose bytes get one flipped, as a provider damaging a copy. */
    corruptNext: 0,
    stats: new Map<string, number>(),
    denyNext: [] as string[],
    tokenLifetimeS: defaultLifetimeS,
    quotaBytes: DEFAULT_QUOTA as number | null,
    seq: 0,
  };
  const now = () => new Date().toISOString();
  // The user's "My Drive": a parent for files created without one, never listed.
  const root: StoredFile = {
    id: rootId,
    seq: -1,
    clientId: '',
    name: 'My Drive',
    mimeType: FOLDER_MIME,
    parents: [],
    createdTime: now(),
    modifiedTime: now(),
    content: null,
    checksums: null,
  };
  const reset = () => {
    for (const key of ['tokens', 'grants', 'files', 'sessions', 'stats'] as const)
      state[key].clear();
    state.files.set(rootId, root);
    state.faults = [];
    state.corruptNext = 0;
    state.denyNext = [];
    state.tokenLifetimeS = defaultLifetimeS;
    state.quotaBytes = DEFAULT_QUOTA;
  };
  reset();
  const usage = () => [...state.files.values()].reduce((n, f) => n + (f.content?.length ?? 0), 0);

  /** A grant is a sign-in's ('' for the control API's) for one client ([Note: sign-ins]). */
  const grantKey = (signin: string, clientId: string) => `${signin}|${clientId}`;

  function issueToken(clientId: string, scopes: string[], signin = '') {
    const value = `ya29.${randomId(48)}`;
    state.tokens.set(value, {
      clientId,
      signin,
      scopes,
      expiresAt: Date.now() + state.tokenLifetimeS * 1000,
      revoked: false,
    });
    return {
      access_token: value,
      token_type: 'Bearer',
      expires_in: state.tokenLifetimeS,
      scope: scopes.join(' '),
    };
  }

  /** Bearer token (or access_token query parameter) → the client; drive.file or drive scope. */
  function authenticate(ctx: Ctx): { clientId: string; all: boolean } {
    const header = ctx.req.headers.authorization;
    const value = header
      ? /^Bearer\s+(.+)$/i.exec(header)?.[1]
      : ctx.url.searchParams.get('access_token');
    if (!value) throw errors.loginRequired();
    const token = state.tokens.get(value.trim());
    if (!token || token.revoked || token.expiresAt <= Date.now()) throw errors.invalidCredentials();
    const all = token.scopes.includes(SCOPE_DRIVE);
    if (!all && !token.scopes.includes(SCOPE_FILE)) throw errors.insufficientScopes();
    return { clientId: token.clientId, all };
  }

  /** A file this client may see: with drive.file, only the files it created (and the root). */
  function visibleFile(id: string, who: { clientId: string; all: boolean }): StoredFile {
    const file = state.files.get(id === 'root' ? rootId : id);
    if (!file || (!who.all && file.clientId !== who.clientId && file.id !== rootId))
      throw errors.notFound(id);
    return file;
  }

  function fileResource(f: StoredFile): Record<string, unknown> {
    const content = f.content;
    return {
      kind: 'drive#file',
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      ...(f.id === rootId ? {} : { parents: f.parents }),
      ...(f.description === undefined ? {} : { description: f.description }),
      ...(f.appProperties ? { appProperties: f.appProperties } : {}),
      ...(f.properties ? { properties: f.properties } : {}),
      starred: false,
      trashed: false,
      explicitlyTrashed: false,
      spaces: ['drive'],
      version: '1',
      createdTime: f.createdTime,
      modifiedTime: f.modifiedTime,
      ownedByMe: true,
      quotaBytesUsed: String(content?.length ?? 0),
      ...(content === null
        ? {}
        : {
            originalFilename: f.name,
            size: String(content.length),
            ...f.checksums,
          }),
    };
  }

  /** Checks create metadata (writable fields, the one parent) before anything is stored. */
  function checkMetadata(
    raw: Record<string, unknown>,
    who: { clientId: string; all: boolean },
  ): Metadata {
    for (const key of ['size', 'md5Checksum', 'sha1Checksum', 'sha256Checksum']) {
      if (key in raw) {
        throw new ApiError(403, {
          domain: 'global',
          reason: 'fieldNotWritable',
          message: 'The resource body includes fields which are not directly writable.',
        });
      }
    }
    // Only ids from files.generateIds are usable, and that method is not emulated.
    if ('id' in raw) throw errors.invalidParam('id', 'The provided file ID is not usable.');
    const str = (k: string) => {
      const v = raw[k];
      if (v !== undefined && typeof v !== 'string')
        throw errors.badRequest(`Invalid value for ${k}.`);
      return v;
    };
    const record = (k: string) => {
      const v = raw[k];
      if (v === undefined) return undefined;
      if (
        typeof v !== 'object' ||
        v === null ||
        Object.values(v).some((x) => typeof x !== 'string')
      ) {
        throw errors.badRequest(`Invalid value for ${k}.`);
      }
      return v as Record<string, string>;
    };
    const parents = raw.parents;
    if (
      parents !== undefined &&
      (!Array.isArray(parents) || parents.some((p) => typeof p !== 'string'))
    ) {
      throw errors.badRequest('Invalid value for parents.');
    }
    // Since 2020 a Drive item has exactly one parent.
    if (Array.isArray(parents) && parents.length > 1) {
      throw new ApiError(403, {
        domain: 'global',
        reason: 'cannotAddParent',
        message: 'Increasing the number of parents is not allowed.',
      });
    }
    const parentIds = (parents as string[] | undefined)?.map((p) => {
      const parent = visibleFile(p, who);
      if (parent.mimeType !== FOLDER_MIME) throw errors.notFound(p);
      return parent.id;
    });
    return {
      name: str('name'),
      mimeType: str('mimeType'),
      parents: parentIds,
      description: str('description'),
      appProperties: record('appProperties'),
      properties: record('properties'),
      createdTime: str('createdTime'),
      modifiedTime: str('modifiedTime'),
    };
  }

  function storeFile(clientId: string, meta: Metadata, content: Buffer | null, mediaType?: string) {
    if (content?.length && state.corruptNext > 0) {
      state.corruptNext--;
      content = Buffer.from(content);
      const mid = content.length >> 1;
      content[mid] = (content[mid] ?? 0) ^ 0xff;
    }
    const mimeType = meta.mimeType ?? mediaType ?? 'application/octet-stream';
    const folder = mimeType === FOLDER_MIME;
    const bytes = folder ? null : (content ?? Buffer.alloc(0));
    if (bytes && state.quotaBytes !== null && usage() + bytes.length > state.quotaBytes) {
      throw errors.quotaExceeded();
    }
    const created = meta.createdTime ?? now();
    const file: StoredFile = {
      id: `1${randomId(24)}`,
      seq: state.seq++,
      clientId,
      name: meta.name ?? 'Untitled',
      mimeType,
      parents: meta.parents?.length ? meta.parents : [rootId],
      createdTime: created,
      modifiedTime: meta.modifiedTime ?? created,
      content: bytes,
      checksums: bytes && {
        md5Checksum: crypto.createHash('md5').update(bytes).digest('hex'),
        sha1Checksum: crypto.createHash('sha1').update(bytes).digest('hex'),
        sha256Checksum: sha256(bytes),
      },
      ...(meta.description === undefined ? {} : { description: meta.description }),
      ...(meta.appProperties ? { appProperties: meta.appProperties } : {}),
      ...(meta.properties ? { properties: meta.properties } : {}),
    };
    state.files.set(file.id, file);
    return file;
  }

  const answerFile = (ctx: Ctx, status: number, file: StoredFile, fields: string | null) =>
    sendJson(ctx, status, select(fileResource(file), fileSelection(fields)));

  // --- OAuth 2.0 for client-side web apps --------------------------------------------------

  function oauthErrorPage(ctx: Ctx, error: string, detail: string) {
    send(
      ctx,
      400,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error 400: ${error}</title></head>` +
        `<body><main><h1>Access blocked: Authorization Error</h1><p>Error 400: ${error}</p>` +
        `<p>${escapeHtml(detail)}</p></main></body></html>`,
      { 'Content-Type': 'text/html; charset=utf-8' },
    );
  }

  function authorize(ctx: Ctx) {
    const q = ctx.url.searchParams;
    const clientId = q.get('client_id');
    const redirectUri = q.get('redirect_uri');
    const responseType = q.get('response_type');
    const scope = q.get('scope');
    const requestState = q.get('state');
    const prompts = (q.get('prompt') ?? '').split(' ').filter(Boolean);
    if (!clientId)
      return oauthErrorPage(ctx, 'invalid_request', 'Missing required parameter: client_id');
    if (!redirectUri)
      return oauthErrorPage(ctx, 'invalid_request', 'Missing required parameter: redirect_uri');
    let redirect: URL;
    try {
      redirect = new URL(redirectUri);
    } catch {
      return oauthErrorPage(
        ctx,
        'invalid_request',
        `Invalid parameter value for redirect_uri: ${redirectUri}`,
      );
    }
    if (!['http:', 'https:'].includes(redirect.protocol) || redirect.hash) {
      return oauthErrorPage(
        ctx,
        'invalid_request',
        `Invalid parameter value for redirect_uri: ${redirectUri}`,
      );
    }
    if (!responseType)
      return oauthErrorPage(ctx, 'invalid_request', 'Missing required parameter: response_type');
    // Only the implicit (token) flow is emulated.
    if (responseType !== 'token') {
      return oauthErrorPage(
        ctx,
        'unsupported_response_type',
        `Invalid response_type: ${responseType}`,
      );
    }
    if (!scope) return oauthErrorPage(ctx, 'invalid_request', 'Missing required parameter: scope');
    const scopes = scope.split(/\s+/).filter(Boolean);
    const known = (s: string) =>
      s.startsWith('https://www.googleapis.com/auth/') ||
      ['openid', 'email', 'profile'].includes(s);
    if (!scopes.every(known))
      return oauthErrorPage(ctx, 'invalid_scope', `Some requested scopes were invalid: ${scope}`);

    const reply = (params: Record<string, string | number>) => {
      if (requestState !== null) params.state = requestState;
      const fragment = Object.entries(params)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&');
      send(ctx, 302, '', { Location: `${redirect.href}#${fragment}` });
    };
    const denial = state.denyNext.shift();
    if (denial) return reply({ error: denial });
    // [Note: sign-ins] this browser's sign-in, made on its first visit.
    const cookie = /(?:^|;\s*)emu_signin=([A-Za-z0-9_-]+)/.exec(ctx.req.headers.cookie ?? '');
    const signin = cookie?.[1] ?? randomId(16);
    if (!cookie) {
      ctx.res.setHeader('Set-Cookie', `emu_signin=${signin}; Path=/; HttpOnly; SameSite=Lax`);
    }
    const key = grantKey(signin, clientId);
    const granted = new Set([
      ...(state.grants.get(grantKey('', clientId)) ?? []),
      ...(state.grants.get(key) ?? []),
    ]);
    if (prompts.includes('none') && !scopes.every((s) => granted.has(s))) {
      return reply({ error: 'interaction_required' });
    }
    const all = new Set([...granted, ...scopes]);
    state.grants.set(key, all);
    const tokenScopes = q.get('include_granted_scopes') === 'true' ? [...all] : scopes;
    const token = issueToken(clientId, tokenScopes, signin);
    reply({ ...token, authuser: 0, prompt: prompts.includes('none') ? 'none' : 'consent' });
  }

  async function revoke(ctx: Ctx) {
    const { body } = await readBody(ctx.req);
    const value =
      new URLSearchParams(body.toString('utf8')).get('token') ?? ctx.url.searchParams.get('token');
    const token = value ? state.tokens.get(value) : undefined;
    if (!token || token.revoked || token.expiresAt <= Date.now()) {
      return sendJson(ctx, 400, {
        error: 'invalid_token',
        error_description: 'Token expired or revoked',
      });
    }
    // Revoking a token removes the app's whole grant, and with it every token it holds: that
    // sign-in's, or every one for a token the control API issued ([Note: sign-ins]).
    for (const t of state.tokens.values()) {
      if (t.clientId === token.clientId && (token.signin === '' || t.signin === token.signin))
        t.revoked = true;
    }
    if (token.signin === '') {
      for (const k of [...state.grants.keys()])
        if (k.endsWith(`|${token.clientId}`)) state.grants.delete(k);
    } else state.grants.delete(grantKey(token.signin, token.clientId));
    sendJson(ctx, 200, {});
  }

  // --- Drive v3 ----------------------------------------------------------------------------

  function listFiles(ctx: Ctx) {
    const who = authenticate(ctx);
    const q = ctx.url.searchParams;
    const pageSizeRaw = q.get('pageSize');
    const pageSize = pageSizeRaw === null ? 100 : Number(pageSizeRaw);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw errors.invalidParam(
        'pageSize',
        `Invalid value '${pageSizeRaw}'. Values must be within the range: [1, 1000]`,
      );
    }
    const query = q.get('q') ?? '';
    const predicate = parseQuery(query, rootId);
    let offset = 0;
    const pageToken = q.get('pageToken');
    if (pageToken) {
      try {
        const parsed = JSON.parse(Buffer.from(pageToken, 'base64url').toString('utf8')) as {
          q: unknown;
          o: unknown;
        };
        if (parsed.q !== query || typeof parsed.o !== 'number') throw new Error('mismatch');
        offset = parsed.o;
      } catch {
        throw errors.invalidParam('pageToken');
      }
    }
    const sel = parseFields(
      q.get('fields') ?? 'kind,incompleteSearch,nextPageToken,files(kind,id,name,mimeType)',
    );
    checkNames(sel, LIST_FIELDS);
    const filesSel = sel.get('files');
    if (filesSel) checkNames(filesSel, FILE_FIELDS);
    // orderBy is accepted and ignored: results come in creation order.
    const matches = [...state.files.values()]
      .filter((f) => f.id !== rootId && (who.all || f.clientId === who.clientId) && predicate(f))
      .sort((a, b) => a.seq - b.seq);
    const page = matches.slice(offset, offset + pageSize);
    const more = offset + pageSize < matches.length;
    const body = {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: page.map(fileResource),
      ...(more
        ? {
            nextPageToken: Buffer.from(JSON.stringify({ q: query, o: offset + pageSize })).toString(
              'base64url',
            ),
          }
        : {}),
    };
    sendJson(ctx, 200, select(body, sel));
  }

  async function createMetadataOnly(ctx: Ctx) {
    const who = authenticate(ctx);
    const { body, complete } = await readBody(ctx.req, ctx.drop?.dropAfterBytes);
    if (!complete) return ctx.req.socket.destroy();
    const fields = ctx.url.searchParams.get('fields');
    fileSelection(fields);
    answerFile(
      ctx,
      200,
      storeFile(who.clientId, checkMetadata(parseJsonBody(body), who), null),
      fields,
    );
  }

  async function upload(ctx: Ctx) {
    const who = authenticate(ctx);
    const q = ctx.url.searchParams;
    const uploadType = q.get('uploadType');
    const fields = q.get('fields');
    fileSelection(fields);
    const { body, complete } = await readBody(ctx.req, ctx.drop?.dropAfterBytes);
    if (!complete) return ctx.req.socket.destroy();
    const contentType = ctx.req.headers['content-type'] ?? '';
    if (uploadType === 'multipart') {
      const { metadata, media, mediaType } = parseMultipart(body, contentType);
      const meta = checkMetadata(metadata, who);
      return answerFile(ctx, 200, storeFile(who.clientId, meta, media, mediaType), fields);
    }
    if (uploadType === 'media') {
      return answerFile(
        ctx,
        200,
        storeFile(who.clientId, {}, body, contentType || undefined),
        fields,
      );
    }
    if (uploadType === 'resumable') {
      const meta = checkMetadata(parseJsonBody(body), who);
      const lengthHeader = ctx.req.headers['x-upload-content-length'];
      const total = lengthHeader === undefined ? null : Number(lengthHeader);
      if (total !== null && (!Number.isInteger(total) || total < 0)) {
        throw errors.badRequest('Invalid X-Upload-Content-Length.');
      }
      if (total !== null && state.quotaBytes !== null && usage() + total > state.quotaBytes) {
        throw errors.quotaExceeded();
      }
      const typeHeader = ctx.req.headers['x-upload-content-type'];
      const session: UploadSession = {
        id: `AHVr${randomId(36)}`,
        clientId: who.clientId,
        metadata: meta,
        mimeType:
          meta.mimeType ??
          (typeof typeHeader === 'string' ? typeHeader : 'application/octet-stream'),
        total,
        parts: [],
        received: 0,
        fields,
        file: null,
      };
      state.sessions.set(session.id, session);
      const location = new URL('/upload/drive/v3/files', origin);
      for (const [k, v] of q) if (k !== 'access_token') location.searchParams.append(k, v);
      location.searchParams.set('upload_id', session.id);
      return send(ctx, 200, '', { Location: location.href, 'X-GUploader-UploadID': session.id });
    }
    throw errors.invalidParam('uploadType', `Invalid value '${uploadType ?? ''}' for uploadType.`);
  }

  /**
   * A PUT to a resumable session URI ("Upload file data": resumable upload). The session URI is
   * the credential, so no Authorization is needed. Content-Range `bytes a-b/total` (or `/*` while
   * the size is unknown) carries a chunk; `bytes *\/total` with no body asks for the status.
   * Bytes the server already holds are skipped; a chunk starting past them is refused with the
   * live service's 503 text; a non-final chunk is kept only up to a multiple of 256 KiB.
   */
  async function uploadChunk(ctx: Ctx, session: UploadSession) {
    const { body, complete } = await readBody(ctx.req, ctx.drop?.dropAfterBytes);
    const header = ctx.req.headers['content-range'];
    const range = parseContentRange(header, body.length);
    const unparsable = () =>
      send(ctx, 400, 'Failed to parse Content-Range header.', {
        'Content-Type': 'text/plain; charset=utf-8',
      });
    if (
      !range ||
      (range.total !== null && session.total !== null && range.total !== session.total)
    ) {
      return unparsable();
    }
    if (session.file) {
      return complete
        ? answerFile(ctx, 200, session.file, session.fields)
        : ctx.req.socket.destroy();
    }
    if (range.total !== null) session.total = range.total;
    const total = session.total;

    const incomplete = () => {
      const held: Record<string, string> =
        session.received > 0 ? { Range: `bytes=0-${session.received - 1}` } : {};
      // A client that cannot see a 308 (X-GUploader-No-308) gets a 200 that says so.
      if (ctx.req.headers['x-guploader-no-308'] === 'yes') {
        return send(ctx, 200, '', { ...held, 'X-HTTP-Status-Code-Override': '308' });
      }
      send(ctx, 308, '', held, 'Resume Incomplete');
    };
    const finish = () => {
      let file: StoredFile;
      try {
        file = storeFile(
          session.clientId,
          session.metadata,
          Buffer.concat(session.parts),
          session.mimeType,
        );
      } catch (e) {
        state.sessions.delete(session.id);
        throw e;
      }
      session.file = file;
      session.parts = [];
      answerFile(ctx, 200, file, session.fields);
    };

    if (range.start === null) {
      return total !== null && session.received === total ? finish() : incomplete();
    }
    const { start, end } = range;
    if (
      (header !== undefined && end < start) ||
      (total !== null && end >= total) ||
      (complete && body.length !== end - start + 1)
    ) {
      return unparsable();
    }
    if (start > session.received) {
      return send(
        ctx,
        503,
        `Invalid request.  According to the Content-Range header, the upload offset is ${start} byte(s), which exceeds already uploaded size of ${session.received} byte(s).`,
        { 'Content-Type': 'text/plain; charset=utf-8' },
      );
    }
    const fresh = body.subarray(session.received - start);
    if (complete && total !== null && end + 1 === total) {
      session.parts.push(Buffer.from(fresh));
      session.received += fresh.length;
      return finish();
    }
    const keep =
      Math.floor((session.received + fresh.length) / CHUNK_UNIT) * CHUNK_UNIT - session.received;
    if (keep > 0) {
      session.parts.push(Buffer.from(fresh.subarray(0, keep)));
      session.received += keep;
    }
    if (!complete) return ctx.req.socket.destroy();
    incomplete();
  }

  function getFile(ctx: Ctx, id: string) {
    const who = authenticate(ctx);
    const file = visibleFile(id, who);
    const q = ctx.url.searchParams;
    if (q.get('alt') !== 'media') return answerFile(ctx, 200, file, q.get('fields'));
    if (file.content === null) {
      throw new ApiError(403, {
        domain: 'global',
        reason: 'fileNotDownloadable',
        message:
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
        location: 'alt',
        locationType: 'parameter',
      });
    }
    const content = file.content;
    const size = content.length;
    let status = 200;
    let [from, to] = [0, size - 1];
    const range = ctx.req.headers.range;
    const rm = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
    if (rm && (rm[1] !== '' || rm[2] !== '')) {
      if (rm[1] === '') [from, to] = [Math.max(0, size - Number(rm[2])), size - 1];
      else
        [from, to] = [Number(rm[1]), rm[2] === '' ? size - 1 : Math.min(Number(rm[2]), size - 1)];
      if (from >= size || from > to) {
        return send(ctx, 416, 'Request range not satisfiable', {
          'Content-Range': `bytes */${size}`,
          'Content-Type': 'text/plain; charset=utf-8',
        });
      }
      status = 206;
    }
    const headers: Record<string, string> = {
      ...ctx.cors,
      'Content-Type': file.mimeType,
      'Content-Length': String(to - from + 1),
      'Content-Disposition': 'attachment',
      ...(status === 206 ? { 'Content-Range': `bytes ${from}-${to}/${size}` } : {}),
    };
    const slice = content.subarray(from, to + 1);
    if (ctx.drop) {
      // The connection dies mid-body: part of the bytes arrive, then nothing.
      ctx.res.writeHead(status, headers);
      ctx.res.write(
        slice.subarray(0, Math.min(ctx.drop.dropAfterBytes, Math.floor(slice.length / 2))),
      );
      setTimeout(() => ctx.req.socket.destroy(), 20);
      return;
    }
    ctx.res.writeHead(status, headers);
    ctx.res.end(slice);
  }

  function deleteFile(ctx: Ctx, id: string) {
    const who = authenticate(ctx);
    const file = visibleFile(id, who);
    if (file.id === rootId) {
      throw new ApiError(403, {
        domain: 'global',
        reason: 'insufficientFilePermissions',
        message: 'The user does not have sufficient permissions for this file.',
      });
    }
    // Deleting a folder deletes everything under it.
    const doomed = [file.id];
    for (let i = 0; i < doomed.length; i++) {
      for (const f of state.files.values()) if (f.parents.includes(doomed[i]!)) doomed.push(f.id);
    }
    for (const d of doomed) state.files.delete(d);
    send(ctx, 204);
  }

  function about(ctx: Ctx) {
    authenticate(ctx);
    const fields = ctx.url.searchParams.get('fields');
    if (!fields) {
      throw new ApiError(400, {
        domain: 'global',
        reason: 'required',
        message: "The 'fields' parameter is required for this method.",
        location: 'fields',
        locationType: 'parameter',
      });
    }
    const sel = parseFields(fields);
    checkNames(sel, ABOUT_FIELDS);
    const used = String(usage());
    const body = {
      kind: 'drive#about',
      user: {
        kind: 'drive#user',
        displayName: 'Emulated User',
        emailAddress: 'drive-user@example.com',
        me: true,
        permissionId: '01234567890123456789',
      },
      storageQuota: {
        ...(state.quotaBytes === null ? {} : { limit: String(state.quotaBytes) }),
        usage: used,
        usageInDrive: used,
        usageInDriveTrash: '0',
      },
      maxUploadSize: '5242880000000',
      appInstalled: true,
      canCreateDrives: false,
    };
    sendJson(ctx, 200, select(body, sel));
  }

  // --- Control API -------------------------------------------------------------------------

  /**
   * POST reset                       everything back to a fresh start (files, tokens, grants, faults…)
   * POST token-lifetime {seconds}     lifetime of tokens issued from now on
   * POST tokens {clientId, scope?}    issue a token without the browser flow (records a grant)
   * POST tokens/expire                every token issued so far expires now
   * POST tokens/revoke {token?}       every token issued so far is revoked, or only `token`
   *                                   (one user removing the app's access, amid other tests)
   * POST grants/forget                no client has a grant: prompt=none answers interaction_required
   * POST authorize/deny-next {error?} the next authorize answers #error=access_denied (or error)
   * POST quota {bytes}                storage limit in bytes; null for unlimited
   * POST faults {pathPrefix, method?, count?, status?, reason?, retryAfterS?, drop?, dropAfterBytes?}
   *                                   the next `count` requests matching answer `status`, or have
   *                                   their connection destroyed mid-body (drop)
   * DELETE faults                     clears the faults
   * POST corrupt-next {count?}        the next `count` (1) files stored hold their bytes with one
   *                                   flipped, and checksums of those bytes (a damaged copy)
   * GET files                         {files: [...metadata, clientId, sha256]}
   * GET files/:id/content             the stored bytes
   * GET stats                         {requests: {endpoint: count}}
   */
  async function control(ctx: Ctx, path: string) {
    const method = ctx.req.method ?? 'GET';
    const { body } = await readBody(ctx.req);
    let input: Record<string, unknown>;
    try {
      input = parseJsonBody(body);
    } catch {
      return sendJson(ctx, 400, { error: 'body must be a JSON object' });
    }
    const ok = () => sendJson(ctx, 200, { ok: true });
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
    const route = `${method} ${path}`;
    if (route === 'POST reset') return (reset(), ok());
    if (route === 'POST token-lifetime') {
      const seconds = num(input.seconds);
      if (seconds === null) return sendJson(ctx, 400, { error: 'seconds must be a number >= 0' });
      state.tokenLifetimeS = seconds;
      return ok();
    }
    if (route === 'POST tokens') {
      if (typeof input.clientId !== 'string')
        return sendJson(ctx, 400, { error: 'clientId is required' });
      const scopes = typeof input.scope === 'string' ? input.scope.split(' ') : [SCOPE_FILE];
      state.grants.set(
        grantKey('', input.clientId),
        new Set([...(state.grants.get(grantKey('', input.clientId)) ?? []), ...scopes]),
      );
      return sendJson(ctx, 200, issueToken(input.clientId, scopes));
    }
    if (route === 'POST tokens/expire') {
      for (const t of state.tokens.values()) t.expiresAt = Date.now() - 1;
      return ok();
    }
    if (route === 'POST tokens/revoke') {
      if (typeof input.token === 'string') {
        const one = state.tokens.get(input.token);
        if (!one) return sendJson(ctx, 400, { error: 'unknown token' });
        one.revoked = true;
        return ok();
      }
      for (const t of state.tokens.values()) t.revoked = true;
      return ok();
    }
    if (route === 'POST grants/forget') return (state.grants.clear(), ok());
    if (route === 'POST authorize/deny-next') {
      state.denyNext.push(typeof input.error === 'string' ? input.error : 'access_denied');
      return ok();
    }
    if (route === 'POST quota') {
      const bytes = input.bytes === null ? null : num(input.bytes);
      if (bytes === null && input.bytes !== null)
        return sendJson(ctx, 400, { error: 'bytes must be a number or null' });
      state.quotaBytes = bytes;
      return ok();
    }
    if (route === 'POST faults') {
      const status = input.status === undefined ? null : num(input.status);
      if (
        typeof input.pathPrefix !== 'string' ||
        (input.drop !== true && (status === null || status < 400))
      ) {
        return sendJson(ctx, 400, {
          error: 'pathPrefix and either status (>= 400) or drop: true are required',
        });
      }
      state.faults.push({
        pathPrefix: input.pathPrefix,
        method: typeof input.method === 'string' ? input.method.toUpperCase() : null,
        remaining: num(input.count) ?? 1,
        status,
        reason: typeof input.reason === 'string' ? input.reason : null,
        retryAfterS: num(input.retryAfterS) ?? (status === 429 ? 1 : null),
        drop: input.drop === true,
        dropAfterBytes: num(input.dropAfterBytes) ?? CHUNK_UNIT,
      });
      return ok();
    }
    if (route === 'DELETE faults') return ((state.faults = []), ok());
    if (route === 'POST corrupt-next') return ((state.corruptNext = num(input.count) ?? 1), ok());
    if (route === 'GET files') {
      const files = [...state.files.values()]
        .filter((f) => f.id !== rootId)
        .sort((a, b) => a.seq - b.seq)
        .map((f) => ({
          ...fileResource(f),
          clientId: f.clientId,
          sha256: f.checksums?.sha256Checksum ?? null,
        }));
      return sendJson(ctx, 200, { files });
    }
    const content = /^GET files\/([^/]+)\/content$/.exec(route);
    if (content) {
      const file = state.files.get(decodeURIComponent(content[1]!));
      if (!file?.content) return sendJson(ctx, 404, { error: 'no such file with content' });
      return send(ctx, 200, file.content, { 'Content-Type': 'application/octet-stream' });
    }
    if (route === 'GET stats') {
      return sendJson(ctx, 200, { requests: Object.fromEntries([...state.stats].sort()) });
    }
    sendJson(ctx, 404, { error: `unknown control endpoint: ${route}` });
  }

  // --- Routing -----------------------------------------------------------------------------

  const FILE_PATH = /^\/drive\/v3\/files\/([^/]+)$/;

  /** The name a request is counted under in the stats. */
  function endpointOf(method: string, url: URL): string {
    const p = url.pathname;
    if (p === '/o/oauth2/v2/auth') return 'oauth.authorize';
    if (p === '/revoke') return 'oauth.revoke';
    if (p === '/drive/v3/about') return 'about.get';
    if (p === '/drive/v3/files') return method === 'POST' ? 'files.create' : 'files.list';
    if (FILE_PATH.test(p)) {
      if (method === 'DELETE') return 'files.delete';
      return url.searchParams.get('alt') === 'media' ? 'files.get(media)' : 'files.get';
    }
    if (p === '/upload/drive/v3/files') {
      if (url.searchParams.has('upload_id'))
        return method === 'DELETE' ? 'upload.cancel' : 'upload.chunk';
      return `files.create(${url.searchParams.get('uploadType') ?? '?'})`;
    }
    return 'unknown';
  }

  async function handle(ctx: Ctx) {
    const method = ctx.req.method ?? 'GET';
    const p = ctx.url.pathname;
    if (method === 'OPTIONS') {
      return send(ctx, 204, '', {
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': '3600',
      });
    }
    if (p.startsWith('/__emulator/')) return control(ctx, p.slice('/__emulator/'.length));

    const endpoint = endpointOf(method, ctx.url);
    state.stats.set(endpoint, (state.stats.get(endpoint) ?? 0) + 1);
    const fault = state.faults.find(
      (f) => f.remaining > 0 && p.startsWith(f.pathPrefix) && (!f.method || f.method === method),
    );
    if (fault) {
      fault.remaining--;
      state.faults = state.faults.filter((f) => f.remaining > 0);
      if (fault.drop) ctx.drop = fault;
      else {
        await readBody(ctx.req);
        throw faultError(fault.status ?? 500, fault.reason, fault.retryAfterS);
      }
    }

    if (p === '/o/oauth2/v2/auth' && method === 'GET') return authorize(ctx);
    if (p === '/revoke' && (method === 'POST' || method === 'GET')) return revoke(ctx);
    if (p === '/drive/v3/about' && method === 'GET') return about(ctx);
    if (p === '/drive/v3/files' && method === 'GET') return listFiles(ctx);
    if (p === '/drive/v3/files' && method === 'POST') return createMetadataOnly(ctx);
    const fileMatch = FILE_PATH.exec(p);
    if (fileMatch && method === 'GET') return getFile(ctx, decodeURIComponent(fileMatch[1]!));
    if (fileMatch && method === 'DELETE') return deleteFile(ctx, decodeURIComponent(fileMatch[1]!));
    if (p === '/upload/drive/v3/files') {
      const uploadId = ctx.url.searchParams.get('upload_id');
      if (uploadId === null && method === 'POST') return upload(ctx);
      const session = uploadId === null ? undefined : state.sessions.get(uploadId);
      if (!session) {
        await readBody(ctx.req);
        return send(ctx, 404, 'Not Found', { 'Content-Type': 'text/plain; charset=utf-8' });
      }
      if (method === 'PUT' || method === 'POST') return uploadChunk(ctx, session);
      if (method === 'DELETE') {
        // Cancelling a session: the live service answers 499.
        state.sessions.delete(session.id);
        return send(ctx, 499, '', {}, 'Client Closed Request');
      }
    }
    await readBody(ctx.req);
    send(ctx, 404, 'Not Found', { 'Content-Type': 'text/plain; charset=utf-8' });
  }

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', origin);
    } catch {
      return void res.writeHead(400).end();
    }
    const ctx: Ctx = { req, res, url, cors: corsHeaders(req), drop: null };
    handle(ctx).catch((e: unknown) => {
      if (res.headersSent || req.socket.destroyed) return;
      if (e instanceof ApiError) return sendJson(ctx, e.code, e.body(), e.extra.headers);
      console.error('googledrive emulator:', e);
      sendJson(ctx, 500, faultError(500, null, null).body());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    oauthUrl: `${origin}/o/oauth2/v2/auth`,
    apiUrl: origin,
    revokeUrl: `${origin}/revoke`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
