// Uploads and downloads of the OneDrive emulator (test tooling; see onedrive.ts), following
// OneDrive's API docs (github.com/OneDrive/onedrive-api-docs): "Upload large files with an upload
// session" (driveitem_createuploadsession.md), "Upload or replace the contents of a DriveItem"
// (driveitem_put_content.md) and "Download the contents of a DriveItem"
// (driveitem_get_content.md).
//
// The upload URL and the download URL live on the content origin, another host than Graph's, as
// OneDrive's *.up.1drv.com and *.files.1drv.com do. Both are pre-authenticated: the docs say an
// Authorization header sent with the upload URL "may result in a 401", so the emulator always
// answers 401 to one, which keeps a client from sending its token to the content hosts. Fragments
// must come in order, each but the last a multiple of 320 KiB, none over 60 MiB, all declaring the
// same total (the docs' MUSTs), else 400 or 416 with the documented inner codes. Commit applies
// the conflict behaviour (default replace) and the quota; a conflict or a full quota at the last
// fragment leaves the session as it was, as the docs' "Handle upload errors" has it.
import type http from 'node:http';
import {
  emptyReply,
  fail,
  invalidRequest,
  jsonReply,
  MiB,
  notFound,
  type Reply,
} from './onedrive-http.ts';
import {
  addItem,
  checkName,
  checkQuota,
  childNamed,
  DRIVE_ID,
  freeName,
  getItem,
  randomToken,
  setContent,
  type Conflict,
  type Item,
  type State,
} from './onedrive-store.ts';

export const FRAGMENT_UNIT = 320 * 1024;
export const MAX_FRAGMENT = 60 * MiB;
export const MAX_SIMPLE_UPLOAD = 4 * MiB;
const SESSION_TTL_MS = 2 * 3600_000;
const DOWNLOAD_TTL_MS = 3600_000;

/** Stores `bytes` as `name` in the folder `parentId`, applying the conflict behaviour. */
export function commitFile(
  s: State,
  parentId: string,
  name: string,
  conflict: Conflict,
  bytes: Buffer,
): { item: Item; created: boolean } {
  const parent = getItem(s, parentId);
  if (parent.bytes) invalidRequest('The parent is a file, not a folder.');
  const existing = childNamed(s, parentId, name);
  if (existing && (conflict === 'fail' || (conflict === 'replace' && !existing.bytes))) {
    fail(409, 'nameAlreadyExists', 'The specified item name already exists.', 'nameAlreadyExists');
  }
  if (existing?.bytes && conflict === 'replace') {
    checkQuota(s, bytes.length - existing.bytes.length);
    setContent(existing, bytes);
    return { item: existing, created: false };
  }
  checkQuota(s, bytes.length);
  const finalName = existing ? freeName(s, parentId, name) : name;
  return { item: addItem(s, parentId, finalName, bytes), created: true };
}

/** A pre-authenticated download URL on the content origin, valid for an hour. */
export function downloadUrl(s: State, contentBase: string, item: Item) {
  const token = randomToken(24);
  s.downloads.set(token, { itemId: item.id, expiresAt: Date.now() + DOWNLOAD_TTL_MS });
  return `${contentBase}/dl/${DRIVE_ID}/${token}`;
}

/** POST ...:/{name}:/createUploadSession (or .../{item-id}/createUploadSession for a file). */
export function createUploadSession(
  s: State,
  parentId: string,
  name: string,
  conflict: Conflict,
  contentBase: string,
): Reply {
  checkName(name);
  const parent = getItem(s, parentId);
  if (parent.bytes) invalidRequest('The parent is a file, not a folder.');
  if (conflict === 'fail' && childNamed(s, parentId, name)) {
    fail(409, 'nameAlreadyExists', 'The specified item name already exists.', 'nameAlreadyExists');
  }
  const id = randomToken(32);
  const expiresAt = Date.now() + SESSION_TTL_MS;
  s.sessions.set(id, {
    id,
    parentId,
    name,
    conflict,
    total: null,
    parts: [],
    received: 0,
    expiresAt,
  });
  return jsonReply(200, {
    uploadUrl: `${contentBase}/up/${DRIVE_ID}/${id}`,
    expirationDateTime: new Date(expiresAt).toISOString(),
    nextExpectedRanges: ['0-'],
  });
}

/** PUT .../content of up to 4 MiB (the docs' limit for the simple upload). */
export function simpleUpload(
  s: State,
  parentId: string,
  name: string,
  conflict: Conflict,
  body: Buffer,
  total: number,
  render: (item: Item) => Reply['body'],
): Reply {
  checkName(name);
  if (total > MAX_SIMPLE_UPLOAD) {
    fail(
      413,
      'invalidRequest',
      'Simple uploads are limited to 4 MB; use an upload session.',
      'maxFileSizeExceeded',
    );
  }
  const { item, created } = commitFile(s, parentId, name, conflict, body);
  return {
    status: created ? 201 : 200,
    headers: { 'Content-Type': 'application/json' },
    body: render(item),
  };
}

const sessionStatus = (session: { expiresAt: number; received: number }) => ({
  expirationDateTime: new Date(session.expiresAt).toISOString(),
  nextExpectedRanges: [`${session.received}-`],
});

