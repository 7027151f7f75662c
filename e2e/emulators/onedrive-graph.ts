// Microsoft Graph v1.0's drive routes for the OneDrive emulator (test tooling; see onedrive.ts):
// addressing by id, by path and by special folder (OneDrive's concepts/addressing-driveitems.md),
// the drive and its quota, items, children with $top paging and an absolute @odata.nextLink,
// folder creation with @microsoft.graph.conflictBehavior, rename and move, delete, /content's 302
// to the download URL, and the two ways in for uploads (onedrive-upload.ts does the rest).
import type http from 'node:http';
import {
  emptyReply,
  fail,
  invalidRequest,
  isObject,
  jsonBody,
  jsonReply,
  notFound,
  timestamp,
  type Json,
  type Reply,
} from './onedrive-http.ts';
import { bearer } from './onedrive-identity.ts';
import {
  addItem,
  ancestry,
  approot,
  checkIfMatch,
  checkName,
  childNamed,
  childrenOf,
  conflictOf,
  deleteTree,
  driveJson,
  freeName,
  getItem,
  isUnder,
  itemJson,
  type AccessToken,
  type Item,
  type State,
} from './onedrive-store.ts';
import { createUploadSession, downloadUrl, simpleUpload } from './onedrive-upload.ts';

export interface Ctx {
  s: State;
  req: http.IncomingMessage;
  url: URL;
  body: Buffer;
  total: number;
  graphBase: string;
  contentBase: string;
}

export const render = (c: Ctx) => (item: Item) =>
  Buffer.from(JSON.stringify(itemJson(c.s, item, (i) => downloadUrl(c.s, c.contentBase, i))));
const itemReply = (c: Ctx, item: Item, status = 200): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: render(c)(item),
});

// ---------------------------------------------------------------------------------------------
// Addressing: /me/drive/{root | special/approot | items/{id}}[:/{path}[:]][/{action}]

interface Address {
  base: Item;
  /** The path after the base, when addressed by path (null when not). */
  segments: string[] | null;
  action: 'children' | 'content' | 'createUploadSession' | null;
}

function parseAddress(s: State, rest: string): Address {
  const m = /^\/(root|special\/([^/:]+)|items\/([^/:]+))(.*)$/.exec(rest);
  if (!m)
    return invalidRequest(`Resource not found for the segment '${rest.split('/')[1] ?? ''}'.`);
  const decode = (x: string) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return invalidRequest('Malformed percent-encoding in the path.', 'invalidPath');
    }
  };
  let base: Item;
  if (m[1] === 'root') base = getItem(s, s.rootId);
  else if (m[2] !== undefined) {
    if (m[2].toLowerCase() !== 'approot')
      notFound(`The special folder '${m[2]}' is not available.`);
    base = approot(s);
  } else base = getItem(s, decode(m[3] ?? ''));
  let tail = m[4] ?? '';
  let segments: string[] | null = null;
  if (tail.startsWith(':')) {
    const end = tail.indexOf(':', 1);
    segments = (end === -1 ? tail.slice(1) : tail.slice(1, end))
      .split('/')
      .filter(Boolean)
      .map(decode);
    tail = end === -1 ? '' : tail.slice(end + 1);
  }
  if (tail === '' || tail === '/') return { base, segments, action: null };
  const action = /^\/(children|content|createUploadSession)$/.exec(tail)?.[1];
  if (!action) return invalidRequest(`Resource not found for the segment '${tail.slice(1)}'.`);
  return { base, segments, action: action as Address['action'] };
}

function walk(s: State, base: Item, segments: string[]): Item {
  let at = base;
  for (const name of segments) at = childNamed(s, at.id, name) ?? notFound('Item does not exist');
  return at;
}

/** For a write by path: the existing parent folder and the new item's name. */
function parentAndName(c: Ctx, a: Address): { parent: Item; name: string; existing?: Item } {
  if (a.segments && a.segments.length > 0) {
    const parent = walk(c.s, a.base, a.segments.slice(0, -1));
    return { parent, name: checkName(a.segments.at(-1)) };
  }
  if (!a.base.bytes || a.base.parentId === null) {
    return invalidRequest('Address a file, or a folder and a file name (…:/{name}:).');
  }
  return { parent: getItem(c.s, a.base.parentId), name: a.base.name, existing: a.base };
}

/** Files.ReadWrite.AppFolder reaches the app folder only; Files.Read* cannot write. */
function checkAccess(s: State, token: AccessToken, item: Item, write: boolean) {
  const has = (scope: string) => token.scopes.some((x) => x.toLowerCase() === scope.toLowerCase());
  const full = has('Files.ReadWrite') || has('Files.ReadWrite.All');
  const read = full || has('Files.Read') || has('Files.Read.All');
  if (full || (read && !write)) return;
  const app = has('Files.ReadWrite.AppFolder');
  if (app && s.approotId !== null && isUnder(s, item, s.approotId)) return;
  fail(403, 'accessDenied', 'Access denied', 'accessRestricted');
}

// ---------------------------------------------------------------------------------------------
// Graph

