// [Note: key revision of a write] (packages/protocol/src/vaults.ts): every record write names the
// vault key revision its ciphertext was made under, and is refused with 409 `stale_key` unless
// that is the vault's current one. The check runs inside the write's own transaction, holding the
// vault's row the way a rotation holds it (rotation.service.ts, [Note: rotation lock]): on
// PostgreSQL `for update` orders the write before or after a rotation (after one, it reads the new
// revision and is refused; before one, the rotation sees the new record and is refused instead);
// on SQLite the write transaction is the only writer (database.ts: BEGIN IMMEDIATE).
import type { Kysely, Transaction } from 'kysely';
import { messages, STALE_KEY_MESSAGE } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import { lockVault } from '../files/files.repository.ts';
import { HttpError, notFound } from '../http/errors.ts';

type Q = Kysely<Database> | Transaction<Database>;

export const staleKey = () => new HttpError(409, 'stale_key', STALE_KEY_MESSAGE);

/**
 * Locks the user's vault row (PostgreSQL) and checks that `keyRevision` is its current key
 * revision: 404 for no such vault of this user, 409 `stale_key` for another revision.
 */
export async function assertCurrentKey(
  db: Q,
  kind: 'sqlite' | 'postgres',
  userId: string,
  vaultId: string,
  keyRevision: number,
): Promise<void> {
  const row = await lockVault(db, kind, userId, vaultId);
  if (!row) throw notFound(messages.vaults.notFound);
  if (Number(row.key_revision) !== keyRevision) throw staleKey();
}
