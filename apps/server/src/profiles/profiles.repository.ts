// Spec §3 profiles: one row per user (id = the Better Auth user id), the single source of truth
// for the role and the current plan. Ensured at sign-up and at every sign-in (auth/auth.ts hooks).
import type { Kysely } from 'kysely';
import type { PlanId } from '@sealvault/protocol';
import type { Database, ProfilesTable } from '../db/schema.ts';

export type ProfileRow = ProfilesTable;
export type Role = ProfilesTable['role'];

/**
 * Creates the profile if it is missing, on `initialPlan` (Free, or a self-hosted instance's
 * DEFAULT_PLAN: plans/plans.config.ts initialPlanOf); keeps the e-mail in step with the account's.
 */
export async function ensureProfile(
  db: Kysely<Database>,
  user: { id: string; email: string; name: string | null },
  now: Date,
  initialPlan: PlanId = 'free',
): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('profiles')
    .values({
      id: user.id,
      email: user.email,
      full_name: user.name || null,
      role: 'user',
      current_plan_id: initialPlan,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .updateTable('profiles')
    .set({ email: user.email, updated_at: at })
    .where('id', '=', user.id)
    .where('email', '!=', user.email)
    .execute();
}

export async function findProfile(
  db: Kysely<Database>,
  id: string,
): Promise<ProfileRow | undefined> {
  return db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setFullName(
  db: Kysely<Database>,
  id: string,
  fullName: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ full_name: fullName, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Sets the role of the profile with this e-mail; false when there is none. */
export async function setRoleByEmail(
  db: Kysely<Database>,
  email: string,
  role: Role,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({ role, updated_at: now.toISOString() })
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteProfile(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('profiles').where('id', '=', id).execute();
}
