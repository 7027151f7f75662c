// The passkeys table (issue 30; docs/auth.md "Passkeys"): one WebAuthn credential to sign in per
// row, always read and written under its owner's user id.
import type { Kysely } from 'kysely';
import type { PasskeySummary } from '@sealvault/protocol';
import type { Database } from '../../db/schema.ts';
import type { UserDeletedHook } from '../../profiles/user-deletion.ts';

type Q = Kysely<Database>;

export interface StoredPasskey {
  id: string;
  userId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export interface NewPasskey {
  id: string;
  userId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: readonly string[];
  backedUp: boolean;
  createdAt: Date;
}

export async function insertPasskey(db: Q, p: NewPasskey): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({
      id: p.id,
      user_id: p.userId,
      name: p.name,
      credential_id: p.credentialId,
      public_key: p.publicKey,
      counter: p.counter,
      transports: p.transports.length ? p.transports.join(',') : null,
      backed_up: p.backedUp ? 1 : 0,
      created_at: p.createdAt.toISOString(),
      last_used_at: null,
    })
    .execute();
}

export async function listPasskeys(db: Q, userId: string): Promise<PasskeySummary[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    backedUp: Number(r.backed_up) === 1,
  }));
}

/** The credential ids of a user's passkeys (excludeCredentials when adding one). */
export async function credentialIdsOf(
  db: Q,
  userId: string,
): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ id: r.credential_id, transports: splitTransports(r.transports) }));
}

export async function countPasskeys(db: Q, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findByCredentialId(
  db: Q,
  credentialId: string,
): Promise<StoredPasskey | undefined> {
  const r = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: splitTransports(r.transports),
  };
}

export async function markUsed(db: Q, id: string, counter: number, at: Date): Promise<void> {
  await db
    .updateTable('passkeys')
    .set({ counter, last_used_at: at.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** True when the user's passkey was renamed; false when the user has no such passkey. */
export async function renamePasskey(
  db: Q,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const r = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deletePasskey(db: Q, userId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * The ways the user can sign in besides its passkeys: a password (a `credential` account: a
 * password hash or an OPAQUE record) and linked identity providers (Google).
 */
export async function otherSignInMethods(db: Q, userId: string): Promise<number> {
  const row = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** [Note: user deletion hooks]: an account's passkeys go with it. */
export const deletePasskeysOfUser: UserDeletedHook = async ({ db, userId }) => {
  await db.kysely.deleteFrom('passkeys').where('user_id', '=', userId).execute();
};

const splitTransports = (t: string | null): string[] => (t ? t.split(',') : []);
