// /api/shares: the signed-in user's share links (issue 29). Every route needs a session and
// reaches only the user's own links; a malformed id, another user's link and an unknown one all
// answer the same 404. The public routes a recipient uses are public.routes.ts.
import { Hono, type Context } from 'hono';
import {
  createShareRequestSchema,
  shareIdSchema,
  updateShareRequestSchema,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { jsonBody } from '../http/validate.ts';
import { drainBodyOnError } from '../files/nodeBody.ts';
import { uploadShareContent } from './shares.content.ts';
import * as shares from './shares.service.ts';

function shareId(c: Context<AppEnv>): string {
  const id = c.req.param('id') ?? '';
  if (!shareIdSchema.safeParse(id).success) throw shares.shareNotFound();
  return id;
}

export function sharesRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());

  app.post('/', async (c) => {
    const input = await jsonBody(c, createShareRequestSchema);
    return c.json({ share: await shares.createShare(c.var, c.var.user.id, input) }, 201);
  });

  app.get('/', async (c) => c.json({ shares: await shares.listShares(c.var, c.var.user.id) }));

  app.put('/:id/content', drainBodyOnError, async (c) => {
    await uploadShareContent(c, shareId(c));
    return c.body(null, 204);
  });

  app.patch('/:id', async (c) => {
    const id = shareId(c);
    const { expires_in } = await jsonBody(c, updateShareRequestSchema);
    return c.json({
      share: await shares.updateShareExpiry(c.var, c.var.user.id, id, expires_in),
    });
  });

  app.delete('/:id', async (c) => {
    await shares.revokeShare(c.var, c.var.user.id, shareId(c));
    return c.body(null, 204);
  });

  return app;
}
