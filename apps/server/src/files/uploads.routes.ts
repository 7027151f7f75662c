// /api/uploads: the tus 1.0 endpoint (https://tus.io/protocols/resumable-upload). POST creates
// an upload (Location: /api/uploads/<id>); HEAD reads its offset; PATCH appends at Upload-Offset
// (application/offset+octet-stream), optionally with the body's SHA-256 in Upload-Checksum (the
// checksum extension, [Note: checksum per PATCH] in uploads.store.ts); DELETE cancels it. Each
// request is checked here (session, metadata, vault, plan limit, owner, checksum header) before
// @tus/server sees it; errors answer in the API's JSON shape `{ error: { code, message } }` with
// the tus headers kept.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import {
  checksumSchema,
  errorBodySchema,
  UPLOAD_FINAL_CHECKSUM_HEADER,
  type ErrorCode,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { errorBody, HttpError } from '../http/errors.ts';
import { deleteUpload, keepDeferredChecksum } from './uploads.repository.ts';
import { drainBodyOnError, requestWithNodeBody } from './nodeBody.ts';
import { texts, TusHttpError } from './uploads.errors.ts';
import { CHECKSUM_ALGORITHMS } from './uploads.hashes.ts';
import { bindScope, type FileStorage, type UploadScope } from './uploads.ts';
import { bytesComplete, cancelFinishing, finishUpload } from './uploads.finish.ts';
import { reserveSpace } from './storage-guard.ts';
import { checkNewUpload, ownUpload, parseUploadChecksum } from './uploads.service.ts';

const codeFor = (status: number): ErrorCode =>
  status === 401
    ? 'unauthorized'
    : status === 404 || status === 410
      ? 'not_found'
      : status === 409
        ? 'conflict'
        : status === 413
          ? 'payload_too_large'
          : status >= 500
            ? 'internal'
            : 'bad_request';

/** tus answers errors in plain text; the API answers JSON. Our own hook errors already are. */
async function asApiResponse(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text from @tus/server
  }
  const json = errorBodySchema.safeParse(body).success
    ? text
    : JSON.stringify(errorBody(codeFor(res.status), text.trim() || 'Upload failed'));
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json');
  headers.delete('Content-Length');
  return new Response(json, { status: res.status, headers });
}

/**
 * The answer to a HEAD or PATCH on an upload whose bytes are all here: finished (again, if a
 * process stopped in the middle; at once if its record exists), the complete offset; or the
 * finish's error, after which the upload is gone (or 423 while another request finishes it).
 */
async function finishedAnswer(
  scope: UploadScope,
  row: { id: string; upload_length: number },
  method: 'HEAD' | 'PATCH',
  finalChecksum: string | null,
): Promise<Response> {
  const headers = new Headers({ 'Tus-Resumable': '1.0.0', 'Cache-Control': 'no-store' });
  try {
    await finishUpload(scope, row.id, finalChecksum);
  } catch (err) {
    if (!(err instanceof TusHttpError)) throw err;
    headers.set('Content-Type', 'application/json');
    return new Response(method === 'HEAD' ? null : err.body, { status: err.status_code, headers });
  }
  const length = String(row.upload_length);
  headers.set('Upload-Offset', length);
  if (method === 'HEAD') headers.set('Upload-Length', length);
  return new Response(null, { status: method === 'HEAD' ? 200 : 204, headers });
}

/** Hands a request with a body to @tus/server; its checksum goes no further than this request. */
async function handleChecked(req: Request, scope: UploadScope): Promise<Response> {
  bindScope(req, scope);
  try {
    return await scope.storage.tus.handleWeb(req);
  } finally {
    if (scope.bodyCheck) scope.storage.uploads.withdraw(scope.bodyCheck);
  }
}

/**
 * After a creation: its reservation moves to the upload's id, less the bytes the request brought
 * (creation-with-upload); without an upload created, it is released.
 */
function keepReservation(
  storage: FileStorage,
  creation: string,
  length: number,
  res: Response | undefined,
): void {
  const location = res?.status === 201 ? (res.headers.get('location') ?? '') : '';
  const id = /\/([0-9a-f]{32})$/.exec(location)?.[1];
  if (!res || !id) return storage.reservations.release(creation);
  storage.reservations.rename(creation, id);
  storage.reservations.set(id, length - Number(res.headers.get('upload-offset') ?? 0));
}

