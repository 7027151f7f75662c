// The admin console's actions on accounts (issue 33): plan, role, disable and enable, delete with
// everything the account owns, reset of the second factor, sessions. Each change and its audit row
// are written in one transaction (audit.repository.ts); an admin cannot demote, disable or delete
// themself, so a server always keeps the admin who is using it.
//
// [Note: disabled accounts] An admin disables an account by setting profiles.disabled_at; in the
// same transaction its sessions are deleted, so its next request, from any tab or device, finds no
// session (401, the sign-in screen). Better Auth's session create hook (auth/auth.ts) refuses a new
// session to a disabled account, whatever the sign-in (password, passkey, Google, second factor),
// with 403 ACCOUNT_DISABLED; requireUser() refuses a session of one as a second line. Enabling
// clears the flag; the user signs in again.
import {
  adminMessages,
  type AdminInstanceResponse,
  type AdminSession,
  type AdminStorageResponse,
  type AdminUser,
  type AdminUsersResponse,
  type UpdateAdminUserRequest,
} from '@sealvault/protocol';
import { sql } from 'kysely';
import type { SessionUser } from '../auth/auth.middleware.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { initialPlanOf } from '../plans/plans.config.ts';
import { changePlan } from '../subscriptions/subscriptions.service.ts';
import { serverVersion } from '../version.ts';
import { recordAdminAction } from './audit.repository.ts';
import * as repo from './users.repository.ts';

export type Deps = Pick<AppDeps, 'db' | 'now' | 'config' | 'auth' | 'logger'>;

const userNotFound = () => notFound(adminMessages.userNotFound);
const notYourself = () => new HttpError(409, 'conflict', adminMessages.notYourself);

export async function listUsers(
  deps: Deps,
  query: { q?: string | undefined; page: number; per_page: number },
): Promise<AdminUsersResponse> {
  const { rows, total } = await repo.listUsers(deps.db.kysely, {
    q: query.q || undefined,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  return { users: rows, total, page: query.page, per_page: query.per_page };
}

export async function getUser(deps: Deps, id: string): Promise<AdminUser> {
  const user = await repo.findUser(deps.db.kysely, id);
  if (!user) throw userNotFound();
  return user;
}

/** Plan, role and disabled flag, each with its own audit row, all or nothing. */
export async function updateUser(
  deps: Deps,
  actor: SessionUser,
  id: string,
  input: UpdateAdminUserRequest,
): Promise<AdminUser> {
  if (id === actor.id && (input.role === 'user' || input.disabled === true)) throw notYourself();
  const now = deps.now();
  const at = now.toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await repo.findUser(trx, id);
    if (!before) throw userNotFound();
    const log = (action: string, details: Record<string, unknown>) =>
      recordAdminAction(trx, { actorId: actor.id, action, target: id, details }, now);
    if (input.plan_id !== undefined && input.plan_id !== before.plan_id) {
      await changePlan(trx, id, input.plan_id, now, null, { paid: false });
      await log('user.plan', { email: before.email, from: before.plan_id, to: input.plan_id });
    }
    if (input.role !== undefined && input.role !== before.role) {
      await repo.setRole(trx, id, input.role, at);
      await log('user.role', { email: before.email, from: before.role, to: input.role });
    }
    if (input.disabled === true && !before.disabled_at) {
      await repo.setDisabled(trx, id, at, at);
      const sessions = await repo.deleteSessions(trx, id);
      await log('user.disable', { email: before.email, sessions_ended: sessions });
    } else if (input.disabled === false && before.disabled_at) {
      await repo.setDisabled(trx, id, null, at);
      await log('user.enable', { email: before.email });
    }
  });
  return getUser(deps, id);
}

/**
 * Deletes the account and everything it owns, by the same path as DELETE /api/me: Better Auth's
 * beforeDelete runs the account-deletion hooks (account-deletion.ts) and deletes the profile,
 * then its user, accounts and sessions go. The audit row is written once it is done.
 */
