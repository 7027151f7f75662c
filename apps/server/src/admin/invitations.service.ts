// Making and revoking invitations (issue 33): each change and its audit log row in one
// transaction, so the log never misses an action that happened nor names one that did not.
import type { CreateInvitationRequest, CreatedInvitation, Invitation } from '@sealvault/protocol';
import type { SessionUser } from '../auth/auth.middleware.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { recordAdminAction } from './audit.repository.ts';
import * as repo from './invitations.repository.ts';

export type Deps = Pick<AppDeps, 'db' | 'now' | 'config'>;

const HOUR_MS = 3_600_000;

// Ours (the spec shows none for these).
export const invitationMessages = {
  notFound: 'Invitation not found',
  notOpen: 'This invitation was already used or revoked.',
} as const;

/** Where an invitation's link lands: the sign-up screen in invite mode. */
export const invitationUrl = (publicUrl: string, token: string): string =>
  `${publicUrl}/auth?invite=${encodeURIComponent(token)}`;

export async function createInvitation(
  deps: Deps,
  actor: SessionUser,
  input: CreateInvitationRequest,
): Promise<CreatedInvitation> {
  const now = deps.now();
  const token = repo.newInvitationToken();
  const expiresAt =
    input.expires_in_hours === undefined
      ? null
      : new Date(now.getTime() + input.expires_in_hours * HOUR_MS);
  const row = await deps.db.kysely.transaction().execute(async (trx) => {
    const created = await repo.insertInvitation(
      trx,
      { token, email: input.email ?? null, createdBy: actor.id, expiresAt },
      now,
    );
    await recordAdminAction(
      trx,
      {
        actorId: actor.id,
        action: 'invitation.create',
        target: created.id,
        // Never the token: only its holder may use it.
        details: { email: created.email, expires_at: created.expires_at },
      },
      now,
    );
    return created;
  });
  return {
    invitation: repo.toInvitation(row, now),
    token,
    url: invitationUrl(deps.config.publicUrl, token),
  };
}

export async function listInvitations(deps: Deps): Promise<Invitation[]> {
  const now = deps.now();
  return (await repo.listInvitations(deps.db.kysely)).map((row) => repo.toInvitation(row, now));
}

/** Revokes an open (or expired) invitation: 404 unknown, 409 already used or revoked. */
export async function revokeInvitation(
  deps: Deps,
  actor: SessionUser,
  id: string,
): Promise<Invitation> {
  const now = deps.now();
  const row = await deps.db.kysely.transaction().execute(async (trx) => {
    const found = await repo.findInvitation(trx, id);
    if (!found) throw notFound(invitationMessages.notFound);
    if (!(await repo.revokeInvitation(trx, id, now)))
      throw new HttpError(409, 'conflict', invitationMessages.notOpen);
    await recordAdminAction(
      trx,
      {
        actorId: actor.id,
        action: 'invitation.revoke',
        target: id,
        details: { email: found.email },
      },
      now,
    );
    return { ...found, revoked_at: now.toISOString() };
  });
  return repo.toInvitation(row, now);
}
