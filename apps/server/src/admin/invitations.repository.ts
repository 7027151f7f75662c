// Sign-up invitations (issue 33; [Note: sign-up policy] in auth/signup-policy.ts). A token is 32
// random bytes, base64url; only its SHA-256 is stored, so the table alone lets nobody sign up.
// An invitation is used by one conditional UPDATE (open, not expired, the right e-mail), which
// holds on both databases and across instances: two sign-ups racing for it, only one gets it.
import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Invitation, InvitationStatus } from '@sealvault/protocol';
import type { Database, InvitationsTable } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;
export type InvitationRow = Selectable<InvitationsTable>;

/** A new invitation token: 32 random bytes, base64url (43 characters). */
export const newInvitationToken = (): string => crypto.randomBytes(32).toString('base64url');

export const invitationTokenHash = (token: string): string =>
  crypto.createHash('sha256').update(token).digest('hex');

/** E-mails compare trimmed and lower-cased, as Better Auth stores them. */
export const normalisedEmail = (email: string): string => email.trim().toLowerCase();

export function statusOf(row: InvitationRow, now: Date): InvitationStatus {
  if (row.revoked_at) return 'revoked';
  if (row.used_at) return 'used';
  if (row.expires_at && row.expires_at <= now.toISOString()) return 'expired';
  return 'open';
}

export function toInvitation(row: InvitationRow, now: Date): Invitation {
  return {
    id: row.id,
    email: row.email,
    status: statusOf(row, now),
    created_by: row.created_by,
    created_at: row.created_at,
    expires_at: row.expires_at,
    used_at: row.used_at,
    used_by: row.used_by,
    revoked_at: row.revoked_at,
  };
}

export async function insertInvitation(
  db: Q,
  input: { token: string; email: string | null; createdBy: string; expiresAt: Date | null },
  now: Date,
): Promise<InvitationRow> {
  const row: InvitationRow = {
    id: crypto.randomUUID(),
    token_hash: invitationTokenHash(input.token),
    email: input.email === null ? null : normalisedEmail(input.email),
    created_by: input.createdBy,
    created_at: now.toISOString(),
    expires_at: input.expiresAt?.toISOString() ?? null,
    used_at: null,
    used_by: null,
    revoked_at: null,
  };
  await db.insertInto('invitations').values(row).execute();
  return row;
}

/** Newest first. */
export function listInvitations(db: Q, limit = 500): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findInvitation(db: Q, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Revokes an invitation not yet used or revoked; false when there was nothing to revoke. */
export async function revokeInvitation(db: Q, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The invitation of this token if `email` may use it now, else undefined (whatever the reason). */
export function usableInvitation(
  db: Q,
  token: string,
  email: string,
  now: Date,
): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', invitationTokenHash(token))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .where((eb) => eb.or([eb('email', 'is', null), eb('email', '=', normalisedEmail(email))]))
    .executeTakeFirst();
}

/**
 * Uses the invitation of this token for `email`, once: true when this call took it. The
 * conditions are usableInvitation's, in the UPDATE itself.
 */
export async function claimInvitation(
  db: Q,
  token: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', invitationTokenHash(token))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .where((eb) => eb.or([eb('email', 'is', null), eb('email', '=', normalisedEmail(email))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Names the account a claimed invitation made (after the user row exists). */
export async function markInvitationUsedBy(db: Q, token: string, userId: string): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ used_by: userId })
    .where('token_hash', '=', invitationTokenHash(token))
    .where('used_at', 'is not', null)
    .where('used_by', 'is', null)
    .execute();
}

/** [Note: user deletion hooks] A deleted account is no longer named by the invitation it used. */
export async function forgetInvitationUser(db: Q, userId: string): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ used_by: null })
    .where('used_by', '=', userId)
    .execute();
}
