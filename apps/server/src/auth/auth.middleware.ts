// requireUser(): the gate of every signed-in API route. It reads the Better Auth session from the
// request's cookies, then checks in one indexed query that the session is still in the database
// and reads the account (e-mail, name) and the profile (role: the single source of truth,
// docs/product.md §6), and puts them on c.var.user; without a live session it answers 401 'User
// not authenticated'.
//
// [Note: session cookie cache] Better Auth keeps a signed copy of the session and user in a
// second cookie (session.cookieCache in auth.ts, 60 s), so getSession() answers from the cookie
// without its own database lookups: those and its adapter were the largest part of an API
// request's CPU (issue 31). A cached copy alone would outlive a sign-out elsewhere, a revoked
// session, a disabled or deleted account for up to those 60 s; so this gate takes from it only
// which session the cookie names (the signed token's, checked against it by Better Auth) and asks
// the database, in one query by primary keys, whether that session row still exists, with the
// account's e-mail and name and the profile. Every way of ending a session deletes its row
// (sign-out, "sign out other devices", a password change with revocation, an admin's disable or
// revoke, account deletion), on whichever instance, so it ends access to /api/* at once
// everywhere (docs/adr/0006-several-instances.md), and nothing read from the copy can be stale.
// Better Auth's own routes never see the copy (auth.routes.ts): they read the database as before.
import type { Context, MiddlewareHandler } from 'hono';
import { adminMessages, messages } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';
import { ensureProfile } from '../profiles/profiles.repository.ts';
import { initialPlanOf } from '../plans/plans.config.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
}

/** The session's row (if it is still there), its account and its profile, in one query. */
function liveSession(c: Context<AppEnv>, sessionId: string) {
  return c.var.db.kysely
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .leftJoin('profiles', 'profiles.id', 'session.userId')
    .select([
      'user.id as userId',
      'user.email',
      'user.name',
      'profiles.role',
      'profiles.disabled_at',
    ])
    .where('session.id', '=', sessionId)
    .executeTakeFirst();
}

export function requireUser(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { headers, response: session } = await c.var.auth.api.getSession({
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    // A refreshed cache or session cookie goes back to the browser as from get-session itself.
    const setCookies = headers.getSetCookie();
    const refuse = (message: string) => {
      for (const v of setCookies) c.header('set-cookie', v, { append: true });
      return c.json(errorBody('unauthorized', message), 401);
    };
    if (!session) return refuse(messages.auth.notAuthenticated);
    let row = await liveSession(c, session.session.id);
    // [Note: session cookie cache]: a session ended elsewhere is refused at once.
    if (!row || row.userId !== session.user.id) return refuse(messages.auth.notAuthenticated);
    if (row.role === null) {
      const user = { id: row.userId, email: row.email, name: row.name };
      await ensureProfile(c.var.db.kysely, user, c.var.now(), initialPlanOf(c.var.config.plans));
      row = (await liveSession(c, session.session.id)) ?? row;
    }
    // [Note: disabled accounts] in admin/users.service.ts: its sessions were deleted when it was
    // disabled; one that is left (made in that instant) is refused all the same.
    if (row.disabled_at) return refuse(adminMessages.accountDisabled);
    c.set('user', {
      id: row.userId,
      email: row.email,
      name: row.name,
      role: row.role === 'admin' ? 'admin' : 'user',
    });
    c.set('sessionId', session.session.id);
    await next();
    if (setCookies.length) appendCookies(c, setCookies);
  };
}

/** Adds Set-Cookie lines to the answer; a Response with immutable headers is copied first. */
function appendCookies(c: Context<AppEnv>, setCookies: string[]): void {
  try {
    for (const v of setCookies) c.res.headers.append('set-cookie', v);
  } catch {
    const res = new Response(c.res.body, c.res);
    for (const v of setCookies) res.headers.append('set-cookie', v);
    c.res = res;
  }
}
