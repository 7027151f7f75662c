// A Dropbox API v2 emulator for tests (issue #16). Nothing here reaches the internet, so the web
// app's Dropbox provider is pointed at this instead: one node:http server on 127.0.0.1 answers
// the three Dropbox hosts under one origin (DROPBOX_AUTH_URL = `${origin}/oauth2/authorize`,
// DROPBOX_API_URL = DROPBOX_CONTENT_URL = origin). Test tooling only: state lives in memory.
//
// Shapes follow Dropbox's own descriptions, so that what passes here has a chance against the real
// service: the Stone spec (github.com/dropbox/dropbox-api-spec: files.stone, auth.stone,
// users.stone) for arguments, results and errors, the HTTP reference
// (dropbox.com/developers/documentation/http/documentation) for transport (400 plain text,
// 401/409/429 JSON with error_summary, Dropbox-API-Arg/arg, authorization URL parameter, Range on
// downloads, CORS), the OAuth guide for /oauth2/* (PKCE per RFC 7636, errors per RFC 6749 §5.2).
// dropbox.test.ts drives it with the official JS SDK to keep it honest.
//
// [Note: emulator controls] /__emulator/* is an unauthenticated JSON control API for tests: reset,
// token lifetime and expiry, revocation, denying the next authorization, the quota, injected faults
// (a status, or a connection destroyed mid-body or after the request took effect), the stored
// bytes (to assert the emulator only ever held ciphertext) and per-endpoint request counts. The
// table is above `control` below.
//
// Not emulated: the implicit grant, client secrets and registered redirect URIs (any client_id
// and any https or loopback redirect is accepted), scopes, concurrent upload sessions, batch and
// move/copy routes, revisions, sharing, teams and Dropbox-API-Path-Root, session expiry (7 days),
// and the rate limits themselves (429s come only from injected faults).
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DropboxEmulatorOptions {
  /** Port on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** Lifetime of new access tokens in seconds (Dropbox: 14,400). */
  tokenLifetimeS?: number;
}

export interface DropboxEmulator {
  origin: string;
  authUrl: string;
  apiUrl: string;
  contentUrl: string;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

const MiB = 1024 * 1024;
const BLOCK_SIZE = 4 * MiB; // of Dropbox's content_hash
const MAX_PAYLOAD = 150 * MiB; // per request on content endpoints
const MAX_RPC_BODY = MiB;
const DEFAULT_LIFETIME_S = 14_400;
const DEFAULT_QUOTA = 2048 * MiB; // a Basic account
const DEFAULT_SCOPE =
  'account_info.read files.content.read files.content.write files.metadata.read';
const ACCOUNT_ID = 'dbid:AADEmulatorAccountIdForSealVaultE2E00';
const UID = '4242424242';
const CODE_TTL_MS = 10 * 60_000;
const LOG_LIMIT = 2000;

// ---------------------------------------------------------------------------------------------
// Replies

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Thrown to answer early; the dispatcher turns it into the response. */
class Answer extends Error {
  constructor(readonly reply: Reply) {
    super(`answer ${reply.status}`);
  }
}

const jsonReply = (status: number, value: Json, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(value)),
});

const textReply = (status: number, message: string): Reply => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  body: Buffer.from(message),
});

const htmlReply = (status: number, title: string, html: string): Reply => ({
  status,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
  body: Buffer.from(`<!doctype html><title>${title}</title><h1>${title}</h1>${html}`),
});

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Dropbox's error_summary: the chain of union tags, then "/..". Dropbox means it for debugging;
 * clients should match on the tags of `error` (or on a prefix of the summary), not on all of it.
 */
function errorSummary(error: JsonObject): string {
  const tags: string[] = [];
  let node: unknown = error;
  while (isObject(node)) {
    const tag = node['.tag'];
    if (typeof tag === 'string') tags.push(tag);
    const next: unknown = typeof tag === 'string' ? node[tag] : undefined;
    node = isObject(next) ? next : Object.values(node).find((v) => isObject(v) && '.tag' in v);
  }
  return `${tags.join('/')}/..`;
}

/** 409: an endpoint-specific error (the route's Stone error union). */
const endpointError = (error: JsonObject): Reply =>
  jsonReply(409, { error_summary: errorSummary(error), error });

const authError = (tag: 'invalid_access_token' | 'expired_access_token'): Reply =>
  jsonReply(401, { error_summary: `${tag}/..`, error: { '.tag': tag } });

const rateLimited = (retryAfter: number): Reply =>
  jsonReply(
    429,
    {
      error_summary: 'too_many_requests/..',
      error: { reason: { '.tag': 'too_many_requests' }, retry_after: retryAfter },
    },
    { 'Retry-After': String(retryAfter) },
  );

/** 400 is plain text at Dropbox, naming the function. */
const badRequest = (route: string, message: string): Answer =>
  new Answer(textReply(400, `Error in call to API function "${route}": ${message}`));

/** Dropbox's rule for JSON in HTTP headers: everything from U+007F up escaped as \uXXXX. */
const headerSafeJson = (value: Json) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

// ---------------------------------------------------------------------------------------------
// State

interface FileEntry {
  tag: 'file';
  id: string;
  name: string;
  pathLower: string;
  pathDisplay: string;
  bytes: Buffer;
  rev: string;
  contentHash: string;
  clientModified: string;
  serverModified: string;
}

interface FolderEntry {
  tag: 'folder';
  id: string;
  name: string;
  pathLower: string;
  pathDisplay: string;
}

type Entry = FileEntry | FolderEntry;

interface Change {
  seq: number;
  pathLower: string;
  name: string;
  pathDisplay: string;
}

interface Session {
  chunks: Buffer[];
  length: number;
  closed: boolean;
  finished: boolean;
}

interface AuthCode {
  clientId: string;
  redirectUri: string | undefined;
  challenge: string | undefined;
  method: string | undefined;
  offline: boolean;
  scope: string;
  expiresAt: number;
  used: boolean;
}

interface AccessToken {
  expiresAt: number;
  refreshToken: string | undefined;
  revoked: boolean;
}

interface RefreshToken {
  clientId: string;
  scope: string;
  revoked: boolean;
}

interface CursorState {
  scope: string; // path_lower of the listed folder, '' for the root
  recursive: boolean;
  limit: number;
  pending: JsonObject[]; // the rest of the initial listing
  seq: number; // changes after this one are news
}

interface Fault {
  path: string;
  remaining: number;
  status: number | undefined;
  retryAfter: number | undefined;
  body: Json | undefined;
  destroy: 'mid-body' | 'before-response' | undefined;
  afterBytes: number | undefined;
}

interface LogLine {
  method: string;
  path: string;
  status: number | 'destroyed';
}

interface State {
  entries: Map<string, Entry>; // by path_lower
  deleted: Map<string, { name: string; pathDisplay: string }>;
  changes: Change[];
  seq: number;
  revCounter: number;
  sessions: Map<string, Session>;
  cursors: Map<string, CursorState>;
  codes: Map<string, AuthCode>;
  accessTokens: Map<string, AccessToken>;
  refreshTokens: Map<string, RefreshToken>;
  faults: Fault[];
  requests: Map<string, number>;
  log: LogLine[];
  lifetimeS: number;
  quota: number;
  denyNext: string | undefined;
}

