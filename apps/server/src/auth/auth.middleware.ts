// requireUser(): the gate of every signed-in API route. It finds the request's session, checks
// that its row is still in the database, reads the account (e-mail, name) and the profile (role:
// the single source of truth, docs/product.md §6) in the same query, and puts them on c.var.user;
// without a live session it answers 401 'User not authenticated'. How the session is read, and
// why no copy of it is trusted: [Note: session check] in session-check.ts.
import type { Context, MiddlewareHandler } from 'hono';
import { adminMessages, messages } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { errorBody } from '../http/errors.ts';
import { ensureProfile } from '../profiles/profiles.repository.ts';
import { initialPlanOf } from '../plans/plans.config.ts';
import { trialLapsed } from '../plans/read-only.ts';
import {
  cookieSettings,
  findLiveSession,
  freshEnough,
  signedSessionToken,
  type LiveSession,
} from './session-check.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
  /**
   * On Free after a lapsed trial, when the session was read: the one state with read-only vaults
   * (plans/read-only.ts), read by the session's query so that a request's writes and the vault
   * list need no query of their own for it.
   */
  trialLapsed: boolean;
}

/**
 * The live session of the request, and the Set-Cookie lines Better Auth answered with when it
 * was asked (a refreshed session cookie, or the cleared one of an expired session).
 */
async function sessionOf(c: Context<AppEnv>): Promise<{ row?: LiveSession; setCookies: string[] }> {
  const db = c.var.db.kysely;
  const s = await cookieSettings(c.var.auth);
  const token = signedSessionToken(c.req.header('cookie'), s);
  const row = token ? await findLiveSession(db, 'token', token) : undefined;
  if (row && freshEnough(row, s)) return { row, setCookies: [] };
  // [Note: session check]: anything else is Better Auth's to decide, as before.
  const { headers, response } = await c.var.auth.api.getSession({
    headers: c.req.raw.headers,
    returnHeaders: true,
  });
  const setCookies = headers.getSetCookie();
  if (!response) return { setCookies };
  const live = await findLiveSession(db, 'id', response.session.id);
  return { row: live?.userId === response.user.id ? live : undefined, setCookies };
}

export function requireUser(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const found = await sessionOf(c);
    const { setCookies } = found;
    let { row } = found;
    const refuse = (message: string) => {
      for (const v of setCookies) c.header('set-cookie', v, { append: true });
      return c.json(errorBody('unauthorized', message), 401);
    };
    if (!row) return refuse(messages.auth.notAuthenticated);
    if (row.role === null) {
      const user = { id: row.userId, email: row.email, name: row.name };
      await ensureProfile(c.var.db.kysely, user, c.var.now(), initialPlanOf(c.var.config.plans));
      row = (await findLiveSession(c.var.db.kysely, 'id', row.sessionId)) ?? row;
    }
    // [Note: disabled accounts] in admin/users.service.ts: its sessions were deleted when it was
    // disabled; one that is left (made in that instant) is refused all the same.
    if (row.disabled_at) return refuse(adminMessages.accountDisabled);
    c.set('user', {
      id: row.userId,
      email: row.email,
      name: row.name,
      role: row.role === 'admin' ? 'admin' : 'user',
      trialLapsed: trialLapsed(row),
    });
    c.set('sessionId', row.sessionId);
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
