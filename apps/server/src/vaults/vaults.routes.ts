// /api/vaults: the signed-in user's vaults. Every route is behind requireUser and scoped to the
// owner; another user's vault answers 404 (not 403), so ids cannot be probed.
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  createVaultRequestSchema,
  putManifestRequestSchema,
  replaceVaultKeyRequestSchema,
  rotateVaultRequestSchema,
  updateVaultRequestSchema,
  vaultIdSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { errorBody, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import * as service from './vaults.service.ts';
import * as manifests from './manifest.service.ts';
import { rotateVault } from './rotation.service.ts';
import { messages } from '@sealvault/protocol';

function vaultId(raw: string): string {
  const parsed = vaultIdSchema.safeParse(raw);
  if (!parsed.success) throw notFound(messages.vaults.notFound);
  return parsed.data;
}

/** Answers a lost compare-and-swap with 409 and the stored manifest (manifestConflictSchema). */
async function conflictWithCurrent(c: Context<AppEnv>, run: () => Promise<object>) {
  try {
    return c.json(await run());
  } catch (err) {
    if (err instanceof manifests.ManifestConflict) {
      return c.json({ ...errorBody('conflict', err.message), current: err.current }, 409);
    }
    throw err;
  }
}

export function vaultsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  app.get('/', async (c) => c.json({ vaults: await service.listVaults(c.var, c.var.user.id) }));

  app.post('/', async (c) => {
    const input = await jsonBody(c, createVaultRequestSchema);
    return c.json({ vault: await service.createVault(c.var, c.var.user.id, input) }, 201);
  });

  app.get('/:id', async (c) =>
    c.json({ vault: await service.getVault(c.var, c.var.user.id, vaultId(c.req.param('id'))) }),
  );

  app.patch('/:id', async (c) => {
    const id = vaultId(c.req.param('id'));
    const input = await jsonBody(c, updateVaultRequestSchema);
    return c.json({ vault: await service.updateVault(c.var, c.var.user.id, id, input) });
  });

  // The vault manifest (ADR 0007). The server is not told when a vault is unlocked.
  app.get('/:id/manifest', async (c) => {
    const id = vaultId(c.req.param('id'));
    return c.json({ manifest: await manifests.getManifest(c.var, c.var.user.id, id) });
  });

  app.put('/:id/manifest', async (c) => {
    const id = vaultId(c.req.param('id'));
    const input = await jsonBody(c, putManifestRequestSchema);
    return conflictWithCurrent(c, async () => ({
      manifest: await manifests.putManifest(c.var, c.var.user.id, id, input),
    }));
  });

  app.post('/:id/rotate', async (c) => {
    const id = vaultId(c.req.param('id'));
    const input = await jsonBody(c, rotateVaultRequestSchema);
    return conflictWithCurrent(c, () => rotateVault(c.var, c.var.user.id, id, input));
  });

  app.put('/:id/key', async (c) => {
    const id = vaultId(c.req.param('id'));
    const input = await jsonBody(c, replaceVaultKeyRequestSchema);
    return c.json({ vault: await service.replaceKey(c.var, c.var.user.id, id, input) });
  });

  app.delete('/:id', async (c) => {
    await service.deleteVault(c.var, c.var.user.id, vaultId(c.req.param('id')));
    return c.body(null, 204);
  });

  return app;
}
