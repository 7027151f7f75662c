// PUT /api/shares/:id/content: a file link's ciphertext, exactly the length declared at its
// creation, streamed from the request to the blob store and never held whole (the body is read
// from Node's stream as tus PATCHes are, files/nodeBody.ts; the body limit does not apply,
// http/body-limit.ts). It comes in one body (a Node client streams it), or in parts, each a PUT
// with `Content-Range: bytes a-b/total` (a browser, which cannot stream a request body over
// HTTP/1.1 and would otherwise hold the whole copy in memory): the parts are kept as blobs of their
// own, listed on the link in order, and the last one joins them into the link's blob. The
// server's free-space watermark applies as for uploads (507 below it, with the bytes reserved
// while they arrive, [Note: space reservations] in files/reservations.ts), and so does a full disk
// mid-body (507). Once complete, the link refuses another body (409).
import type { Context } from 'hono';
import { SHARE_PART_MAX_BYTES, shareContentRangeSchema, shareMessages } from '@sealvault/protocol';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import type { AppEnv } from '../http/context.ts';
import { isDiskFull } from '../http/disk-full.ts';
import { HttpError } from '../http/errors.ts';
import { queueBlobDeletions } from '../files/blob-deletions.repository.ts';
import { purgeBlobs } from '../files/files.service.ts';
import { requestWithNodeBody } from '../files/nodeBody.ts';
import { reserveSpace, storageFull } from '../files/storage-guard.ts';
import * as repo from './shares.repository.ts';
import { shareNotFound } from './shares.service.ts';

const conflict = (message: string) => new HttpError(409, 'conflict', message);

/** The body's chunks, refused (413) past `size` bytes and (400) short of it at the end. */
async function* exactly(
  body: ReadableStream<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.byteLength;
      if (seen > size) {
        throw new HttpError(413, 'payload_too_large', shareMessages.wrongLength(size));
      }
      yield value;
    }
  } finally {
    if (seen > size) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (seen !== size) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(size));
}

type ShareRow = NonNullable<Awaited<ReturnType<typeof repo.findOwnShare>>>;

/** The body of the request, its Content-Length required and equal to `length`. */
function bodyOfLength(c: Context<AppEnv>, length: number, whole: number) {
  const declared = c.req.header('content-length');
  if (declared === undefined) throw new HttpError(411, 'bad_request', shareMessages.lengthRequired);
  const given = Number(declared);
  if (given > whole)
    throw new HttpError(413, 'payload_too_large', shareMessages.wrongLength(whole));
  if (given !== length) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(length));
  const body = requestWithNodeBody(c).body;
  if (!body) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(length));
  return body;
}

/** Stores `source` (`bytes` long) as a new blob, the bytes reserved meanwhile; 507 on a full disk. */
async function store(
  c: Context<AppEnv>,
  id: string,
  bytes: number,
  source: AsyncIterable<Uint8Array>,
): Promise<BlobKey> {
  const storage = c.var.files;
  const reservation = `share.${id}`;
  await reserveSpace(c.var, storage, reservation, bytes);
  try {
    return (await storage.blobs.put(source)).key;
  } catch (err) {
    if (err instanceof Error && isDiskFull(err)) throw storageFull();
    throw err;
  } finally {
    storage.reservations.release(reservation);
  }
}

/** The parts' bytes one after the other. */
async function* joined(blobs: BlobStore, parts: repo.ContentPart[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) {
    const reader = (await blobs.get(part.key as BlobKey)).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
  }
}

/** Why a link took no more content: it is gone, complete, its data deleted, or (parts) another part came first. */
async function refusal(c: Context<AppEnv>, id: string): Promise<HttpError> {
  const now = await repo.findOwnShare(c.var.db.kysely, c.var.user.id, id);
  if (!now) return shareNotFound();
  if (now.content_complete === 1) return conflict(shareMessages.contentComplete);
  if (now.data_deleted_at !== null) return conflict(shareMessages.dataDeleted);
  const next = repo.partsOf(now).reduce((n, p) => n + p.size, 0);
  return conflict(shareMessages.partOutOfOrder(next));
}

/** Completes the link with `key`, or deletes it and says why the link refused it. */
async function complete(c: Context<AppEnv>, id: string, key: BlobKey, parts: repo.ContentPart[]) {
  const deps = c.var;
  const db = deps.db.kysely;
  const done = await db.transaction().execute(async (trx) => {
    if (!(await repo.completeContent(trx, deps.user.id, id, key))) return false;
    await queueBlobDeletions(
      trx,
      parts.map((p) => p.key),
      deps.now().toISOString(),
    );
    return true;
  });
  if (done) {
    await purgeBlobs(
      deps,
      parts.map((p) => p.key),
    ); // the sweep retries any that fail
    return;
  }
  // Revoked, swept or completed by another request meanwhile: these bytes are nobody's.
  await deps.files.blobs.delete(key);
  throw await refusal(c, id);
}

/** One part of the content (`Content-Range`), in order; the last one joins them all. */
async function uploadPart(c: Context<AppEnv>, row: ShareRow, header: string): Promise<void> {
  const size = repo.sizeOf(row);
  const range = shareContentRangeSchema.safeParse(header);
  if (!range.success) throw new HttpError(400, 'bad_request', shareMessages.badRange);
  const { start, end, total } = range.data;
  if (total !== size) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(size));
  const length = end - start + 1;
  if (length > SHARE_PART_MAX_BYTES) {
    throw new HttpError(413, 'payload_too_large', shareMessages.partTooLarge(SHARE_PART_MAX_BYTES));
  }
  const parts = repo.partsOf(row);
  const next = parts.reduce((n, p) => n + p.size, 0);
  if (start !== next) throw conflict(shareMessages.partOutOfOrder(next));
  const body = bodyOfLength(c, length, size);
  const key = await store(c, row.id, length, exactly(body, length));
  const all = [...parts, { key, size: length }];
  const added = await repo.addContentPart(
    c.var.db.kysely,
    c.var.user.id,
    row.id,
    row.content_parts,
    all,
  );
  if (!added) {
    await c.var.files.blobs.delete(key);
    throw await refusal(c, row.id);
  }
  if (end + 1 < total) return;
  const whole = await store(c, row.id, size, joined(c.var.files.blobs, all));
  await complete(c, row.id, whole, all);
}

export async function uploadShareContent(c: Context<AppEnv>, id: string): Promise<void> {
  const deps = c.var;
  const row = await repo.findOwnShare(deps.db.kysely, deps.user.id, id);
  if (!row) throw shareNotFound();
  if (row.kind !== 'file') throw conflict(shareMessages.contentNotFile);
  if (row.data_deleted_at !== null) throw conflict(shareMessages.dataDeleted);
  if (row.content_complete === 1) throw conflict(shareMessages.contentComplete);
  const range = c.req.header('content-range');
  if (range !== undefined) return uploadPart(c, row, range);
  if (row.content_parts !== null) throw await refusal(c, id);
  const size = repo.sizeOf(row);
  const key = await store(c, id, size, exactly(bodyOfLength(c, size, size), size));
  await complete(c, id, key, []);
}