function freshState(lifetimeS: number): State {
  return {
    entries: new Map(),
    deleted: new Map(),
    changes: [],
    seq: 0,
    revCounter: 0,
    sessions: new Map(),
    cursors: new Map(),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    faults: [],
    requests: new Map(),
    log: [],
    lifetimeS,
    quota: DEFAULT_QUOTA,
    denyNext: undefined,
  };
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
const timestamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Dropbox's content_hash: SHA-256 over the SHA-256 of each 4 MiB block. */
export function dropboxContentHash(bytes: Buffer): string {
  const outer = createHash('sha256');
  for (let at = 0; at < bytes.length; at += BLOCK_SIZE) {
    outer.update(sha256(bytes.subarray(at, at + BLOCK_SIZE)));
  }
  return outer.digest('hex');
}

function metadata(e: Entry): JsonObject {
  const base = { name: e.name, path_lower: e.pathLower, path_display: e.pathDisplay, id: e.id };
  if (e.tag === 'folder') return { '.tag': 'folder', ...base };
  return {
    '.tag': 'file',
    ...base,
    client_modified: e.clientModified,
    server_modified: e.serverModified,
    rev: e.rev,
    size: e.bytes.length,
    is_downloadable: true,
    content_hash: e.contentHash,
  };
}

const usedBytes = (s: State) =>
  [...s.entries.values()].reduce((n, e) => n + (e.tag === 'file' ? e.bytes.length : 0), 0);

function recordChange(s: State, e: { pathLower: string; name: string; pathDisplay: string }) {
  s.seq += 1;
  s.changes.push({ seq: s.seq, pathLower: e.pathLower, name: e.name, pathDisplay: e.pathDisplay });
}

const parentOf = (pathLower: string) => pathLower.slice(0, pathLower.lastIndexOf('/'));

/** Is `pathLower` listed under `scope` (a direct child, or any descendant when recursive)? */
const inScope = (scope: string, pathLower: string, recursive: boolean) =>
  recursive ? pathLower.startsWith(`${scope}/`) : parentOf(pathLower) === scope;

// ---------------------------------------------------------------------------------------------
// Arguments

/** Where arguments came from, for 400 messages: "request body", "HTTP header ...". */
interface ArgCtx {
  route: string;
  where: string;
}

function argError(ctx: ArgCtx, field: string, message: string): Answer {
  return badRequest(ctx.route, `${ctx.where}: ${field}: ${message}`);
}

function stringArg(ctx: ArgCtx, args: Record<string, unknown>, field: string): string;
function stringArg(
  ctx: ArgCtx,
  args: Record<string, unknown>,
  field: string,
  optional: true,
): string | undefined;
function stringArg(ctx: ArgCtx, args: Record<string, unknown>, field: string, optional = false) {
  const v = args[field];
  if (v === undefined || v === null) {
    if (optional) return undefined;
    throw badRequest(ctx.route, `${ctx.where}: missing required field '${field}'`);
  }
  if (typeof v !== 'string') throw argError(ctx, field, `expected string, got ${typeof v}`);
  return v;
}

function boolArg(ctx: ArgCtx, args: Record<string, unknown>, field: string, fallback: boolean) {
  const v = args[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw argError(ctx, field, `expected boolean, got ${typeof v}`);
  return v;
}

function uintArg(
  ctx: ArgCtx,
  args: Record<string, unknown>,
  field: string,
  range: { min: number; max: number },
): number | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw argError(ctx, field, `expected integer, got ${typeof v}`);
  }
  if (v < range.min || v > range.max) {
    throw argError(ctx, field, `${v} is not within [${range.min}, ${range.max}]`);
  }
  return v;
}

function objectArg(ctx: ArgCtx, args: Record<string, unknown>, field: string) {
  const v = args[field];
  if (v === undefined || v === null) {
    throw badRequest(ctx.route, `${ctx.where}: missing required field '${field}'`);
  }
  if (!isObject(v)) throw argError(ctx, field, `expected object, got ${typeof v}`);
  return v;
}

function contentHashArg(ctx: ArgCtx, args: Record<string, unknown>) {
  const v = stringArg(ctx, args, 'content_hash', true);
  if (v !== undefined && !/^[0-9a-fA-F]{64}$/.test(v)) {
    throw argError(ctx, 'content_hash', `'${v}' must be 64 hexadecimal characters`);
  }
  return v?.toLowerCase();
}

type PathRef =
  | { kind: 'root' }
  | { kind: 'id'; id: string }
  | { kind: 'rev'; rev: string }
  | { kind: 'path'; lower: string; display: string }
  | { kind: 'malformed' };

/**
 * A path argument: the Stone patterns (ReadPath, WritePath, PathROrId...) answer 400 when they do
 * not match; a path that matches but cannot be one (a trailing or doubled slash) is the route's
 * `malformed_path` error (409). Dropbox paths are case-insensitive: entries are keyed by the
 * lowercased path and keep the case they were created with for display.
 */
function pathArg(
  ctx: ArgCtx,
  value: string,
  field: string,
  allow: { root?: boolean; id?: boolean; rev?: boolean },
): PathRef {
  if (value === '') {
    if (allow.root) return { kind: 'root' };
    throw argError(ctx, field, `'' did not match pattern '(/(.|[\\r\\n])*)'`);
  }
  if (value === '/' && allow.root) {
    throw argError(ctx, field, 'Specify the root folder as an empty string rather than as "/".');
  }
  if (allow.id && value.startsWith('id:') && value.length > 3) return { kind: 'id', id: value };
  if (allow.rev && /^rev:[0-9a-f]{9,}$/.test(value)) return { kind: 'rev', rev: value.slice(4) };
  if (!value.startsWith('/')) {
    throw argError(ctx, field, `'${value}' did not match pattern '(/(.|[\\r\\n])*)'`);
  }
  if (value.endsWith('/') || value.includes('//')) return { kind: 'malformed' };
  return { kind: 'path', lower: value.toLowerCase(), display: value };
}

function find(s: State, ref: PathRef): Entry | undefined {
  switch (ref.kind) {
    case 'path':
      return s.entries.get(ref.lower);
    case 'id':
      return [...s.entries.values()].find((e) => e.id === ref.id);
    case 'rev':
      return [...s.entries.values()].find((e) => e.tag === 'file' && e.rev === ref.rev);
    default:
      return undefined;
  }
}

/** LookupError for a reference that found nothing usable. */
const lookupError = (ref: PathRef): JsonObject =>
  ref.kind === 'malformed' ? { '.tag': 'malformed_path' } : { '.tag': 'not_found' };

// ---------------------------------------------------------------------------------------------
// Writing (shared by create_folder_v2, upload and upload_session/finish)

type WriteMode = { tag: 'add' } | { tag: 'overwrite' } | { tag: 'update'; rev: string };

