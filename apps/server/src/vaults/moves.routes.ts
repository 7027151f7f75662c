// /api/vaults/:vaultId/move: a vault's move to another storage provider (issue 27; [Note: vault
// moves] in moves.service.ts). GET the recorded move; PUT starts or continues one; POST /items
// records verified copies; POST /switch switches the vault in one transaction; DELETE cancels.
// Every route needs a session and reaches only the user's own vaults (another user's, or a
// malformed id, is 404). A file moving to this server is recorded by its tus upload in move mode
// (files/uploads.move.ts), never through these routes.
import { Hono, type Context } from 'hono';
import {
  addMoveItemsRequestSchema,
  messages,
  startMoveRequestSchema,
  switchMoveRequestSchema,
  vaultIdSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { errorBody, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { ManifestConflict } from './manifest.service.ts';
import * as moves from './moves.service.ts';
import { switchMove } from './moves.switch.ts';

function vaultId(c: Context<AppEnv>): string {
  const parsed = vaultIdSchema.safeParse(c.req.param('vaultId'));
  if (!parsed.success) throw notFound(messages.vaults.notFound);
  return parsed.data;
}

export function movesRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  app.get('/', async (c) =>
    c.json({ move: await moves.getMove(c.var, c.var.user.id, vaultId(c)) }),
  );

  app.put('/', async (c) => {
    const id = vaultId(c);
    const input = await jsonBody(c, startMoveRequestSchema);
    return c.json(await moves.startMove(c.var, c.var.user.id, id, input));
  });

  app.post('/items', async (c) => {
    const id = vaultId(c);
    const { items } = await jsonBody(c, addMoveItemsRequestSchema);
    return c.json({ move: await moves.addItems(c.var, c.var.user.id, id, items) });
  });

  // A lost manifest race answers 409 with the stored manifest, as PUT /manifest does.
  app.post('/switch', async (c) => {
    const id = vaultId(c);
    const input = await jsonBody(c, switchMoveRequestSchema);
    try {
      return c.json(await switchMove(c.var, c.var.user.id, id, input));
    } catch (err) {
      if (err instanceof ManifestConflict)
        return c.json({ ...errorBody('conflict', err.message), current: err.current }, 409);
      throw err;
    }
  });

  app.delete('/', async (c) =>
    c.json({ items: await moves.cancelMove(c.var, c.var.user.id, vaultId(c)) }),
  );

  return app;
}
