// GET/PATCH/DELETE /api/me: the signed-in user's profile (docs/product.md §3), the name change and the
// account deletion. Deletion confirms with the password (or, for a Google-only account, a session
// started in the last 10 minutes), runs the registered cleanup hooks ([Note: user deletion hooks]
// in user-deletion.ts) and lets Better Auth remove the user, its sessions and its accounts.
import { Hono } from 'hono';
import { APIError } from 'better-auth';
import {
  deleteMeRequestSchema,
  messages,
  planIdSchema,
  updateMeRequestSchema,
  type MeResponse,
} from '@sealvault/protocol';
import { getCookie } from 'hono/cookie';
import { attemptKeys, spendAttempt } from '../auth/attempts.ts';
import { requireUser } from '../auth/auth.middleware.ts';
import { clientAddress } from '../auth/client-ip.ts';
import { knownDeviceCookieName, knownDeviceOf } from '../auth/known-device.ts';
import { isTicket } from '../auth/opaque.store.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { findProfile } from './profiles.repository.ts';
import type { Db } from '../db/database.ts';

/** How recent a session must be to delete a Google-only account without a password. */
const FRESH_SESSION_MS = 10 * 60 * 1000;

async function loadMe(db: Db, userId: string): Promise<MeResponse> {
  const profile = await findProfile(db.kysely, userId);
  if (!profile) throw new HttpError(401, 'unauthorized', messages.auth.notAuthenticated);
  const plan = await db.kysely
    .selectFrom('subscription_plans')
    .select(['id', 'name'])
    .where('id', '=', profile.current_plan_id)
    .executeTakeFirst();
  const planId = planIdSchema.parse(profile.current_plan_id);
  return {
    ...profile,
    role: profile.role === 'admin' ? 'admin' : 'user',
    current_plan_id: planId,
    plan: { id: planId, name: plan?.name ?? planId },
  };
}

export function profilesRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', requireUser())
    .get('/', async (c) => c.json(await loadMe(c.var.db, c.var.user.id)))
    .patch('/', async (c) => {
      const { full_name } = await jsonBody(c, updateMeRequestSchema);
      // Through Better Auth, so its user.name and our profile (synced by its update hook) agree.
      await c.var.auth.api.updateUser({ body: { name: full_name }, headers: c.req.raw.headers });
      return c.json(await loadMe(c.var.db, c.var.user.id));
    })
    .delete('/', async (c) => {
      const { password } = await jsonBody(c, deleteMeRequestSchema);
      const { auth, db, user } = c.var;
      const credential = await db.kysely
        .selectFrom('account')
        .select('id')
        .where('userId', '=', user.id)
        .where('providerId', '=', 'credential')
        .executeTakeFirst();
      if (credential && !password)
        throw new HttpError(400, 'bad_request', messages.auth.passwordRequired);
      if (credential && isTicket(password)) {
        // An OPAQUE ticket: its attempt was spent at its login's start ([Note: OPAQUE passwords]
        // in auth/opaque.password.ts); Better Auth spends the ticket below.
      } else if (credential) {
        // The password is checked below: it spends from the sign-in budget ([Note: password
        // attempt budget] in auth/attempts.ts) before it is hashed; on a known device, from the
        // device's ([Note: known devices] in auth/known-device.ts).
        const secure = c.var.config.publicUrl.startsWith('https:');
        const device = knownDeviceOf(
          getCookie(c, knownDeviceCookieName(secure)),
          (await auth.$context).secret,
          user.id,
          c.var.now().getTime(),
        );
        const keys = attemptKeys({ email: user.email, ip: clientAddress(c), device });
        const spent = await spendAttempt(
          db,
          keys,
          c.var.config.auth.rateLimit,
          c.var.now().getTime(),
        );
        if (!spent.allowed) {
          c.header('X-Retry-After', String(spent.retryAfter));
          throw new HttpError(429, 'rate_limited', messages.auth.tooManyRequests);
        }
      } else {
        const session = await auth.api.getSession({ headers: c.req.raw.headers });
        const started = session ? new Date(session.session.createdAt).getTime() : 0;
        if (c.var.now().getTime() - started > FRESH_SESSION_MS)
          throw new HttpError(403, 'forbidden', messages.auth.signInAgain);
      }
      try {
        const result = await auth.api.deleteUser({
          body: credential ? { password } : {},
          headers: c.req.raw.headers,
          returnHeaders: true,
        });
        for (const cookie of result.headers.getSetCookie())
          c.header('set-cookie', cookie, { append: true });
      } catch (err) {
        if (err instanceof APIError && err.body?.code === 'INVALID_PASSWORD')
          throw new HttpError(400, 'bad_request', messages.auth.invalidPassword);
        throw err;
      }
      c.var.logger.info({ userId: user.id }, 'account deleted');
      return c.json({ deleted: true as const });
    });
}
