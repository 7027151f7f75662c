// The admin audit log (issue 33): one row per admin action, for the admin console to show. Every
// admin route writes its row in the same transaction as the change, through recordAdminAction.
import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AdminAuditLogTable, Database } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

export interface AdminAction {
  /** The admin's user id. */
  actorId: string;
  /** What was done, `<thing>.<verb>` (e.g. `invitation.create`, `invitation.revoke`). */
  action: string;
  /** The id of what it was done to, if anything. */
  target?: string | null;
  /** The action's particulars, stored as JSON. Never a token, a password or vault content. */
  details?: Record<string, unknown>;
}

export type AuditRow = Selectable<AdminAuditLogTable>;

/** Writes one row of the log; call it inside the transaction that makes the change. */
export async function recordAdminAction(db: Q, entry: AdminAction, now: Date): Promise<AuditRow> {
  const row: AuditRow = {
    id: crypto.randomUUID(),
    actor_id: entry.actorId,
    action: entry.action,
    target: entry.target ?? null,
    details: JSON.stringify(entry.details ?? {}),
    created_at: now.toISOString(),
  };
  await db.insertInto('admin_audit_log').values(row).execute();
  return row;
}

/** The newest rows first (the console's list). */
export function listAdminActions(db: Q, limit = 100): Promise<AuditRow[]> {
  return db
    .selectFrom('admin_audit_log')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** One page of the log, newest first, with each actor's e-mail while that account exists. */
export async function pageAdminActions(
  db: Q,
  opts: { limit: number; offset: number },
): Promise<{ rows: (AuditRow & { actor_email: string | null })[]; total: number }> {
  const count = await db
    .selectFrom('admin_audit_log')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const rows = await db
    .selectFrom('admin_audit_log')
    .leftJoin('profiles', 'profiles.id', 'admin_audit_log.actor_id')
    .selectAll('admin_audit_log')
    .select('profiles.email as actor_email')
    .orderBy('admin_audit_log.created_at', 'desc')
    .orderBy('admin_audit_log.id', 'desc')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return { rows, total: Number(count?.n ?? 0) };
}
