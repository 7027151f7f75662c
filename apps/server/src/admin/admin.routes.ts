// /api/admin: the admin API (issue 33), admin role only. Every route is behind requireUser() and
// requireAdmin(): no session is 401, any other role 403 with nothing read or changed. Each action
// is written to the audit log (audit.repository.ts) with its change.
//   POST   /invitations      make a single-use sign-up link (optional e-mail and expiry)
//   GET    /invitations      list them, newest first (never a token: only hashes are kept)
//   DELETE /invitations/:id  revoke one not yet used
import { Hono } from 'hono';
import { z } from 'zod';
import { createInvitationRequestSchema } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { requireAdmin } from './require-admin.ts';
import * as invitations from './invitations.service.ts';

const idSchema = z.uuid();

export function adminRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser(), requireAdmin());

  app.post('/invitations', async (c) => {
    const input = await jsonBody(c, createInvitationRequestSchema);
    return c.json(await invitations.createInvitation(c.var, c.var.user, input), 201);
  });

  app.get('/invitations', async (c) =>
    c.json({ invitations: await invitations.listInvitations(c.var) }),
  );

  app.delete('/invitations/:id', async (c) => {
    const id = idSchema.safeParse(c.req.param('id'));
    if (!id.success) throw notFound(invitations.invitationMessages.notFound);
    return c.json({ invitation: await invitations.revokeInvitation(c.var, c.var.user, id.data) });
  });

  return app;
}
