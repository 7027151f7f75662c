// /api/admin: the admin API (issue 33), admin role only. Every route is behind requireUser() and
// requireAdmin(): no session is 401, any other role 403 with nothing read or changed. Each action
// is written to the audit log (audit.repository.ts) with its change.
//   POST   /invitations      make a single-use sign-up link (optional e-mail and expiry)
//   GET    /invitations      list them, newest first (never a token: only hashes are kept)
//   DELETE /invitations/:id  revoke one not yet used
//   GET    /users                        search (e-mail or name) and page through the accounts
//   GET    /users/:id                    one account
//   PATCH  /users/:id                    plan, role, disabled (never one's own role or flag)
//   DELETE /users/:id                    delete the account with its data (never one's own)
//   DELETE /users/:id/two-factor         remove its second factor
//   GET    /users/:id/sessions           its sessions (never a token)
//   DELETE /users/:id/sessions[/:sid]    end them all, or one
//   GET    /storage                      storage used, in total and per account
//   GET    /instance                     sign-up policy, plans mode, version, health (read-only)
//   GET    /audit                        the audit log, newest first, paged
// There is no route to any vault's content: an admin manages accounts, not what is in them.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  adminAuditQuerySchema,
  adminMessages,
  adminUsersQuerySchema,
  createInvitationRequestSchema,
  updateAdminUserRequestSchema,
  type AdminAuditEntry,
  type AdminAuditResponse,
} from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { pageAdminActions } from './audit.repository.ts';
import { requireAdmin } from './require-admin.ts';
import * as invitations from './invitations.service.ts';
import * as users from './users.service.ts';

const idSchema = z.uuid();
// Better Auth's user and session ids: its own random strings (32 letters and digits).
const authIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** The query string parsed by `schema`; anything it refuses (an unknown key too) is a 400. */
function queryOf<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw badRequest(`${where}${issue?.message ?? 'invalid query'}`);
  }
  return parsed.data;
}

/** A user id from the path; a malformed one reads as an unknown user (404). */
function userIdOf(c: Context<AppEnv>): string {
  const id = authIdSchema.safeParse(c.req.param('id'));
  if (!id.success) throw notFound(adminMessages.userNotFound);
  return id.data;
}

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

  app.get('/users', async (c) =>
    c.json(await users.listUsers(c.var, queryOf(c, adminUsersQuerySchema))),
  );

  app.get('/users/:id', async (c) => c.json({ user: await users.getUser(c.var, userIdOf(c)) }));

  app.patch('/users/:id', async (c) => {
    const input = await jsonBody(c, updateAdminUserRequestSchema);
    return c.json({ user: await users.updateUser(c.var, c.var.user, userIdOf(c), input) });
  });

  app.delete('/users/:id', async (c) => {
    await users.deleteUser(c.var, c.var.user, userIdOf(c));
    return c.json({ deleted: true as const });
  });

  app.delete('/users/:id/two-factor', async (c) =>
    c.json({ user: await users.resetTwoFactor(c.var, c.var.user, userIdOf(c)) }),
  );

  app.get('/users/:id/sessions', async (c) =>
    c.json({ sessions: await users.listSessions(c.var, userIdOf(c), c.var.sessionId) }),
  );

  app.delete('/users/:id/sessions', async (c) =>
    c.json({ revoked: await users.revokeSessions(c.var, c.var.user, userIdOf(c)) }),
  );

  app.delete('/users/:id/sessions/:sessionId', async (c) => {
    const id = userIdOf(c);
    const sessionId = authIdSchema.safeParse(c.req.param('sessionId'));
    if (!sessionId.success) throw notFound(adminMessages.sessionNotFound);
    return c.json({ revoked: await users.revokeSessions(c.var, c.var.user, id, sessionId.data) });
  });

  app.get('/storage', async (c) => c.json(await users.storage(c.var)));

  app.get('/instance', async (c) => c.json(await users.instance(c.var)));

  app.get('/audit', async (c) => {
    const query = queryOf(c, adminAuditQuerySchema);
    const { rows, total } = await pageAdminActions(c.var.db.kysely, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
    const entries = rows.map((r): AdminAuditEntry => ({
      id: r.id,
      actor_id: r.actor_id,
      actor_email: r.actor_email,
      action: r.action,
      target: r.target,
      details: parseDetails(r.details),
      created_at: r.created_at,
    }));
    return c.json({
      entries,
      total,
      page: query.page,
      per_page: query.per_page,
    } satisfies AdminAuditResponse);
  });

  return app;
}

function parseDetails(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