interface CommitInfo {
  path: PathRef;
  mode: WriteMode;
  autorename: boolean;
  clientModified: string | undefined;
  strictConflict: boolean;
}

function commitArg(ctx: ArgCtx, args: Record<string, unknown>): CommitInfo {
  const path = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', { id: true });
  const rawMode = args.mode ?? 'add';
  const tag = typeof rawMode === 'string' ? rawMode : isObject(rawMode) ? rawMode['.tag'] : null;
  let mode: WriteMode;
  if (tag === 'add' || tag === 'overwrite') mode = { tag };
  else if (tag === 'update' && isObject(rawMode) && typeof rawMode.update === 'string') {
    mode = { tag: 'update', rev: rawMode.update };
  } else throw argError(ctx, 'mode', `unknown or malformed write mode ${JSON.stringify(rawMode)}`);
  const clientModified = stringArg(ctx, args, 'client_modified', true);
  if (clientModified !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(clientModified)) {
    throw argError(ctx, 'client_modified', `'${clientModified}' is not %Y-%m-%dT%H:%M:%SZ`);
  }
  return {
    path,
    mode,
    autorename: boolArg(ctx, args, 'autorename', false),
    clientModified,
    strictConflict: boolArg(ctx, args, 'strict_conflict', false),
  };
}

/** The WriteError of a target, if its ancestors cannot be folders. */
function ancestorConflict(s: State, pathLower: string): JsonObject | undefined {
  for (let at = pathLower.indexOf('/', 1); at > 0; at = pathLower.indexOf('/', at + 1)) {
    if (s.entries.get(pathLower.slice(0, at))?.tag === 'file') {
      return { '.tag': 'conflict', conflict: { '.tag': 'file_ancestor' } };
    }
  }
  return undefined;
}

/** Creates the missing ancestor folders of a path, as Dropbox does on every write. */
function createParents(s: State, display: string) {
  for (let at = display.indexOf('/', 1); at > 0; at = display.indexOf('/', at + 1)) {
    const folderDisplay = display.slice(0, at);
    const lower = folderDisplay.toLowerCase();
    if (s.entries.has(lower)) continue;
    const name = folderDisplay.slice(folderDisplay.lastIndexOf('/') + 1);
    const folder: FolderEntry = {
      tag: 'folder',
      id: `id:${token(16)}`,
      name,
      pathLower: lower,
      pathDisplay: folderDisplay,
    };
    s.entries.set(lower, folder);
    s.deleted.delete(lower);
    recordChange(s, folder);
  }
}

/** Display path of the entry's parent folder as stored, so a child keeps its parent's case. */
function underParent(s: State, display: string) {
  const cut = display.lastIndexOf('/');
  const parent = cut > 0 ? s.entries.get(display.slice(0, cut).toLowerCase()) : undefined;
  return parent ? `${parent.pathDisplay}${display.slice(cut)}` : display;
}

/** "a.txt" -> "a (1).txt", "a (2).txt"...: the first free name (WriteMode's autorename). */
function autorenamed(s: State, display: string) {
  const cut = display.lastIndexOf('/');
  const name = display.slice(cut + 1);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n += 1) {
    const candidate = `${display.slice(0, cut)}/${stem} (${n})${ext}`;
    if (!s.entries.has(candidate.toLowerCase())) return candidate;
  }
}

/** Saves a file per WriteMode (files.stone); the result is the entry or a WriteError. */
function commitFile(
  s: State,
  info: CommitInfo,
  bytes: Buffer,
): { file: FileEntry } | { error: JsonObject } {
  let display: string;
  if (info.path.kind === 'path') display = info.path.display;
  else if (info.path.kind === 'id') {
    const target = find(s, info.path);
    if (!target) return { error: { '.tag': 'malformed_path' } };
    display = target.pathDisplay;
  } else return { error: { '.tag': 'malformed_path' } };

  const contentHash = dropboxContentHash(bytes);
  let existing = s.entries.get(display.toLowerCase());
  if (existing) {
    if (existing.tag === 'file' && existing.contentHash === contentHash && !info.strictConflict) {
      return { file: existing }; // identical contents: nothing is written (WriteMode)
    }
    const conflict =
      existing.tag === 'folder' ||
      info.mode.tag === 'add' ||
      (info.mode.tag === 'update' && info.mode.rev !== existing.rev);
    if (conflict) {
      if (!info.autorename) {
        return { error: { '.tag': 'conflict', conflict: { '.tag': existing.tag } } };
      }
      display = autorenamed(s, display);
      existing = undefined;
    }
  }
  const lower = display.toLowerCase();
  const ancestor = ancestorConflict(s, lower);
  if (ancestor) return { error: ancestor };
  const replaced = existing?.tag === 'file' ? existing.bytes.length : 0;
  if (usedBytes(s) - replaced + bytes.length > s.quota) {
    return { error: { '.tag': 'insufficient_space' } };
  }

  createParents(s, display);
  display = underParent(s, display);
  s.revCounter += 1;
  const now = timestamp();
  const file: FileEntry = {
    tag: 'file',
    id: existing?.id ?? `id:${token(16)}`,
    name: display.slice(display.lastIndexOf('/') + 1),
    pathLower: lower,
    pathDisplay: display,
    bytes,
    rev: `${s.revCounter.toString(16).padStart(9, '0')}${randomBytes(3).toString('hex')}`,
    contentHash,
    clientModified: info.clientModified ?? now,
    serverModified: now,
  };
  s.entries.set(lower, file);
  s.deleted.delete(lower);
  recordChange(s, file);
  return { file };
}

// ---------------------------------------------------------------------------------------------
// Routes

interface Call {
  s: State;
  route: string;
  ctx: ArgCtx;
  args: Record<string, unknown>;
  body: Buffer;
  bodyBytes: number; // as received; body keeps at most MAX_PAYLOAD of them
  accessToken: string;
  headers: http.IncomingHttpHeaders;
}

type Style = 'rpc' | 'upload' | 'download';

interface Route {
  style: Style;
  /** Void argument: the body may be empty or "null". */
  voidArg?: boolean;
  handle(c: Call): Reply;
}

function createFolder(c: Call): Reply {
  const { s, ctx, args } = c;
  const ref = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', {});
  const autorename = boolArg(ctx, args, 'autorename', false);
  const fail = (path: JsonObject) => endpointError({ '.tag': 'path', path });
  if (ref.kind !== 'path') return fail({ '.tag': 'malformed_path' });
  let display = ref.display;
  const existing = s.entries.get(ref.lower);
  if (existing) {
    if (!autorename) return fail({ '.tag': 'conflict', conflict: { '.tag': existing.tag } });
    display = autorenamed(s, display);
  }
  const lower = display.toLowerCase();
  const ancestor = ancestorConflict(s, lower);
  if (ancestor) return fail(ancestor);
  createParents(s, display);
  display = underParent(s, display);
  const folder: FolderEntry = {
    tag: 'folder',
    id: `id:${token(16)}`,
    name: display.slice(display.lastIndexOf('/') + 1),
    pathLower: lower,
    pathDisplay: display,
  };
  s.entries.set(lower, folder);
  s.deleted.delete(lower);
  recordChange(s, folder);
  return jsonReply(200, { metadata: metadata(folder) });
}

