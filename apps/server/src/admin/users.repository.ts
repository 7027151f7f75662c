// The admin console's reads and writes of accounts (issue 33): profiles (role, plan, disabled
// flag) joined with Better Auth's user, session and twoFactor tables, and the storage each account
// uses on this server. Never a vault's content, a session token or a second factor's secret.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AdminSession, AdminUser } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';

/** Better Auth's columns this module reads beyond schema.ts's (its session and two-factor data). */
// A type, not an interface: Kysely's withTables needs an indexable one.
type AuthTables = {
  user: {
    id: string;
    email: string;
    name: string;
    emailVerified: number | boolean;
    twoFactorEnabled: number | boolean | null;
  };
  session: {
    id: string;
    userId: string;
    token: string;
    createdAt: unknown;
    updatedAt: unknown;
    expiresAt: unknown;
    ipAddress: string | null;
    userAgent: string | null;
  };
  twoFactor: { id: string; userId: string };
};

export type Q = Kysely<Database> | Transaction<Database>;
type AQ = Kysely<Database & AuthTables> | Transaction<Database & AuthTables>;
const withAuth = (db: Q): AQ => db.withTables<AuthTables>();

/** A time as Better Auth stored it (a Date on PostgreSQL; text or a number on SQLite) to ISO. */
export function isoOf(value: unknown): string | null {
  let d: Date | null = null;
  if (value instanceof Date) d = value;
  else if (typeof value === 'number') d = new Date(value);
  else if (typeof value === 'string' && value !== '')
    d = new Date(/^\d+$/.test(value) ? Number(value) : value);
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
}

/** `%part%` for LIKE, with the pattern's own wildcards escaped (by `\`). */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export interface UserPage {
  rows: AdminUser[];
  total: number;
}