function listChildren(c: Ctx, folder: Item): Reply {
  if (folder.bytes) return invalidRequest('The item is not a folder.');
  const q = c.url.searchParams;
  const top = q.has('$top') ? Number(q.get('$top')) : 200;
  if (!Number.isInteger(top) || top < 1 || top > 1000) {
    return invalidRequest('$top must be an integer from 1 to 1000.', 'invalidQueryOption');
  }
  const skip = q.get('$skiptoken');
  const offset = skip === null ? 0 : Number(Buffer.from(skip, 'base64url').toString().slice(2));
  if (!Number.isInteger(offset) || offset < 0) {
    return invalidRequest('Invalid $skiptoken.', 'invalidStartIndex');
  }
  const all = childrenOf(c.s, folder.id);
  const page = all.slice(offset, offset + top);
  const value = page.map(
    (i) => itemJson(c.s, i, (x) => downloadUrl(c.s, c.contentBase, x)) as Json,
  );
  const next = offset + top < all.length ? offset + top : null;
  let nextLink: string | undefined;
  if (next !== null) {
    const params = [...q].filter(([k]) => k !== '$skiptoken' && k !== '$top');
    params.push(
      ['$top', String(top)],
      ['$skiptoken', Buffer.from(`o:${next}`).toString('base64url')],
    );
    const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    nextLink = `${c.graphBase}${c.url.pathname}?${query}`;
  }
  return jsonReply(200, { value, ...(nextLink ? { '@odata.nextLink': nextLink } : {}) });
}

function createFolder(c: Ctx, parent: Item): Reply {
  if (parent.bytes) return invalidRequest('The parent is not a folder.');
  const body = jsonBody(c.body);
  const name = checkName(body.name);
  if (!isObject(body.folder)) {
    return invalidRequest('Only folders are created this way: give "folder": {}.');
  }
  const conflict = conflictOf(body['@microsoft.graph.conflictBehavior'], 'fail');
  const existing = childNamed(c.s, parent.id, name);
  let finalName = name;
  if (existing) {
    if (conflict === 'fail') {
      fail(
        409,
        'nameAlreadyExists',
        'The specified item name already exists.',
        'nameAlreadyExists',
      );
    }
    if (conflict === 'replace') deleteTree(c.s, existing);
    else finalName = freeName(c.s, parent.id, name);
  }
  return itemReply(c, addItem(c.s, parent.id, finalName, null), 201);
}

function updateItem(c: Ctx, item: Item): Reply {
  if (item.parentId === null) fail(403, 'accessDenied', 'The root cannot be changed.');
  checkIfMatch(item, c.req.headers['if-match']);
  const body = jsonBody(c.body);
  let parentId = item.parentId ?? c.s.rootId;
  const ref = body.parentReference;
  if (isObject(ref) && typeof ref.id === 'string') {
    const parent = getItem(c.s, ref.id);
    if (parent.bytes || ancestry(c.s, parent).some((a) => a.id === item.id)) {
      invalidRequest('Cannot move an item into a file or into itself.');
    }
    parentId = parent.id;
  }
  const name = body.name === undefined ? item.name : checkName(body.name);
  const conflict = conflictOf(body['@microsoft.graph.conflictBehavior'], 'fail');
  const clash = childNamed(c.s, parentId, name);
  let finalName = name;
  if (clash && clash.id !== item.id) {
    if (conflict === 'fail') {
      fail(
        409,
        'nameAlreadyExists',
        'The specified item name already exists.',
        'nameAlreadyExists',
      );
    }
    if (conflict === 'replace') deleteTree(c.s, clash);
    else finalName = freeName(c.s, parentId, name);
  }
  Object.assign(item, { name: finalName, parentId, modified: timestamp() });
  item.version += 1;
  return itemReply(c, item);
}

export function graph(c: Ctx): Reply {
  const { s, req, url } = c;
  const method = req.method ?? 'GET';
  if (!url.pathname.startsWith('/v1.0/')) return notFound(`Unknown path ${url.pathname}`);
  const token = bearer(s, req);
  const rest = url.pathname.slice('/v1.0/me/drive'.length);
  if (!url.pathname.startsWith('/v1.0/me/drive')) {
    return invalidRequest(
      `Resource not found for the segment '${url.pathname.split('/')[2] ?? ''}'.`,
    );
  }
  if (rest === '' || rest === '/') {
    if (method !== 'GET') return fail(405, 'invalidRequest', 'GET only.');
    if (!token.scopes.some((x) => /^Files\./i.test(x))) fail(403, 'accessDenied', 'Access denied');
    return jsonReply(200, driveJson(s));
  }
  const a = parseAddress(s, rest);
  const write = method !== 'GET';
  const route = `${method} ${a.action ?? ''}`;
  if (route === 'POST createUploadSession' || route === 'PUT content') {
    const { parent, name, existing } = parentAndName(c, a);
    checkAccess(s, token, parent, true);
    if (route === 'PUT content') {
      const conflict = conflictOf(
        url.searchParams.get('@microsoft.graph.conflictBehavior') ?? undefined,
        'replace',
      );
      return simpleUpload(
        s,
        parent.id,
        name,
        existing ? 'replace' : conflict,
        c.body,
        c.total,
        render(c),
      );
    }
    const body = jsonBody(c.body);
    const item = isObject(body.item) ? body.item : {};
    const conflict = conflictOf(item['@microsoft.graph.conflictBehavior'], 'replace');
    return createUploadSession(s, parent.id, name, existing ? 'replace' : conflict, c.contentBase);
  }
  const item = a.segments ? walk(s, a.base, a.segments) : a.base;
  checkAccess(s, token, item, write);
  switch (route) {
    case 'GET ':
      return itemReply(c, item);
    case 'GET children':
      return listChildren(c, item);
    case 'POST children':
      return createFolder(c, item);
    case 'PATCH ':
      return updateItem(c, item);
    case 'DELETE ':
      if (item.parentId === null) fail(403, 'accessDenied', 'The root cannot be deleted.');
      checkIfMatch(item, req.headers['if-match']);
      deleteTree(s, item);
      return emptyReply(204);
    case 'GET content':
      if (!item.bytes) return invalidRequest('A folder has no content to download.');
      return emptyReply(302, { Location: downloadUrl(s, c.contentBase, item) });
    default:
      return fail(405, 'invalidRequest', `${method} is not supported here.`);
  }
}
