// /api/uploads: the tus 1.0 endpoint (https://tus.io/protocols/resumable-upload). POST creates
// an upload (Location: /api/uploads/<id>); HEAD reads its offset; PATCH appends at Upload-Offset
// (application/offset+octet-stream), optionally with the body's SHA-256 in Upload-Checksum (the
// checksum extension, [Note: checksum per PATCH] in uploads.ts); DELETE cancels it. Each request
// is checked here (session, metadata, vault, plan limit, owner, checksum header) before
// @tus/server sees it; errors answer in the API's JSON shape `{ error: { code, message } }` with
// the tus headers kept.
import { Hono } from 'hono';
import { errorBodySchema, type ErrorCode } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { errorBody, HttpError } from '../http/errors.ts';
import * as repo from './files.repository.ts';
import { fileStorage } from './files.service.ts';
import { requestWithNodeBody } from './nodeBody.ts';
import { bindScope, CHECKSUM_ALGORITHMS, texts, type UploadScope } from './uploads.ts';
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

/** Hands a request with a body to @tus/server; its checksum goes no further than this request. */
async function handleChecked(req: Request, scope: UploadScope): Promise<Response> {
  bindScope(req, scope);
  try {
    return await scope.storage.tus.handleWeb(req);
  } finally {
    if (scope.bodyCheck) scope.storage.uploads.withdraw(scope.bodyCheck);
  }
}

export function uploadsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Protocol discovery (Tus-Version, Tus-Extension, Tus-Checksum-Algorithm); no session needed,
  // nothing is revealed.
  app.options('*', async (c) => {
    const res = await fileStorage(c.var.config).tus.handleWeb(c.req.raw);
    if (res.ok) res.headers.set('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
    return res;
  });
  app.use('*', requireUser());

  app.post('/', async (c) => {
    const userId = c.var.user.id;
    const create = await checkNewUpload(c.var, userId, c.req.raw.headers);
    const bodyCheck = parseUploadChecksum(c.req.raw.headers, create.length);
    const storage = fileStorage(c.var.config);
    const scope = {
      deps: c.var,
      storage,
      userId,
      create: { ...create } as typeof create & { expiresAt?: Date },
      bodyCheck,
    };
    const res = await handleChecked(c.req.raw, scope);
    const expiresAt = scope.create.expiresAt;
    if (res.status === 201 && expiresAt && !res.headers.get('upload-offset')) {
      res.headers.set('Upload-Expires', expiresAt.toUTCString());
    }
    return asApiResponse(res);
  });

  // HEAD only (Hono routes HEAD to GET handlers; a real GET has nothing to read here).
  app.get('/:id', async (c) => {
    if (c.req.method !== 'HEAD') return c.json(errorBody('not_found', texts.uploadNotFound), 404);
    const userId = c.var.user.id;
    await ownUpload(c.var, userId, c.req.param('id'));
    const storage = fileStorage(c.var.config);
    bindScope(c.req.raw, { deps: c.var, storage, userId });
    return asApiResponse(await storage.tus.handleWeb(c.req.raw));
  });

  app.patch('/:id', async (c) => {
    const userId = c.var.user.id;
    const row = await ownUpload(c.var, userId, c.req.param('id'));
    const bodyCheck = parseUploadChecksum(c.req.raw.headers, Number(row.upload_length));
    const storage = fileStorage(c.var.config);
    const req = requestWithNodeBody(c);
    const res = await handleChecked(req, { deps: c.var, storage, userId, bodyCheck });
    const offset = Number(res.headers.get('upload-offset') ?? NaN);
    if (res.status === 204 && offset < Number(row.upload_length)) {
      res.headers.set('Upload-Expires', new Date(row.expires_at).toUTCString());
    }
    return asApiResponse(res);
  });

  app.delete('/:id', async (c) => {
    const userId = c.var.user.id;
    const row = await ownUpload(c.var, userId, c.req.param('id'));
    if (row.state !== 'receiving') throw new HttpError(409, 'conflict', texts.busy);
    const storage = fileStorage(c.var.config);
    bindScope(c.req.raw, { deps: c.var, storage, userId });
    const res = await storage.tus.handleWeb(c.req.raw);
    if (res.ok) await repo.deleteUpload(c.var.db.kysely, row.id);
    return asApiResponse(res);
  });

  return app;
}
