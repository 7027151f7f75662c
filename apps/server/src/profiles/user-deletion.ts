// [Note: user deletion hooks] Deleting an account (DELETE /api/me) must remove everything the
// user owns. Each feature exports its cleanup as a UserDeletedHook, and account-deletion.ts lists
// them, in order, where the app is assembled (server.ts, the test harness): nothing registers
// itself at import time.
//
// Hooks run in order, before Better Auth removes the user, its sessions and its accounts, and
// before the profile row goes, so a hook can still read the profile. A hook that throws stops the
// deletion (nothing of the account is removed yet); hooks must be idempotent, because the user may
// retry. Blob stores are best-effort (queue deletions rather than fail).
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { deleteProfile } from './profiles.repository.ts';

export interface UserDeletedContext {
  db: Db;
  userId: string;
  logger: Logger;
  /** The Better Auth secret: the key of what outlives the account as a keyed hash. */
  secret: string;
}

export type UserDeletedHook = (ctx: UserDeletedContext) => Promise<void>;

/** Runs `hooks` in order, then deletes the profile. Better Auth deletes the rest. */
export async function runUserDeletion(
  ctx: UserDeletedContext,
  hooks: readonly UserDeletedHook[],
): Promise<void> {
  for (const hook of [...hooks]) await hook(ctx);
  await deleteProfile(ctx.db.kysely, ctx.userId);
}