function getMetadata(c: Call): Reply {
  const { s, ctx, args } = c;
  const ref = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', {
    id: true,
    rev: true,
    root: true,
  });
  if (ref.kind === 'root') throw argError(ctx, 'path', 'The root folder is unsupported.');
  const entry = find(s, ref);
  if (entry) return jsonReply(200, metadata(entry));
  const gone = ref.kind === 'path' ? s.deleted.get(ref.lower) : undefined;
  if (gone && ref.kind === 'path' && boolArg(ctx, args, 'include_deleted', false)) {
    return jsonReply(200, {
      '.tag': 'deleted',
      name: gone.name,
      path_lower: ref.lower,
      path_display: gone.pathDisplay,
    });
  }
  return endpointError({ '.tag': 'path', path: lookupError(ref) });
}

function listPage(s: State, state: CursorState): Reply {
  let entries: JsonObject[];
  let next: CursorState;
  let hasMore: boolean;
  if (state.pending.length > 0) {
    entries = state.pending.slice(0, state.limit);
    next = { ...state, pending: state.pending.slice(state.limit) };
    hasMore = next.pending.length > 0;
  } else {
    if (state.scope !== '' && s.entries.get(state.scope)?.tag !== 'folder') {
      return endpointError({ '.tag': 'path', path: { '.tag': 'not_found' } });
    }
    // The latest change per path, in the order of those changes.
    const latest = new Map<string, Change>();
    for (const ch of s.changes) {
      if (ch.seq <= state.seq || !inScope(state.scope, ch.pathLower, state.recursive)) continue;
      latest.delete(ch.pathLower);
      latest.set(ch.pathLower, ch);
    }
    const changed = [...latest.values()];
    const page = changed.slice(0, state.limit);
    hasMore = changed.length > page.length;
    entries = page.map((ch) => {
      const entry = s.entries.get(ch.pathLower);
      if (entry) return metadata(entry);
      return {
        '.tag': 'deleted',
        name: ch.name,
        path_lower: ch.pathLower,
        path_display: ch.pathDisplay,
      };
    });
    next = { ...state, seq: hasMore ? (page[page.length - 1]?.seq ?? state.seq) : s.seq };
  }
  const cursor = `AAE${token(30)}`;
  s.cursors.set(cursor, next);
  return jsonReply(200, { entries, cursor, has_more: hasMore });
}

function listFolder(c: Call): Reply {
  const { s, ctx, args } = c;
  const ref = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', { root: true, id: true });
  const recursive = boolArg(ctx, args, 'recursive', false);
  const limit = uintArg(ctx, args, 'limit', { min: 1, max: 2000 }) ?? 2000;
  let scope = '';
  if (ref.kind !== 'root') {
    const entry = find(s, ref);
    if (!entry) return endpointError({ '.tag': 'path', path: lookupError(ref) });
    if (entry.tag !== 'folder') {
      return endpointError({ '.tag': 'path', path: { '.tag': 'not_folder' } });
    }
    scope = entry.pathLower;
  }
  const listed = [...s.entries.values()]
    .filter((e) => inScope(scope, e.pathLower, recursive))
    .sort((a, b) => (a.pathLower < b.pathLower ? -1 : 1));
  const self = recursive && scope !== '' ? [s.entries.get(scope)] : [];
  const pending = [...self, ...listed].filter((e) => e !== undefined).map(metadata);
  return listPage(s, { scope, recursive, limit, pending, seq: s.seq });
}

function listFolderContinue(c: Call): Reply {
  const cursor = stringArg(c.ctx, c.args, 'cursor');
  const state = c.s.cursors.get(cursor);
  if (!state) return endpointError({ '.tag': 'reset' });
  return listPage(c.s, state);
}

function deleteEntry(c: Call): Reply {
  const { s, ctx, args } = c;
  const ref = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', { id: true });
  const entry = find(s, ref);
  if (!entry) return endpointError({ '.tag': 'path_lookup', path_lookup: lookupError(ref) });
  const doomed = [...s.entries.values()].filter(
    (e) => e === entry || e.pathLower.startsWith(`${entry.pathLower}/`),
  );
  for (const e of doomed) {
    s.entries.delete(e.pathLower);
    s.deleted.set(e.pathLower, { name: e.name, pathDisplay: e.pathDisplay });
    recordChange(s, e);
  }
  return jsonReply(200, { metadata: metadata(entry) });
}

function checkPayload(c: Call, contentHash: string | undefined, wrap: (e: JsonObject) => Reply) {
  if (c.bodyBytes > MAX_PAYLOAD) throw new Answer(wrap({ '.tag': 'payload_too_large' }));
  if (contentHash !== undefined && dropboxContentHash(c.body) !== contentHash) {
    throw new Answer(wrap({ '.tag': 'content_hash_mismatch' }));
  }
}

function newSession(s: State, bytes: Buffer, closed: boolean) {
  const id = `pid_upload_session:${token(36)}`;
  s.sessions.set(id, { chunks: [bytes], length: bytes.length, closed, finished: false });
  return id;
}

function upload(c: Call): Reply {
  const info = commitArg(c.ctx, c.args);
  checkPayload(c, contentHashArg(c.ctx, c.args), endpointError);
  const result = commitFile(c.s, info, c.body);
  if ('file' in result) return jsonReply(200, metadata(result.file));
  // UploadWriteFailed: the bytes stay in a session that upload_session/finish can commit.
  const sessionId = newSession(c.s, c.body, false);
  return endpointError({ '.tag': 'path', reason: result.error, upload_session_id: sessionId });
}

function sessionStart(c: Call): Reply {
  const { ctx, args } = c;
  const type = args.session_type;
  const typeTag = isObject(type) ? type['.tag'] : type;
  if (typeTag !== undefined && typeTag !== null && typeTag !== 'sequential') {
    throw argError(ctx, 'session_type', 'the emulator only has sequential upload sessions');
  }
  const close = boolArg(ctx, args, 'close', false);
  checkPayload(c, contentHashArg(ctx, args), endpointError);
  return jsonReply(200, { session_id: newSession(c.s, c.body, close) });
}