export function uploadsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Protocol discovery (Tus-Version, Tus-Extension, Tus-Checksum-Algorithm); no session needed,
  // nothing is revealed.
  app.options('*', async (c) => {
    const res = await c.var.files.tus.handleWeb(c.req.raw);
    if (res.ok) res.headers.set('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
    return res;
  });
  app.use('*', requireUser());

  app.post('/', async (c) => {
    const userId = c.var.user.id;
    const create = await checkNewUpload(c.var, userId, c.req.raw.headers);
    const bodyCheck = parseUploadChecksum(c.req.raw.headers, create.length);
    const storage = c.var.files;
    const scope = {
      deps: c.var,
      storage,
      userId,
      create: { ...create } as typeof create & { expiresAt?: Date },
      bodyCheck,
    };
    // [Note: space reservations] in reservations.ts: the declared length is reserved before a
    // byte is stored, under a name of its own until tus has chosen the upload's id.
    const creation = `creation.${randomBytes(8).toString('hex')}`;
    await reserveSpace(c.var, storage, creation, create.length);
    let res: Response | undefined;
    try {
      res = await handleChecked(c.req.raw, scope);
    } finally {
      keepReservation(storage, creation, create.length, res);
    }
    const expiresAt = scope.create.expiresAt;
    if (res.status === 201 && expiresAt && !res.headers.get('upload-offset')) {
      res.headers.set('Upload-Expires', expiresAt.toUTCString());
    }
    return asApiResponse(res);
  });

  // HEAD only (Hono routes HEAD to GET handlers; a real GET has nothing to read here). An upload
  // whose bytes are all here is finished first, so a complete offset always means a file record
  // ([Note: recoverable finish] in uploads.finish.ts): tus clients take it for success.
  app.get('/:id', async (c) => {
    if (c.req.method !== 'HEAD') return c.json(errorBody('not_found', texts.uploadNotFound), 404);
    const userId = c.var.user.id;
    const row = await ownUpload(c.var, userId, c.req.param('id'));
    const storage = c.var.files;
    const scope = { deps: c.var, storage, userId };
    const complete =
      row.state === 'receiving' && !!row.checksum && (await bytesComplete(storage, row));
    if (row.state !== 'receiving' || complete) return finishedAnswer(scope, row, 'HEAD', null);
    bindScope(c.req.raw, scope);
    return asApiResponse(await storage.tus.handleWeb(c.req.raw));
  });

  app.patch('/:id', drainBodyOnError, async (c) => {
    const userId = c.var.user.id;
    const row = await ownUpload(c.var, userId, c.req.param('id'));
    const storage = c.var.files;
    const finalChecksum = c.req.header(UPLOAD_FINAL_CHECKSUM_HEADER) ?? null;
    if (row.state !== 'receiving') {
      // Its last PATCH was answered, or lost with the process: finish it (again) and say so.
      if (c.req.header('upload-offset') !== String(row.upload_length)) {
        throw new HttpError(409, 'conflict', texts.offsetMismatch);
      }
      return finishedAnswer({ deps: c.var, storage, userId }, row, 'PATCH', finalChecksum);
    }
    // 507 below the watermark, before a byte is read; the bytes still to come are reserved again
    // (they already are, unless this process restarted) [Note: space reservations].
    const length = Number(row.upload_length);
    const from = Number(c.req.header('upload-offset'));
    const toCome =
      Number.isSafeInteger(from) && from >= 0 && from <= length ? length - from : length;
    await reserveSpace(c.var, storage, row.id, toCome);
    // The completing PATCH's deferred checksum is kept before its bytes, so that a finish resumed
    // after a crash can verify them (a header on an earlier PATCH is ignored).
    const completes =
      Number(c.req.header('upload-offset')) + Number(c.req.header('content-length') ?? NaN) ===
      Number(row.upload_length);
    if (!row.checksum && completes && checksumSchema.safeParse(finalChecksum).success) {
      await keepDeferredChecksum(c.var.db.kysely, row.id, finalChecksum!);
    }
    const bodyCheck = parseUploadChecksum(c.req.raw.headers, Number(row.upload_length));
    const req = requestWithNodeBody(c);
    const res = await handleChecked(req, { deps: c.var, storage, userId, bodyCheck });
    const offset = Number(res.headers.get('upload-offset') ?? NaN);
    if (res.status === 204 && offset <= length) storage.reservations.set(row.id, length - offset);
    if (res.status === 204 && offset < length) {
      res.headers.set('Upload-Expires', new Date(row.expires_at).toUTCString());
    }
    return asApiResponse(res);
  });

  app.delete('/:id', async (c) => {
    const userId = c.var.user.id;
    const row = await ownUpload(c.var, userId, c.req.param('id'));
    const storage = c.var.files;
    const gone = () => {
      storage.reservations.release(row.id); // [Note: space reservations]
      return new Response(null, { status: 204, headers: { 'Tus-Resumable': '1.0.0' } });
    };
    // One whose finishing failed (a full disk) and that no attempt holds is cancelled too.
    if (await cancelFinishing(c.var, storage, row)) return gone();
    if (row.state !== 'receiving') throw new HttpError(409, 'conflict', texts.busy);
    bindScope(c.req.raw, { deps: c.var, storage, userId });
    const res = await storage.tus.handleWeb(c.req.raw);
    // 404: the tus files went with an earlier DELETE whose row the full disk kept.
    if (res.ok || res.status === 404) {
      await deleteUpload(c.var.db.kysely, row.id);
      if (!res.ok) return gone();
      storage.reservations.release(row.id);
    }
    return asApiResponse(res);
  });

  return app;
}