/** PUT, GET and DELETE on an upload URL: /up/{drive}/{session}. */
function uploadUrl(
  s: State,
  req: http.IncomingMessage,
  id: string,
  body: Buffer,
  total: number,
  render: (item: Item) => Reply['body'],
): Reply {
  if (req.headers.authorization !== undefined) {
    fail(
      401,
      'unauthenticated',
      'The upload URL is pre-authenticated: send no Authorization header.',
    );
  }
  const session = s.sessions.get(id);
  if (!session || Date.now() > session.expiresAt) {
    if (session) s.sessions.delete(id);
    return fail(404, 'itemNotFound', 'The upload session was not found.', 'uploadSessionNotFound');
  }
  switch (req.method) {
    case 'GET':
      return jsonReply(200, sessionStatus(session));
    case 'DELETE':
      s.sessions.delete(id);
      return emptyReply(204);
    case 'PUT':
      break;
    default:
      return fail(405, 'invalidRequest', 'PUT, GET or DELETE on an upload URL.');
  }
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers['content-range'] ?? '');
  if (!m)
    return invalidRequest(
      'Content-Range "bytes {start}-{end}/{total}" is required.',
      'invalidRange',
    );
  const [from, to, size] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const length = to - from + 1;
  if (to < from || to >= size) invalidRequest('The Content-Range is invalid.', 'invalidRange');
  if (length !== total) {
    invalidRequest(
      `Content-Range declares ${length} bytes; the body has ${total}.`,
      'invalidRange',
    );
  }
  if (length > MAX_FRAGMENT) {
    fail(413, 'invalidRequest', 'A fragment may be at most 60 MiB.', 'maxFragmentLengthExceeded');
  }
  if (session.total !== null && session.total !== size) {
    invalidRequest("The declared total size differs from the session's.", 'fragmentLengthMismatch');
  }
  if (from !== session.received) {
    const inner = from < session.received ? 'fragmentOverlap' : 'fragmentOutOfOrder';
    const message =
      from < session.received
        ? 'Uploaded fragment overlaps with existing data.'
        : 'Uploaded fragment is out of order.';
    return fail(416, 'invalidRange', message, inner);
  }
  const last = to === size - 1;
  if (!last && length % FRAGMENT_UNIT !== 0) {
    invalidRequest(
      'Each fragment but the last must be a multiple of 320 KiB (327,680 bytes).',
      'invalidRange',
    );
  }
  if (session.total === null) {
    const existing = childNamed(s, session.parentId, session.name);
    checkQuota(s, size - (session.conflict === 'replace' ? (existing?.bytes?.length ?? 0) : 0));
  }
  session.total = size;
  session.parts.push(body);
  session.received += length;
  session.expiresAt = Date.now() + SESSION_TTL_MS;
  if (!last) return jsonReply(202, sessionStatus(session));
  try {
    const { item, created } = commitFile(
      s,
      session.parentId,
      session.name,
      session.conflict,
      Buffer.concat(session.parts),
    );
    s.sessions.delete(id);
    return {
      status: created ? 201 : 200,
      headers: { 'Content-Type': 'application/json' },
      body: render(item),
    };
  } catch (error) {
    // Kept for a retry of the commit, but the bytes are all there.
    session.parts = [Buffer.concat(session.parts)];
    throw error;
  }
}

/** GET (or HEAD) a download URL: the bytes, one Range honoured with 206 (RFC 9110 §14). */
function download(s: State, req: http.IncomingMessage, token: string): Reply {
  const entry = s.downloads.get(token);
  if (!entry) return notFound('The download URL is not valid.');
  if (Date.now() > entry.expiresAt) {
    return fail(401, 'unauthenticated', 'The download URL has expired; get the item again.');
  }
  const item = s.items.get(entry.itemId);
  if (!item?.bytes) return notFound('Item does not exist');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return fail(405, 'invalidRequest', 'GET or HEAD on a download URL.');
  }
  const bytes = item.bytes;
  const headers = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return { status: 200, headers, body: bytes };
  let from: number;
  let to: number;
  if (m[1] === '') {
    from = Math.max(0, bytes.length - Number(m[2]));
    to = bytes.length - 1;
  } else {
    from = Number(m[1]);
    to = m[2] === '' ? bytes.length - 1 : Math.min(Number(m[2]), bytes.length - 1);
  }
  if (from >= bytes.length || from > to) {
    return {
      status: 416,
      headers: { 'Content-Range': `bytes */${bytes.length}` },
      body: Buffer.alloc(0),
    };
  }
  return {
    status: 206,
    headers: { ...headers, 'Content-Range': `bytes ${from}-${to}/${bytes.length}` },
    body: bytes.subarray(from, to + 1),
  };
}

/** Everything the content origin answers. */
export function content(
  s: State,
  req: http.IncomingMessage,
  url: URL,
  body: Buffer,
  total: number,
  render: (item: Item) => Reply['body'],
): Reply {
  const m = /^\/(up|dl)\/[^/]+\/([^/]+)$/.exec(url.pathname);
  if (!m?.[2]) return notFound();
  return m[1] === 'up' ? uploadUrl(s, req, m[2], body, total, render) : download(s, req, m[2]);
}