/** The session of a cursor, or the UploadSessionLookupError that stops the call. */
function sessionAt(
  c: Call,
  cursor: Record<string, unknown>,
): { session: Session } | { error: JsonObject } {
  const ctx = { ...c.ctx, where: `${c.ctx.where}: cursor` };
  const id = stringArg(ctx, cursor, 'session_id');
  const offset = uintArg(ctx, cursor, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (offset === undefined)
    throw badRequest(c.route, `${ctx.where}: missing required field 'offset'`);
  const session = c.s.sessions.get(id);
  if (!session || session.finished) return { error: { '.tag': 'not_found' } };
  if (offset !== session.length) {
    return { error: { '.tag': 'incorrect_offset', correct_offset: session.length } };
  }
  return { session };
}

function sessionAppend(c: Call): Reply {
  const { ctx, args } = c;
  const found = sessionAt(c, objectArg(ctx, args, 'cursor'));
  const close = boolArg(ctx, args, 'close', false);
  const contentHash = contentHashArg(ctx, args);
  // UploadSessionAppendError carries the lookup errors at its top level.
  if ('error' in found) return endpointError(found.error);
  if (found.session.closed) return endpointError({ '.tag': 'closed' });
  checkPayload(c, contentHash, endpointError);
  found.session.chunks.push(c.body);
  found.session.length += c.body.length;
  found.session.closed = close;
  return jsonReply(200, null);
}

function sessionFinish(c: Call): Reply {
  const { s, ctx, args } = c;
  const found = sessionAt(c, objectArg(ctx, args, 'cursor'));
  const commitCtx = { ...ctx, where: `${ctx.where}: commit` };
  const info = commitArg(commitCtx, objectArg(ctx, args, 'commit'));
  const contentHash = contentHashArg(ctx, args);
  // UploadSessionFinishError wraps them in lookup_failed.
  const lookupFailed = (e: JsonObject) =>
    endpointError({ '.tag': 'lookup_failed', lookup_failed: e });
  if ('error' in found) return lookupFailed(found.error);
  const { session } = found;
  if (session.closed && c.body.length > 0) return lookupFailed({ '.tag': 'closed' });
  checkPayload(c, contentHash, endpointError);
  // The data is appended even if the commit fails (retry with an empty body, files.stone).
  session.chunks.push(c.body);
  session.length += c.body.length;
  const result = commitFile(s, info, Buffer.concat(session.chunks));
  if ('error' in result) return endpointError({ '.tag': 'path', path: result.error });
  session.finished = true;
  session.chunks = [];
  return jsonReply(200, metadata(result.file));
}

/** RFC 9110 §14: one byte range of `size`; null when absent or unparsable (answer it all). */
function byteRange(header: string | undefined, size: number) {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    start = Math.max(0, size - suffix);
    end = suffix === 0 ? -1 : size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? ('unsatisfiable' as const) : { start, end };
}

function download(c: Call): Reply {
  const { s, ctx, args } = c;
  const ref = pathArg(ctx, stringArg(ctx, args, 'path'), 'path', { id: true, rev: true });
  const entry = find(s, ref);
  if (!entry) return endpointError({ '.tag': 'path', path: lookupError(ref) });
  if (entry.tag !== 'file') return endpointError({ '.tag': 'path', path: { '.tag': 'not_file' } });
  const size = entry.bytes.length;
  const headers: Record<string, string> = {
    'Content-Type': 'application/octet-stream',
    'Dropbox-API-Result': headerSafeJson(metadata(entry)),
    ETag: `W/"${entry.rev}"`,
  };
  if (c.headers['if-none-match'] === headers.ETag) {
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  const range = byteRange(c.headers.range, size);
  if (range === 'unsatisfiable') {
    return { status: 416, headers: { 'Content-Range': `bytes */${size}` }, body: Buffer.alloc(0) };
  }
  if (range === null) return { status: 200, headers, body: entry.bytes };
  headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
  return { status: 206, headers, body: entry.bytes.subarray(range.start, range.end + 1) };
}

/** auth/token/revoke: the token, its refresh token and every access token of that refresh token. */
function revoke(c: Call): Reply {
  const { s } = c;
  const access = s.accessTokens.get(c.accessToken);
  if (access) {
    access.revoked = true;
    const refresh = access.refreshToken;
    const r = refresh === undefined ? undefined : s.refreshTokens.get(refresh);
    if (r) r.revoked = true;
    for (const t of s.accessTokens.values())
      if (refresh && t.refreshToken === refresh) t.revoked = true;
  }
  return jsonReply(200, null);
}

const spaceUsage = (c: Call): Reply =>
  jsonReply(200, {
    used: usedBytes(c.s),
    allocation: { '.tag': 'individual', allocated: c.s.quota },
  });

const ROUTES: Record<string, Route> = {
  'files/create_folder_v2': { style: 'rpc', handle: createFolder },
  'files/get_metadata': { style: 'rpc', handle: getMetadata },
  'files/list_folder': { style: 'rpc', handle: listFolder },
  'files/list_folder/continue': { style: 'rpc', handle: listFolderContinue },
  'files/delete_v2': { style: 'rpc', handle: deleteEntry },
  'files/upload': { style: 'upload', handle: upload },
  'files/upload_session/start': { style: 'upload', handle: sessionStart },
  'files/upload_session/append_v2': { style: 'upload', handle: sessionAppend },
  'files/upload_session/finish': { style: 'upload', handle: sessionFinish },
  'files/download': { style: 'download', handle: download },
  'auth/token/revoke': { style: 'rpc', voidArg: true, handle: revoke },
  'users/get_space_usage': { style: 'rpc', voidArg: true, handle: spaceUsage },
};

// ---------------------------------------------------------------------------------------------
// Authentication and arguments of /2/ calls

function bearer(s: State, route: string, req: http.IncomingMessage, url: URL): string {
  // The HTTP reference allows the token as an `authorization` URL parameter too (for browsers).
  const value = req.headers.authorization ?? url.searchParams.get('authorization');
  if (value === null) {
    throw badRequest(
      route,
      'Must provide HTTP header "Authorization" or URL parameter "authorization".',
    );
  }
  const m = /^Bearer (\S+)$/.exec(value);
  if (!m?.[1]) {
    throw badRequest(
      route,
      `Invalid authorization value in HTTP header "Authorization": "${value}".  Expecting "Bearer <oauth2-access-token>".`,
    );
  }
  const access = s.accessTokens.get(m[1]);
  if (!access || access.revoked) throw new Answer(authError('invalid_access_token'));
  if (Date.now() >= access.expiresAt) throw new Answer(authError('expired_access_token'));
  return m[1];
}

const contentType = (req: http.IncomingMessage) =>
  (req.headers['content-type'] ?? '')
    .toLowerCase()
    .replace(/\s*;\s*/g, '; ')
    .trim();

const RPC_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain; charset=dropbox-cors-hack',
];
const UPLOAD_TYPES = ['application/octet-stream', 'text/plain; charset=dropbox-cors-hack'];

function parseJsonArg(route: string, where: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(route, `${where}: could not decode input as JSON`);
  }
}