export async function deleteUser(deps: Deps, actor: SessionUser, id: string): Promise<void> {
  if (id === actor.id) throw notYourself();
  const user = await repo.findUser(deps.db.kysely, id);
  if (!user) throw userNotFound();
  const ctx = await deps.auth.$context;
  const authUser = await ctx.internalAdapter.findUserById(id);
  // Signed out first, so nothing of the account acts while its data goes.
  await repo.deleteSessions(deps.db.kysely, id);
  if (authUser) {
    await ctx.options.user?.deleteUser?.beforeDelete?.(authUser);
    await repo.deleteTwoFactor(deps.db.kysely, id, deps.db.kind === 'sqlite');
    await ctx.internalAdapter.deleteUser(id);
    await ctx.internalAdapter.deleteUserSessions(id);
  }
  // A profile without a Better Auth user (never expected) goes too.
  await deps.db.kysely.deleteFrom('profiles').where('id', '=', id).execute();
  await recordAdminAction(
    deps.db.kysely,
    {
      actorId: actor.id,
      action: 'user.delete',
      target: id,
      details: { email: user.email, vaults: user.vault_count, bytes: user.storage_used_bytes },
    },
    deps.now(),
  );
  deps.logger.info({ actor: actor.id, userId: id }, 'account deleted by an admin');
}

/** Removes the user's TOTP second factor and backup codes: they sign in with the password alone. */
export async function resetTwoFactor(
  deps: Deps,
  actor: SessionUser,
  id: string,
): Promise<AdminUser> {
  const now = deps.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const user = await repo.findUser(trx, id);
    if (!user) throw userNotFound();
    if (!(await repo.deleteTwoFactor(trx, id, deps.db.kind === 'sqlite')))
      throw new HttpError(409, 'conflict', adminMessages.noSecondFactor);
    await recordAdminAction(
      trx,
      {
        actorId: actor.id,
        action: 'user.two_factor.reset',
        target: id,
        details: { email: user.email },
      },
      now,
    );
  });
  return getUser(deps, id);
}

export async function listSessions(
  deps: Deps,
  id: string,
  currentSessionId: string,
): Promise<AdminSession[]> {
  await getUser(deps, id);
  return repo.listSessions(deps.db.kysely, id, deps.now(), currentSessionId);
}

/** Ends one of the user's sessions, or all of them; answers how many ended. */
export async function revokeSessions(
  deps: Deps,
  actor: SessionUser,
  id: string,
  sessionId?: string,
): Promise<number> {
  const now = deps.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const user = await repo.findUser(trx, id);
    if (!user) throw userNotFound();
    const revoked = await repo.deleteSessions(trx, id, sessionId);
    if (sessionId && revoked === 0) throw notFound(adminMessages.sessionNotFound);
    await recordAdminAction(
      trx,
      {
        actorId: actor.id,
        action: sessionId ? 'user.session.revoke' : 'user.sessions.revoke',
        target: id,
        details: { email: user.email, revoked, ...(sessionId ? { session: sessionId } : {}) },
      },
      now,
    );
    return revoked;
  });
}

/** Storage used on this server: in total and by the 100 accounts that use the most. */
export async function storage(deps: Deps): Promise<AdminStorageResponse> {
  const db = deps.db.kysely;
  const [bytes, vaults, profiles] = await Promise.all([
    repo.storageByUser(db),
    repo.vaultCounts(db),
    db.selectFrom('profiles').select(['id', 'email']).execute(),
  ]);
  const users = profiles
    .map((p) => ({
      id: p.id,
      email: p.email,
      storage_used_bytes: bytes.get(p.id) ?? 0,
      vault_count: vaults.get(p.id) ?? 0,
    }))
    .sort((a, b) => b.storage_used_bytes - a.storage_used_bytes || a.email.localeCompare(b.email));
  return {
    total_bytes: [...bytes.values()].reduce((a, b) => a + b, 0),
    user_count: profiles.length,
    users: users.slice(0, 100),
  };
}

/** The instance's settings (read-only: from the configuration), version and health. */
export async function instance(deps: Deps): Promise<AdminInstanceResponse> {
  const version = serverVersion();
  let healthy = true;
  try {
    await sql`select 1`.execute(deps.db.kysely);
  } catch {
    healthy = false;
  }
  return {
    signup_mode: deps.config.signup.mode,
    plans_mode: deps.config.plans.mode,
    default_plan: initialPlanOf(deps.config.plans),
    version: version.version,
    commit: version.commit,
    health: { status: healthy ? 'ok' : 'failing', database: deps.db.kind },
  };
}
