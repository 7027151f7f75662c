// [Note: session check] requireUser() (auth.middleware.ts) reads the session of every API request
// without Better Auth's getSession() when it can (issue 31). getSession() cost most of an API
// request's CPU: its endpoint machinery (better-call's context, hooks), the signed cookie checked
// through WebCrypto's async HMAC, and two lookups through its adapter. Here the session cookie's
// signature is checked with node:crypto's HMAC (the same HMAC-SHA256 over the same value, as
// better-call signs it: "<token>.<base64 signature>", URL-encoded), and one indexed query by the
// token reads the session row, the account, the profile and the plan's state together ([Note: no
// joins in the session query]). Nothing is cached: a session ended anywhere (sign-out, "sign out
// other devices", a password change, an admin's disable or revoke, account deletion: each deletes
// its row) is refused at its next request, on every instance (docs/adr/0006-several-instances.md).
// Whenever the fast path has no clear answer (no valid signature, no row, a session expired or due
// for Better Auth's daily refresh), the middleware asks getSession() as before, so expiry, refresh
// and cookie clean-up stay Better Auth's.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { prepared } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import type { Auth } from './auth.ts';

/** What the fast path needs from Better Auth's configuration, read once per auth instance. */
export interface CookieSettings {
  name: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}
const settings = new WeakMap<Auth, Promise<CookieSettings>>();

export function cookieSettings(auth: Auth): Promise<CookieSettings> {
  let s = settings.get(auth);
  if (!s) {
    s = auth.$context.then((ctx) => ({
      name: ctx.authCookies.sessionToken.name,
      secret: ctx.secret,
      expiresInMs: ctx.sessionConfig.expiresIn * 1000,
      updateAgeMs: ctx.sessionConfig.updateAge * 1000,
    }));
    settings.set(auth, s);
  }
  return s;
}

/** The value of cookie `name` in a Cookie header (URL-decoded as better-call does), or null. */
function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let raw = pair.slice(eq + 1).trim();
    if (raw.startsWith('"')) raw = raw.slice(1, -1);
    try {
      return raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * Signed cookie values already checked, with their tokens, per settings (so per secret): an
 * HMAC was about a twentieth of a vault list's CPU. Only valid signatures are kept, so only a
 * value this server signed can take a place; the oldest goes first past VERIFIED_KEPT. A
 * signature stays valid when its session ends: the session's row decides that, at every request.
 */
const verified = new WeakMap<CookieSettings, Map<string, string>>();
export const VERIFIED_KEPT = 10_000;

/** The session token, if the Cookie header carries it with a valid signature; else null. */
export function signedSessionToken(cookieHeader: string | undefined, s: CookieSettings) {
  if (!cookieHeader) return null;
  const value = cookieValue(cookieHeader, s.name);
  const dot = value?.lastIndexOf('.') ?? -1;
  if (!value || dot < 1) return null;
  let kept = verified.get(s);
  const known = kept?.get(value);
  if (known !== undefined) return known;
  const token = value.slice(0, dot);
  const encoded = value.slice(dot + 1);
  // A base64 HMAC-SHA256 is 44 characters with one '=' of padding (better-call refuses others).
  if (encoded.length !== 44 || !encoded.endsWith('=')) return null;
  const signature = Buffer.from(encoded, 'base64');
  const expected = createHmac('sha256', s.secret).update(token).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  if (!kept) verified.set(s, (kept = new Map<string, string>()));
  kept.set(value, token);
  if (kept.size > VERIFIED_KEPT) kept.delete(kept.keys().next().value as string);
  return token;
}

/** A stored time as Better Auth's adapters leave it (Date, epoch ms, ISO text) in ms, or NaN. */
export function timeOf(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return NaN;
}

/**
 * The session row (by its token or its id), its account and profile, and what decides whether
 * its vaults can be read-only (the plan, a lapsed trial: plans/read-only.ts), all in one query:
 * the API's requests after the session check then need no query of their own for it.
 *
 * [Note: no joins in the session query] One table and scalar subqueries, not joins: SQLite as
 * better-sqlite3 builds it (SQLITE_ENABLE_STAT4) plans a join again each time its statement is
 * run with a new binding, about 15 µs of the 20 this query took as a join, on every request;
 * a lookup by a unique key in one table is planned once (bench/RESULTS.md, "Speed II, fourth
 * round"). A session whose account is gone has no email: it is not a live session.
 */
const liveSession = (by: 'token' | 'id') =>
  prepared((db, a: { value: string }) =>
    db
      .withTables<{ session: { expiresAt: unknown } }>()
      .selectFrom('session')
      .select((eb) => {
        const user = eb.selectFrom('user').whereRef('user.id', '=', 'session.userId');
        const profile = eb.selectFrom('profiles').whereRef('profiles.id', '=', 'session.userId');
        return [
          'session.id as sessionId',
          'session.expiresAt',
          'session.userId',
          user.select('user.email').as('email'),
          user.select('user.name').as('name'),
          profile.select('profiles.role').as('role'),
          profile.select('profiles.disabled_at').as('disabled_at'),
          profile.select('profiles.current_plan_id').as('current_plan_id'),
          eb
            .selectFrom('user_subscriptions')
            .select('user_subscriptions.trial_outcome')
            .whereRef('user_subscriptions.user_id', '=', 'session.userId')
            .as('trial_outcome'),
        ];
      })
      .where(by === 'token' ? 'session.token' : 'session.id', '=', a.value),
  );
const byToken = liveSession('token');
const byId = liveSession('id');

export async function findLiveSession(db: Kysely<Database>, by: 'token' | 'id', value: string) {
  const row = (await (by === 'token' ? byToken : byId)(db, { value }))[0];
  if (!row || row.email === null || row.name === null) return undefined;
  return { ...row, email: row.email, name: row.name };
}
export type LiveSession = NonNullable<Awaited<ReturnType<typeof findLiveSession>>>;

/** Whether the fast path may answer for this row: not expired, not due for Better Auth's refresh. */
export function freshEnough(row: LiveSession, s: CookieSettings, now = Date.now()): boolean {
  const expiresAt = timeOf(row.expiresAt);
  return expiresAt > now && expiresAt - s.expiresInMs + s.updateAgeMs > now;
}
