// [Note: user deletion hooks] Deleting an account (DELETE /api/me) must remove everything the
// user owns. Features register their cleanup here, once, at module load:
//
//   import { onUserDeleted } from '../profiles/user-deletion.ts';
//   onUserDeleted(async ({ db, userId }) => { await deleteVaultsOf(db.kysely, userId); });
//
// Hooks run in registration order, before Better Auth removes the user, its sessions and its
// accounts, and before the profile row goes, so a hook can still read the profile. A hook that
// throws stops the deletion (nothing of the account is removed yet); hooks must be idempotent,
// because the user may retry. Blob stores are best-effort (queue deletions rather than fail).
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { deleteProfile } from './profiles.repository.ts';

export interface UserDeletedContext {
  db: Db;
  userId: string;
  logger: Logger;
}

export type UserDeletedHook = (ctx: UserDeletedContext) => Promise<void>;

const hooks: UserDeletedHook[] = [];

/** Registers cleanup for a user's data; returns a function that unregisters it. */
export function onUserDeleted(hook: UserDeletedHook): () => void {
  hooks.push(hook);
  return () => {
    const i = hooks.indexOf(hook);
    if (i >= 0) hooks.splice(i, 1);
  };
}

/** Runs every registered hook, then deletes the profile. Better Auth deletes the rest. */
export async function runUserDeletion(ctx: UserDeletedContext): Promise<void> {
  for (const hook of [...hooks]) await hook(ctx);
  await deleteProfile(ctx.db.kysely, ctx.userId);
}