/** RPC arguments are the JSON body; content endpoints take them from Dropbox-API-Arg or `arg`. */
function readArgs(
  name: string,
  route: Route,
  req: http.IncomingMessage,
  url: URL,
  body: Buffer,
): { ctx: ArgCtx; args: Record<string, unknown> } {
  const type = contentType(req);
  let ctx: ArgCtx;
  let parsed: unknown;
  if (route.style === 'rpc') {
    ctx = { route: name, where: 'request body' };
    if (route.voidArg && body.length === 0) return { ctx, args: {} };
    if (!RPC_TYPES.includes(type)) {
      throw badRequest(
        name,
        `Bad HTTP "Content-Type" header: "${req.headers['content-type'] ?? ''}".  Expecting one of "application/json", "application/json; charset=utf-8", "text/plain; charset=dropbox-cors-hack".`,
      );
    }
    parsed = parseJsonArg(name, ctx.where, body.toString('utf8'));
    if (route.voidArg) {
      if (parsed !== null) throw badRequest(name, `${ctx.where}: expected null, got a value`);
      return { ctx, args: {} };
    }
  } else {
    if (route.style === 'upload' && !UPLOAD_TYPES.includes(type)) {
      throw badRequest(
        name,
        `Bad HTTP "Content-Type" header: "${req.headers['content-type'] ?? ''}".  Expecting one of "application/octet-stream", "text/plain; charset=dropbox-cors-hack".`,
      );
    }
    const header = req.headers['dropbox-api-arg'];
    const param = url.searchParams.get('arg');
    if (typeof header === 'string') {
      ctx = { route: name, where: 'HTTP header "Dropbox-API-Arg"' };
      // HTTP headers are ASCII: Dropbox wants U+007F and up escaped as \uXXXX in this JSON, and
      // refuses raw bytes (node hands them over as latin1 characters).
      if (/[^\t\x20-\x7e]/.test(header))
        throw badRequest(name, `${ctx.where}: could not decode input as JSON`);
      parsed = parseJsonArg(name, ctx.where, header);
    } else if (param !== null) {
      ctx = { route: name, where: 'URL parameter "arg"' };
      parsed = parseJsonArg(name, ctx.where, param);
    } else {
      throw badRequest(name, 'Must provide HTTP header "Dropbox-API-Arg" or URL parameter "arg".');
    }
  }
  if (!isObject(parsed))
    throw badRequest(name, `${ctx.where}: expected object, got ${typeof parsed}`);
  return { ctx, args: parsed };
}

// ---------------------------------------------------------------------------------------------
// OAuth 2 (the OAuth guide; RFC 6749 and RFC 7636)

const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Dropbox wants https, except for a loopback host during development. */
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

function redirect(uri: string, params: Record<string, string | undefined>): Reply {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return { status: 302, headers: { Location: u.toString() }, body: Buffer.alloc(0) };
}

/** GET /oauth2/authorize: approves at once (or denies once, see deny-next-authorize). */
function authorize(s: State, url: URL): Reply {
  const q = url.searchParams;
  const fail = (message: string) => htmlReply(400, 'Error (400)', `<p>${escapeHtml(message)}</p>`);
  const clientId = q.get('client_id');
  if (!clientId) return fail('Missing client_id.');
  const responseType = q.get('response_type');
  if (responseType === 'token') return fail('The emulator implements only response_type=code.');
  if (responseType !== 'code') return fail(`Invalid response_type: "${responseType ?? ''}".`);
  const redirectUri = q.get('redirect_uri') ?? undefined;
  if (redirectUri !== undefined && !validRedirect(redirectUri)) {
    return fail('Invalid redirect_uri: https, or http on localhost, without a fragment.');
  }
  const state = q.get('state') ?? undefined;
  if (state !== undefined && Buffer.byteLength(state) > 500)
    return fail('state is over 500 bytes.');
  const challenge = q.get('code_challenge') ?? undefined;
  const method = q.get('code_challenge_method') ?? undefined;
  if (challenge !== undefined && !PKCE_VALUE.test(challenge)) {
    return fail('Invalid code_challenge: 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636).');
  }
  if (challenge !== undefined && method !== 'S256' && method !== 'plain') {
    return fail('code_challenge_method must be S256 or plain.');
  }
  if (challenge === undefined && method !== undefined) {
    return fail('code_challenge_method without code_challenge.');
  }
  const access = q.get('token_access_type');
  if (access !== null && !['legacy', 'online', 'offline'].includes(access)) {
    return fail('token_access_type must be legacy, online or offline.');
  }
  if (s.denyNext !== undefined) {
    const description = s.denyNext;
    s.denyNext = undefined;
    if (!redirectUri) return htmlReply(200, 'Access denied', `<p>${escapeHtml(description)}</p>`);
    return redirect(redirectUri, { error: 'access_denied', error_description: description, state });
  }
  const code = token(32);
  s.codes.set(code, {
    clientId,
    redirectUri,
    challenge,
    method,
    offline: access === 'offline',
    scope: q.get('scope') ?? DEFAULT_SCOPE,
    expiresAt: Date.now() + CODE_TTL_MS,
    used: false,
  });
  if (!redirectUri) {
    return htmlReply(
      200,
      'App authorized',
      `<p>Enter this code into the app:</p><code id="code">${code}</code>`,
    );
  }
  return redirect(redirectUri, { code, state });
}

function issueAccessToken(s: State, refreshToken?: string) {
  const accessToken = `sl.${token(48)}`;
  s.accessTokens.set(accessToken, {
    expiresAt: Date.now() + s.lifetimeS * 1000,
    refreshToken,
    revoked: false,
  });
  return accessToken;
}

/** The answer to a code grant: a refresh token only for token_access_type=offline. */
function codeGrantResult(s: State, clientId: string, scope: string, offline: boolean): JsonObject {
  const refreshToken = offline ? token(48) : undefined;
  if (refreshToken) s.refreshTokens.set(refreshToken, { clientId, scope, revoked: false });
  return {
    access_token: issueAccessToken(s, refreshToken),
    expires_in: s.lifetimeS,
    token_type: 'bearer',
    scope,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    account_id: ACCOUNT_ID,
    uid: UID,
  };
}

/**
 * POST /oauth2/token. Parameters come as a form body or in the query string (the SDK puts them
 * there); client credentials may also come as HTTP Basic (RFC 6749 §2.3.1).
 */
function tokenGrant(s: State, req: http.IncomingMessage, url: URL, body: Buffer): Reply {
  const params = new URLSearchParams(url.search);
  if (contentType(req).startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params.set(k, v);
  }
  let clientId = params.get('client_id') ?? undefined;
  let secret = params.get('client_secret') ?? undefined;
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const [id, ...rest] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    clientId ??= id;
    secret ??= rest.join(':');
  }
  const err = (error: string, description: string) =>
    jsonReply(400, { error, error_description: description });
  const grant = params.get('grant_type');
  if (!clientId) return err('invalid_request', 'No client_id');

  if (grant === 'authorization_code') {
    const code = params.get('code');
    if (!code) return err('invalid_request', 'No code');
    const entry = s.codes.get(code);
    if (!entry || entry.used || Date.now() > entry.expiresAt) {
      return err('invalid_grant', "code doesn't exist or has expired");
    }
    if (entry.clientId !== clientId)
      return err('invalid_grant', 'code was issued to another client');
    if ((params.get('redirect_uri') ?? undefined) !== entry.redirectUri) {
      return err('invalid_grant', 'redirect_uri mismatch');
    }
    if (entry.challenge !== undefined) {
      const verifier = params.get('code_verifier') ?? '';
      if (!PKCE_VALUE.test(verifier)) {
        return err('invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9-._~]');
      }
      const derived =
        entry.method === 'S256'
          ? createHash('sha256').update(verifier, 'ascii').digest('base64url')
          : verifier;
      if (derived !== entry.challenge) return err('invalid_grant', 'invalid code verifier');
    } else if (!secret) {
      return err('invalid_client', 'No client_secret: use PKCE or authenticate the app');
    }
    entry.used = true;
    return jsonReply(200, codeGrantResult(s, clientId, entry.scope, entry.offline));
  }

  if (grant === 'refresh_token') {
    const refreshToken = params.get('refresh_token');
    if (!refreshToken) return err('invalid_request', 'No refresh_token');
    const r = s.refreshTokens.get(refreshToken);
    if (!r || r.revoked) return err('invalid_grant', 'refresh token is invalid or revoked');
    if (r.clientId !== clientId)
      return err('invalid_grant', 'refresh token was issued to another client');
    // Dropbox answers a refresh with these three fields only (no new refresh token).
    return jsonReply(200, {
      access_token: issueAccessToken(s, refreshToken),
      token_type: 'bearer',
      expires_in: s.lifetimeS,
    });
  }
  return err('unsupported_grant_type', `unsupported grant_type: "${grant ?? ''}"`);
}

