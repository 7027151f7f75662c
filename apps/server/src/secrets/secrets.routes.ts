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

export function secretsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  app.get('/', async (c) => {
    const { vaultId } = ids(c.req.param('vaultId') ?? '');
    const body = await service.listSecretsJson(c.var, c.var.user.id, vaultId);
    return c.body(body, 200, { 'Content-Type': 'application/json' });
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
