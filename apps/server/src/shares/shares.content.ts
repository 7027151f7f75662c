// PUT /api/shares/:id/content: a file link's ciphertext, exactly the length declared at its
// creation, streamed from the request to the blob store and never held whole (the body is read
// from Node's stream as tus PATCHes are, files/nodeBody.ts; the body limit does not apply,
// http/body-limit.ts). The server's free-space watermark applies as for uploads (507 below it,
// with the bytes reserved while they arrive, [Note: space reservations] in files/reservations.ts),
// and so does a full disk mid-body (507). Once complete, the link refuses another body (409).
import type { Context } from 'hono';
import { shareMessages } from '@sealvault/protocol';
import type { BlobKey } from '../blobs/blob-store.ts';
import type { AppEnv } from '../http/context.ts';
import { isDiskFull } from '../http/disk-full.ts';
import { HttpError } from '../http/errors.ts';
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

export async function uploadShareContent(c: Context<AppEnv>, id: string): Promise<void> {
  const deps = c.var;
  const userId = deps.user.id;
  const row = await repo.findOwnShare(deps.db.kysely, userId, id);
  if (!row) throw shareNotFound();
  if (row.kind !== 'file') throw conflict(shareMessages.contentNotFile);
  if (row.data_deleted_at !== null) throw conflict(shareMessages.dataDeleted);
  if (row.content_complete === 1) throw conflict(shareMessages.contentComplete);
  const size = repo.sizeOf(row);
  const declared = c.req.header('content-length');
  if (declared === undefined) throw new HttpError(411, 'bad_request', shareMessages.lengthRequired);
  const length = Number(declared);
  if (length > size) throw new HttpError(413, 'payload_too_large', shareMessages.wrongLength(size));
  if (length !== size) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(size));
  const body = requestWithNodeBody(c).body;
  if (!body) throw new HttpError(400, 'bad_request', shareMessages.wrongLength(size));

  const storage = deps.files;
  const reservation = `share.${id}`;
  await reserveSpace(deps, storage, reservation, size);
  let key: BlobKey;
  try {
    ({ key } = await storage.blobs.put(exactly(body, size)));
  } catch (err) {
    if (err instanceof Error && isDiskFull(err)) throw storageFull();
    throw err;
  } finally {
    storage.reservations.release(reservation);
  }
  if (await repo.completeContent(deps.db.kysely, userId, id, key)) return;
  // Revoked, swept or completed by another request meanwhile: these bytes are nobody's.
  await storage.blobs.delete(key);
  const now = await repo.findOwnShare(deps.db.kysely, userId, id);
  if (!now) throw shareNotFound();
  throw conflict(
    now.content_complete === 1 ? shareMessages.contentComplete : shareMessages.dataDeleted,
  );
}
