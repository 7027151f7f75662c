// Secrets of a secrets vault, for its owner (docs/product.md §5 "Secrets": update and delete need the
// secret to exist). A stale update is refused with 409 and the stored version, so the browser can
// show the newer secret and nothing is silently overwritten.
import {
  messages,
  type CreateSecretRequest,
  type SecretRecord,
  type UpdateSecretRequest,
} from '@sealvault/protocol';
import { HttpError, notFound } from '../http/errors.ts';
import type { AppDeps } from '../http/context.ts';
import { assertVaultWritable } from '../plans/read-only.ts';
import { findVault } from '../vaults/vaults.repository.ts';
import * as repo from './secrets.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

export const SECRET_NOT_FOUND = 'Secret not found';

export class SecretConflict extends HttpError {
  constructor(readonly current: SecretRecord) {
    super(
      409,
      'conflict',
      'This secret was changed in another tab or device. Its newer version is shown.',
    );
  }
}

async function secretsVault(deps: Deps, userId: string, vaultId: string, write = false) {
  const vault = await findVault(deps.db.kysely, userId, vaultId);
  if (!vault) throw notFound(messages.vaults.notFound);
  if (vault.vault_type !== 'secrets')
    throw new HttpError(400, 'bad_request', 'This vault does not hold secrets.');
  // [Note: read-only after a trial] in the protocol's trials.ts.
  if (write) await assertVaultWritable(deps.db.kysely, userId, vaultId);
  return vault;
}

export async function listSecrets(
  deps: Deps,
  userId: string,
  vaultId: string,
): Promise<SecretRecord[]> {
  await secretsVault(deps, userId, vaultId);
  return (await repo.listItems(deps.db.kysely, vaultId)).map(repo.toRecord);
}

export async function createSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: CreateSecretRequest,
): Promise<SecretRecord> {
  await secretsVault(deps, userId, vaultId, true);
  const now = deps.now().toISOString();
  const row = {
    id: input.id,
    vault_id: vaultId,
    data: input.data,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (await repo.itemIdTaken(trx, input.id))
      throw new HttpError(409, 'conflict', 'A secret with this id already exists.');
    await repo.insertItem(trx, row);
  });
  return repo.toRecord(row);
}

export async function updateSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  secretId: string,
  input: UpdateSecretRequest,
): Promise<SecretRecord> {
  await secretsVault(deps, userId, vaultId, true);
  const db = deps.db.kysely;
  const ok = await repo.updateItem(
    db,
    vaultId,
    secretId,
    input.expected_revision,
    input.data,
    deps.now().toISOString(),
  );
  const row = await repo.findItem(db, vaultId, secretId);
  if (!row) throw notFound(SECRET_NOT_FOUND);
  if (!ok) throw new SecretConflict(repo.toRecord(row));
  return repo.toRecord(row);
}

export async function deleteSecret(
  deps: Deps,
  userId: string,
  vaultId: string,
  secretId: string,
): Promise<void> {
  await secretsVault(deps, userId, vaultId, true);
  if (!(await repo.deleteItem(deps.db.kysely, vaultId, secretId))) throw notFound(SECRET_NOT_FOUND);
}
