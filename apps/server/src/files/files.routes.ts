// /api/vaults/:vaultId/files: list, download (HTTP Range), rename and delete a vault's files, move
// them into and out of the trash, and record a file that a vault's storage provider holds
// (files.records.ts). Every route needs a session and reaches only the user's own vaults; a
// malformed id, another user's vault or file, or a missing one all answer 404. Uploads to this
// server are tus: uploads.routes.ts.
import { Hono, type Context } from 'hono';
import {
  createFileRecordRequestSchema,
  fileIdSchema,
  messages,
  purgedFileMessage,
  renameFileRequestSchema,
  trashFilesRequestSchema,
} from '@sealvault/protocol';
import { vaultIdSchema } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { createFileRecord, recordTexts } from './files.records.ts';
import * as repo from './files.repository.ts';
import { blobKeyOf } from './files.repository.ts';
import * as files from './files.service.ts';
import { serveBlob } from './range.ts';

function ids(c: Context<AppEnv>): { vaultId: string; fileId: string } {
  const vaultId = c.req.param('vaultId') ?? '';
  if (!vaultIdSchema.safeParse(vaultId).success) throw notFound(messages.vaults.notFound);
  const fileId = c.req.param('fileId');
  if (fileId !== undefined && !fileIdSchema.safeParse(fileId).success) throw files.fileNotFound();
  return { vaultId, fileId: fileId ?? '' };
}

export function filesRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  app.get('/', async (c) => {
    const { vaultId } = ids(c);
    return c.json({ files: await files.listFiles(c.var, c.var.user.id, vaultId) });
  });

  app.post('/', async (c) => {
    const { vaultId } = ids(c);
    const input = await jsonBody(c, createFileRecordRequestSchema);
    return c.json({ file: await createFileRecord(c.var, c.var.user.id, vaultId, input) }, 201);
  });

  // Into or out of the trash, all or none ([Note: trash] in the protocol's files.ts).
  app.post('/trash', async (c) => {
    const { vaultId } = ids(c);
    const input = await jsonBody(c, trashFilesRequestSchema);
    return c.json({ files: await files.trashFiles(c.var, c.var.user.id, vaultId, input) });
  });

  // One file's record (issue 26): an upload or a stat reads it without listing the whole vault.
  app.get('/:fileId', async (c) => {
    const { vaultId, fileId } = ids(c);
    return c.json({
      file: repo.toFile(await files.getFile(c.var, c.var.user.id, vaultId, fileId)),
    });
  });

  // Also answers HEAD (Hono routes HEAD to GET): the headers, without opening the blob.
  app.get('/:fileId/content', async (c) => {
    const { vaultId, fileId } = ids(c);
    const row = await files.getFile(c.var, c.var.user.id, vaultId, fileId);
    // The trash purge deleted its data for good (or the browser is about to, elsewhere).
    if (row.purged_at !== null) throw new HttpError(410, 'not_found', purgedFileMessage);
    const key = blobKeyOf(row);
    if (!key) throw new HttpError(409, 'conflict', recordTexts.providerHeld);
    const { blobs } = c.var.files;
    const stat = await blobs.stat(key);
    if (!stat) throw notFound(messages.files.dataNotFound);
    return serveBlob(c, blobs, key, stat.size, { 'Cache-Control': 'no-store' });
  });

  app.patch('/:fileId', async (c) => {
    const { vaultId, fileId } = ids(c);
    const input = await jsonBody(c, renameFileRequestSchema);
    return c.json({ file: await files.renameFile(c.var, c.var.user.id, vaultId, fileId, input) });
  });

  app.delete('/:fileId', async (c) => {
    const { vaultId, fileId } = ids(c);
    await files.deleteFile(c.var, c.var.user.id, vaultId, fileId);
    return c.body(null, 204);
  });

  return app;
}