// ---------------------------------------------------------------------------------------------
// Control API ([Note: emulator controls])

function faultReply(f: Fault & { status: number }): Reply {
  const extra: Record<string, string> =
    f.retryAfter === undefined ? {} : { 'Retry-After': String(f.retryAfter) };
  if (typeof f.body === 'string') {
    const reply = textReply(f.status, f.body);
    return { ...reply, headers: { ...reply.headers, ...extra } };
  }
  if (f.body !== undefined) return jsonReply(f.status, f.body, extra);
  if (f.status === 429) return rateLimited(f.retryAfter ?? 1);
  const reply =
    f.status === 401
      ? authError('expired_access_token')
      : f.status === 409
        ? endpointError({ '.tag': 'too_many_write_operations' })
        : textReply(f.status, http.STATUS_CODES[f.status] ?? 'Error');
  return { ...reply, headers: { ...reply.headers, ...extra } };
}

function parseFault(input: Record<string, unknown>): Fault {
  const { path, count, status, retryAfter, body, destroy, afterBytes } = input;
  const int = (v: unknown, min: number, max: number) =>
    v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max);
  if (typeof path !== 'string' || !path.startsWith('/')) throw new Error('path: "/2/..." wanted');
  if (!int(count, 1, 1e6) || !int(status, 100, 599) || !int(retryAfter, 0, 86_400)) {
    throw new Error('count, status or retryAfter out of range');
  }
  if (!int(afterBytes, 0, Number.MAX_SAFE_INTEGER)) throw new Error('afterBytes out of range');
  if (destroy !== undefined && destroy !== 'mid-body' && destroy !== 'before-response') {
    throw new Error('destroy: "mid-body" or "before-response"');
  }
  if ((status === undefined) === (destroy === undefined)) throw new Error('give status or destroy');
  return {
    path,
    remaining: (count as number | undefined) ?? 1,
    status: status as number | undefined,
    retryAfter: retryAfter as number | undefined,
    body: body as Json | undefined,
    destroy,
    afterBytes: afterBytes as number | undefined,
  };
}

function takeFault(s: State, path: string): Fault | undefined {
  const fault = s.faults.find((f) =>
    f.path.endsWith('*') ? path.startsWith(f.path.slice(0, -1)) : f.path === path,
  );
  if (!fault) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) s.faults.splice(s.faults.indexOf(fault), 1);
  return fault;
}

/**
 * The control API, under /__emulator (JSON in and out; 400 {error} on bad input):
 *   POST   /reset                  everything back to a fresh start (files, tokens, faults, stats)
 *   POST   /token-lifetime         {seconds}: lifetime of tokens issued from now on
 *   POST   /expire-tokens          every access token issued so far expires now
 *   POST   /revoke-all             every access and refresh token revoked
 *   POST   /deny-next-authorize    {description?}: the next authorize redirects with access_denied
 *   POST   /quota                  {bytes}: the allocation; writes past it get insufficient_space
 *   POST   /tokens                 {offline?, client_id?}: a token answer without the OAuth dance
 *   POST   /faults                 {path, count=1, status, retryAfter?, body?} or
 *                                  {path, count=1, destroy: 'mid-body'|'before-response', afterBytes?}
 *                                  path is exact ("/2/files/upload") or a prefix ending in "*"
 *   GET    /faults, DELETE /faults the pending faults; forget them
 *   GET    /files                  {files: [{path_display, path_lower, id, rev, size, sha256,
 *                                  content_hash}], folders: [path_display], sessions: [...]}
 *   GET    /file?path=/a/b         the stored bytes (application/octet-stream)
 *   POST   /find-bytes             {text} or {hex}: {files, sessions} whose bytes contain it
 *   GET    /stats                  {requests: {"/2/files/upload": n, ...}, log: [{method, path,
 *                                  status}]} (status 'destroyed' for a dropped connection)
 */
