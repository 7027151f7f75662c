// /api/vaults/:vaultId/secrets: the secrets of one of the signed-in user's secrets vaults.
import { Hono } from 'hono';
import {
  createSecretRequestSchema,
  importSecretsRequestSchema,
  messages,
  secretIdSchema,
  updateSecretRequestSchema,
  vaultIdSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { errorBody, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { ManifestConflict } from '../vaults/manifest.service.ts';
import * as service from './secrets.service.ts';

const ids = (vaultId: string, secretId?: string) => {
  if (!vaultIdSchema.safeParse(vaultId).success) throw notFound(messages.vaults.notFound);
  if (secretId !== undefined && !secretIdSchema.safeParse(secretId).success)
    throw notFound(service.SECRET_NOT_FOUND);
  return { vaultId, secretId: secretId ?? '' };
};

/** The list's ETag: the format of the answer ("s1") and the vault's items tag. */
const etagOf = (tag: string) => `"s1-${tag}"`;

/** If-None-Match lists `etag`, weak or strong (a gzipped answer's tag was sent weak). */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((t) => {
    const one = t.trim();
    return one === '*' || one.replace(/^W\//, '') === etag;
  });

export function secretsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  // [Note: conditional secrets list] (issue 31) A vault's list is answered with an ETag made of
  // its items tag, which triggers replace on every write of its items (items-tag.migration.ts),
  // and `Cache-Control: private, no-cache`: the browser keeps the list and asks again with
  // If-None-Match, and an unchanged list is answered 304 with no body and without reading the
  // items. The ownership check runs first, as for any request: a tag alone opens nothing. The
  // browser's HTTP cache then holds the list's ciphertext, as the device cache does the files'.
  app.get('/', async (c) => {
    const { vaultId } = ids(c.req.param('vaultId') ?? '');
    const asked = c.req.header('If-None-Match');
    const { tag, body } = await service.listSecretsJson(
      c.var,
      c.var.user.id,
      vaultId,
      (current) => current !== null && matches(asked, etagOf(current)),
    );
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (tag !== null) {
      headers.ETag = etagOf(tag);
      headers['Cache-Control'] = 'private, no-cache';
    }
    if (body === null) return c.body(null, 304, headers);
    return c.body(body, 200, headers);
  });

  app.post('/', async (c) => {
    const { vaultId } = ids(c.req.param('vaultId') ?? '');
    const input = await jsonBody(c, createSecretRequestSchema);
    return c.json(
      { secret: await service.createSecret(c.var, c.var.user.id, vaultId, input) },
      201,
    );
  });

  // Many new secrets and the next manifest, all or nothing (issue 20; body limit in body-limit.ts).
  app.post('/import', async (c) => {
    const { vaultId } = ids(c.req.param('vaultId') ?? '');
    const input = await jsonBody(c, importSecretsRequestSchema);
    try {
      return c.json(await service.importSecrets(c.var, c.var.user.id, vaultId, input), 201);
    } catch (err) {
      if (err instanceof ManifestConflict) {
        return c.json({ ...errorBody('conflict', err.message), current: err.current }, 409);
      }
      throw err;
    }
  });

  // ADR 0008: the server's copies of a vault's items, once they moved to its provider.
  app.delete('/', async (c) => {
    const { vaultId } = ids(c.req.param('vaultId') ?? '');
    return c.json({ deleted: await service.removeMovedSecrets(c.var, c.var.user.id, vaultId) });
  });

  app.put('/:secretId', async (c) => {
    const { vaultId, secretId } = ids(c.req.param('vaultId') ?? '', c.req.param('secretId'));
    const input = await jsonBody(c, updateSecretRequestSchema);
    try {
      return c.json({
        secret: await service.updateSecret(c.var, c.var.user.id, vaultId, secretId, input),
      });
    } catch (err) {
      if (err instanceof service.SecretConflict) {
        return c.json({ ...errorBody('conflict', err.message), current: err.current }, 409);
      }
      throw err;
    }
  });

  app.delete('/:secretId', async (c) => {
    const { vaultId, secretId } = ids(c.req.param('vaultId') ?? '', c.req.param('secretId'));
    await service.deleteSecret(c.var, c.var.user.id, vaultId, secretId);
    return c.body(null, 204);
  });

  return app;
}
