// /api/s/:id: the public routes of a share link (issue 29), for the recipient's page /s/<id>,
// with no account. The access token comes in X-Share-Access, the download token in
// X-Share-Download: headers, so the request log (app.ts: method, path, status) never holds them.
//
// Every route answers one and the same 404 (shareUnavailableMessage) for a malformed id, an
// unknown id, a malformed or wrong token, and an expired, revoked, used-up or incomplete link:
// nothing tells whether an id exists before its token is used. The token is hashed and compared
// in constant time in every case (tokens.ts). Each client address may make SHARE_RATE_LIMIT
// requests a minute to these routes, counted in the database like the sign-in attempts
// (auth/attempts.ts), so the budget holds across instances; past it, 429 with Retry-After.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  SHARE_ACCESS_HEADER,
  SHARE_DOWNLOAD_HEADER,
  SHARE_DOWNLOAD_SECONDS,
  shareIdSchema,
  shareMessages,
  shareUnavailableMessage,
  type ShareInfo,
  type ShareKdf,
} from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import { spendAttempt } from '../auth/attempts.ts';
import { clientAddress } from '../auth/client-ip.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { serveBlob } from '../files/range.ts';
import * as repo from './shares.repository.ts';
import { accessMatches, downloadToken, downloadTokenValid, hashAccessToken } from './tokens.ts';

/** Requests per client address and minute to /api/s/*. */
export const SHARE_RATE_LIMIT = { window: 60, max: 120 };

export const unavailable = () => new HttpError(404, 'not_found', shareUnavailableMessage);

function rateLimited(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const outcome = await spendAttempt(
      c.var.db,
      [`share:${clientAddress(c)}`],
      SHARE_RATE_LIMIT,
      c.var.now().getTime(),
    );
    if (!outcome.allowed) {
      c.header('Retry-After', String(outcome.retryAfter));
      throw new HttpError(429, 'rate_limited', shareMessages.tooManyRequests);
    }
    await next();
  };
}

/**
 * The link of the route's id if the request's access token is its own and it may be used now;
 * else the uniform 404. The token is hashed and compared whatever the id.
 */
async function usableLink(c: Context<AppEnv>) {
  const id = c.req.param('id') ?? '';
  const { hash, wellFormed } = hashAccessToken(c.req.header(SHARE_ACCESS_HEADER));
  const idOk = shareIdSchema.safeParse(id).success;
  const row = idOk ? await repo.findPublicShare(c.var.db.kysely, id) : undefined;
  const matches = accessMatches(hash, row?.access_hash);
  const now = c.var.now().toISOString();
  if (!row || !wellFormed || !matches) throw unavailable();
  if (!repo.isActive(row, now) || row.content_complete !== 1) throw unavailable();
  return { row, hash: hash.toString('hex'), now };
}

const secretOf = async (c: Context<AppEnv>) => (await c.var.auth.$context).secret;

export function publicShareRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', rateLimited());
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  // What the link is, for the page to show before an open; counts nothing.
  app.get('/:id', async (c) => {
    const { row } = await usableLink(c);
    const info: ShareInfo = {
      kind: row.kind,
      size: repo.sizeOf(row),
      owner_name: row.owner_name ?? null,
      expires_at: row.expires_at,
      opens_left: row.max_opens === null ? null : Number(row.max_opens) - Number(row.opens),
      kdf: row.kdf === null ? null : (JSON.parse(row.kdf) as ShareKdf),
      enc_note: row.enc_note,
      enc_meta: row.enc_meta ?? '',
      wrapped_key: row.wrapped_key,
    };
    return c.json(info);
  });

  // One open, counted atomically (repo.countOpen): the content, or a file's download token.
  app.post('/:id/open', async (c) => {
    const { row, hash, now } = await usableLink(c);
    const opened = await repo.countOpen(c.var.db.kysely, row.id, hash, now);
    if (!opened) throw unavailable();
    if (opened.kind !== 'file') return c.json({ payload: opened.payload ?? '' });
    const token = downloadToken(await secretOf(c), row.id, c.var.now(), SHARE_DOWNLOAD_SECONDS);
    return c.json({ download: token, expires_in: SHARE_DOWNLOAD_SECONDS });
  });

  // A file link's ciphertext for the holder of a download token, with HTTP Range as the file
  // content route (files/files.routes.ts); HEAD too. The token outlives neither the link's data
  // nor its revocation.
  app.get('/:id/content', async (c) => {
    const id = c.req.param('id');
    const given = c.req.header(SHARE_DOWNLOAD_HEADER);
    const valid = downloadTokenValid(await secretOf(c), id, given, c.var.now());
    const row =
      valid && shareIdSchema.safeParse(id).success
        ? await repo.findPublicShare(c.var.db.kysely, id)
        : undefined;
    if (!row || row.kind !== 'file' || row.data_deleted_at !== null || !row.blob_key) {
      throw unavailable();
    }
    const key = row.blob_key as BlobKey;
    const { blobs } = c.var.files;
    const stat = await blobs.stat(key);
    if (!stat) throw unavailable();
    return serveBlob(c, blobs, key, stat.size);
  });

  // Anything else under /api/s answers as an unknown link does.
  app.all('*', () => {
    throw unavailable();
  });
  return app;
}