function control(s: State, lifetimeS: number, method: string, url: URL, body: Buffer): Reply {
  let input: Record<string, unknown> = {};
  if (body.length > 0) {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (!isObject(parsed)) throw new Error('a JSON object wanted');
    input = parsed;
  }
  const ok = jsonReply(200, { ok: true });
  const positiveInt = (v: unknown, name: string) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new Error(`${name}: integer ≥ 0`);
    return v;
  };
  switch (`${method} ${url.pathname.slice('/__emulator'.length)}`) {
    case 'POST /reset':
      Object.assign(s, freshState(lifetimeS));
      return ok;
    case 'POST /token-lifetime':
      s.lifetimeS = positiveInt(input.seconds, 'seconds');
      return ok;
    case 'POST /expire-tokens':
      for (const t of s.accessTokens.values()) t.expiresAt = Math.min(t.expiresAt, Date.now() - 1);
      return ok;
    case 'POST /revoke-all':
      for (const t of s.accessTokens.values()) t.revoked = true;
      for (const t of s.refreshTokens.values()) t.revoked = true;
      return ok;
    case 'POST /deny-next-authorize':
      s.denyNext =
        typeof input.description === 'string'
          ? input.description
          : 'The user chose not to give your app access to their Dropbox account.';
      return ok;
    case 'POST /quota':
      s.quota = positiveInt(input.bytes, 'bytes');
      return ok;
    case 'POST /tokens': {
      const clientId = typeof input.client_id === 'string' ? input.client_id : 'emulator-app';
      return jsonReply(200, codeGrantResult(s, clientId, DEFAULT_SCOPE, input.offline === true));
    }
    case 'POST /faults':
      s.faults.push(parseFault(input));
      return jsonReply(200, { faults: s.faults.length });
    case 'GET /faults':
      return jsonReply(200, { faults: s.faults as unknown as Json });
    case 'DELETE /faults':
      s.faults = [];
      return ok;
    case 'GET /files': {
      const files = [...s.entries.values()].filter((e): e is FileEntry => e.tag === 'file');
      return jsonReply(200, {
        files: files.map((f) => ({
          path_display: f.pathDisplay,
          path_lower: f.pathLower,
          id: f.id,
          rev: f.rev,
          size: f.bytes.length,
          sha256: sha256(f.bytes).toString('hex'),
          content_hash: f.contentHash,
        })),
        folders: [...s.entries.values()]
          .filter((e) => e.tag === 'folder')
          .map((e) => e.pathDisplay),
        sessions: [...s.sessions].map(([id, x]) => ({
          id,
          length: x.length,
          closed: x.closed,
          finished: x.finished,
        })),
      });
    }
    case 'GET /file': {
      const entry = s.entries.get((url.searchParams.get('path') ?? '').toLowerCase());
      if (entry?.tag !== 'file') return jsonReply(404, { error: 'no such file' });
      return {
        status: 200,
        headers: { 'Content-Type': 'application/octet-stream' },
        body: entry.bytes,
      };
    }
    case 'POST /find-bytes': {
      const needle =
        typeof input.text === 'string'
          ? Buffer.from(input.text, 'utf8')
          : Buffer.from(typeof input.hex === 'string' ? input.hex : '', 'hex');
      if (needle.length === 0) throw new Error('text or hex: a non-empty needle');
      const files = [...s.entries.values()].filter(
        (e) => e.tag === 'file' && e.bytes.includes(needle),
      );
      const sessions = [...s.sessions].filter(([, x]) => Buffer.concat(x.chunks).includes(needle));
      return jsonReply(200, {
        files: files.map((e) => e.pathDisplay),
        sessions: sessions.map(([id]) => id),
      });
    }
    case 'GET /stats':
      return jsonReply(200, {
        requests: Object.fromEntries(s.requests),
        log: s.log as unknown as Json,
      });
    default:
      return jsonReply(404, { error: `no control ${method} ${url.pathname}` });
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

// What the real API lets a browser send and read (CORS).
const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Dropbox-API-Arg',
  'Dropbox-API-Path-Root',
  'Dropbox-API-Select-User',
  'Dropbox-API-Select-Admin',
  'Range',
  'If-None-Match',
].join(', ');
const EXPOSE_HEADERS = [
  'Dropbox-API-Result',
  'Content-Range',
  'Content-Length',
  'Retry-After',
  'ETag',
  'X-Dropbox-Request-Id',
].join(', ');

/**
 * Reads a body, keeping at most `keep` bytes but counting all of them. With `destroyAfter`, the
 * connection is destroyed once that many bytes arrived (a lost connection mid-upload).
 */
function readBody(
  req: http.IncomingMessage,
  keep: number,
  destroyAfter?: number,
): Promise<{ body: Buffer; total: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const done = () => resolve({ body: Buffer.concat(chunks), total });
    if (destroyAfter !== undefined && destroyAfter <= 0) {
      req.socket.destroy();
      return done();
    }
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
      if (destroyAfter !== undefined && total >= destroyAfter) {
        req.socket.destroy();
        done();
      }
    });
    req.on('end', done);
    req.on('error', reject);
  });
}

function dispatch(
  s: State,
  req: http.IncomingMessage,
  url: URL,
  body: Buffer,
  total: number,
): Reply {
  const path = url.pathname;
  const method = req.method ?? 'GET';
  if (path === '/oauth2/authorize') {
    return method === 'GET' ? authorize(s, url) : textReply(405, 'Method Not Allowed');
  }
  if (path === '/oauth2/token') {
    return method === 'POST' ? tokenGrant(s, req, url, body) : textReply(405, 'Method Not Allowed');
  }
  const name = path.slice('/2/'.length);
  const route = path.startsWith('/2/') ? ROUTES[name] : undefined;
  if (!route) return textReply(404, `Unknown API function: "${path}"`);
  // Content-download endpoints also answer GET (the HTTP reference); everything else is POST.
  if (method !== 'POST' && !(method === 'GET' && route.style === 'download')) {
    return textReply(405, 'Method Not Allowed');
  }
  try {
    const accessToken = bearer(s, name, req, url);
    const { ctx, args } = readArgs(name, route, req, url, body);
    return route.handle({
      s,
      route: name,
      ctx,
      args,
      body,
      bodyBytes: total,
      accessToken,
      headers: req.headers,
    });
  } catch (error) {
    if (error instanceof Answer) return error.reply;
    throw error;
  }
}

async function serve(
  s: State,
  lifetimeS: number,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const send = (reply: Reply) => {
    res.writeHead(reply.status, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
      'X-Dropbox-Request-Id': token(12),
      'Content-Length': String(reply.body.length),
      ...reply.headers,
    });
    res.end(reply.body);
  };

  if (method === 'OPTIONS') {
    await readBody(req, 0);
    // The reference asks browser code to send reject_cors_preflight=true to catch preflights.
    if (url.searchParams.get('reject_cors_preflight') === 'true') {
      return send(textReply(400, 'This request was pre-flighted, and reject_cors_preflight=true.'));
    }
    return send({
      status: 200,
      headers: {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': '600',
      },
      body: Buffer.alloc(0),
    });
  }

  if (url.pathname.startsWith('/__emulator/')) {
    const { body } = await readBody(req, 64 * MiB);
    try {
      return send(control(s, lifetimeS, method, url, body));
    } catch (error) {
      return send(
        jsonReply(400, { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  s.requests.set(url.pathname, (s.requests.get(url.pathname) ?? 0) + 1);
  const log = (status: LogLine['status']) => {
    s.log.push({ method, path: url.pathname, status });
    if (s.log.length > LOG_LIMIT) s.log.shift();
  };
  const fault = takeFault(s, url.pathname);
  if (fault?.destroy === 'mid-body') {
    const length = Number(req.headers['content-length'] ?? 0);
    await readBody(req, 0, fault.afterBytes ?? Math.floor(length / 2));
    req.socket.destroy();
    return log('destroyed');
  }
  const style = ROUTES[url.pathname.slice('/2/'.length)]?.style;
  const { body, total } = await readBody(req, style === 'upload' ? MAX_PAYLOAD : MAX_RPC_BODY);
  const reply =
    fault?.status !== undefined
      ? faultReply({ ...fault, status: fault.status })
      : dispatch(s, req, url, body, total);
  if (fault?.destroy === 'before-response') {
    req.socket.destroy();
    return log('destroyed');
  }
  log(reply.status);
  send(reply);
}

/** Starts the emulator on 127.0.0.1; see the module header for what it answers. */
export async function startDropboxEmulator(
  opts: DropboxEmulatorOptions = {},
): Promise<DropboxEmulator> {
  const lifetimeS = opts.tokenLifetimeS ?? DEFAULT_LIFETIME_S;
  const s = freshState(lifetimeS);
  const server = http.createServer((req, res) => {
    serve(s, lifetimeS, req, res).catch((error: unknown) => {
      console.error('dropbox emulator:', error);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end('Internal Server Error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    authUrl: `${origin}/oauth2/authorize`,
    apiUrl: origin,
    contentUrl: origin,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