/** Users whose e-mail or name holds `q` (case-blind), oldest account first, one page of them. */
export async function listUsers(
  db: Q,
  opts: { q?: string | undefined; limit: number; offset: number },
): Promise<UserPage> {
  const q = withAuth(db);
  let base = q.selectFrom('profiles');
  if (opts.q) {
    const pattern = likePattern(opts.q);
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(profiles.email) like ${pattern} escape '\\'`,
        sql<boolean>`lower(coalesce(profiles.full_name, '')) like ${pattern} escape '\\'`,
      ]),
    );
  }
  const count = await base
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const ids = await base
    .select('profiles.id')
    .orderBy('profiles.created_at')
    .orderBy('profiles.id')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return {
    rows: await usersByIds(
      db,
      ids.map((r) => r.id),
    ),
    total: Number(count?.n ?? 0),
  };
}

export async function findUser(db: Q, id: string): Promise<AdminUser | undefined> {
  return (await usersByIds(db, [id]))[0];
}

/** The admin view of these users, in the order given (missing ones left out). */
export async function usersByIds(db: Q, ids: readonly string[]): Promise<AdminUser[]> {
  if (ids.length === 0) return [];
  const q = withAuth(db);
  const rows = await q
    .selectFrom('profiles')
    .leftJoin('user', 'user.id', 'profiles.id')
    .leftJoin('subscription_plans', 'subscription_plans.id', 'profiles.current_plan_id')
    .select([
      'profiles.id',
      'profiles.email',
      'profiles.full_name',
      'profiles.role',
      'profiles.current_plan_id',
      'profiles.disabled_at',
      'profiles.created_at',
      'user.emailVerified',
      'user.twoFactorEnabled',
      'subscription_plans.name as plan_name',
    ])
    .where('profiles.id', 'in', ids)
    .execute();
  const [lastSignIns, storage, vaults] = await Promise.all([
    q
      .selectFrom('session')
      .select(['userId', (eb) => eb.fn.max('createdAt').as('last')])
      .where('userId', 'in', ids)
      .groupBy('userId')
      .execute(),
    storageByUser(db, ids),
    vaultCounts(db, ids),
  ]);
  const last = new Map(lastSignIns.map((r) => [r.userId, isoOf(r.last)]));
  const byId = new Map(
    rows.map((r): [string, AdminUser] => [
      r.id,
      {
        id: r.id,
        email: r.email,
        name: r.full_name,
        role: r.role === 'admin' ? 'admin' : 'user',
        plan_id: r.current_plan_id,
        plan_name: r.plan_name ?? r.current_plan_id,
        disabled_at: r.disabled_at,
        email_verified: Boolean(r.emailVerified),
        two_factor_enabled: Boolean(r.twoFactorEnabled),
        created_at: r.created_at,
        last_sign_in_at: last.get(r.id) ?? null,
        storage_used_bytes: storage.get(r.id) ?? 0,
        vault_count: vaults.get(r.id) ?? 0,
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Storage used per user, as limits.service.ts's storageUsed counts it (files on this server not
 * purged, file links' copies not deleted); every user when `ids` is omitted.
 */
export async function storageByUser(db: Q, ids?: readonly string[]): Promise<Map<string, number>> {
  let files = db
    .selectFrom('vault_files')
    .select(['user_id', (eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes')])
    .where('storage_ref', 'is', null)
    .where('purged_at', 'is', null)
    .groupBy('user_id');
  let shares = db
    .selectFrom('share_links')
    .select(['user_id', (eb) => eb.fn.sum<string | number | null>('ciphertext_size').as('bytes')])
    .where('kind', '=', 'file')
    .where('data_deleted_at', 'is', null)
    .groupBy('user_id');
  if (ids) {
    files = files.where('user_id', 'in', ids);
    shares = shares.where('user_id', 'in', ids);
  }
  const out = new Map<string, number>();
  for (const r of [...(await files.execute()), ...(await shares.execute())])
    out.set(r.user_id, (out.get(r.user_id) ?? 0) + Number(r.bytes ?? 0));
  return out;
}

export async function vaultCounts(db: Q, ids?: readonly string[]): Promise<Map<string, number>> {
  let query = db
    .selectFrom('vaults')
    .select(['user_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy('user_id');
  if (ids) query = query.where('user_id', 'in', ids);
  return new Map((await query.execute()).map((r) => [r.user_id, Number(r.n)]));
}

export async function setRole(db: Q, id: string, role: 'user' | 'admin', at: string) {
  await db.updateTable('profiles').set({ role, updated_at: at }).where('id', '=', id).execute();
}

export async function setDisabled(db: Q, id: string, disabledAt: string | null, at: string) {
  await db
    .updateTable('profiles')
    .set({ disabled_at: disabledAt, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** The user's sessions that have not expired, newest first. Never a token. */
export async function listSessions(
  db: Q,
  userId: string,
  now: Date,
  currentSessionId: string,
): Promise<AdminSession[]> {
  const rows = await withAuth(db)
    .selectFrom('session')
    .select(['id', 'createdAt', 'updatedAt', 'expiresAt', 'ipAddress', 'userAgent'])
    .where('userId', '=', userId)
    .execute();
  return rows
    .map((r) => ({
      id: r.id,
      created_at: isoOf(r.createdAt) ?? '',
      updated_at: isoOf(r.updatedAt) ?? isoOf(r.createdAt) ?? '',
      expires_at: isoOf(r.expiresAt) ?? '',
      ip_address: r.ipAddress || null,
      user_agent: r.userAgent || null,
      current: r.id === currentSessionId,
    }))
    .filter((s) => s.expires_at > now.toISOString())
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** Deletes the user's sessions (one of them, by id): they are signed out at their next request. */
export async function deleteSessions(db: Q, userId: string, sessionId?: string): Promise<number> {
  let query = withAuth(db).deleteFrom('session').where('userId', '=', userId);
  if (sessionId) query = query.where('id', '=', sessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes the user's second factor (TOTP secret and backup codes); false when there was none. */
export async function deleteTwoFactor(db: Q, userId: string, sqlite: boolean): Promise<boolean> {
  const q = withAuth(db);
  const user = await q
    .selectFrom('user')
    .select('twoFactorEnabled')
    .where('id', '=', userId)
    .executeTakeFirst();
  const removed = await q.deleteFrom('twoFactor').where('userId', '=', userId).executeTakeFirst();
  await q
    .updateTable('user')
    .set({ twoFactorEnabled: sqlite ? 0 : false })
    .where('id', '=', userId)
    .execute();
  return Boolean(user?.twoFactorEnabled) || Number(removed.numDeletedRows) > 0;
}

/** Whether the account is disabled ([Note: disabled accounts] in admin/users.service.ts). */
export async function isDisabled(db: Q, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('profiles')
    .select('disabled_at')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.disabled_at);
}
