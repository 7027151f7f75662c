// Key rotation (ADR 0007, "Key rotation"): the browser sends the vault under a new master key in
// one request (the new slots, every file key re-wrapped with its metadata and name look-up, every
// secret re-encrypted, the next manifest) and it is applied here in one transaction, or not at
// all: until it commits the old keys stay valid, and a failure anywhere leaves every row as it was.
//
// [Note: rotation lock] The request must name exactly the vault's files and secrets (each secret
// at its stored revision), so nothing may be added, changed or removed between that check and
// the commit. On SQLite the write transaction is already the only writer (database.ts: BEGIN
// IMMEDIATE). On PostgreSQL the rotation locks the vault's row (file records take that lock
// before they insert, files.repository.ts lockVault, and deleting the vault takes it first) and
// then holds secret_items and vault_files in SHARE ROW EXCLUSIVE mode, which lets other
// transactions read them but makes their writes wait for the commit. Rotations are rare and
// short, so writers elsewhere wait a moment rather than race it.
import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import {
  messages,
  ROTATION_CONFLICT_MESSAGE,
  type Manifest,
  type RotateVaultRequest,
  type Vault,
} from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import type { AppDeps } from '../http/context.ts';
import { assertVaultWritable } from '../plans/read-only.ts';
import { isUniqueViolation } from '../files/files.repository.ts';
import * as manifests from './manifest.repository.ts';
import { ManifestConflict } from './manifest.service.ts';
import * as repo from './vaults.repository.ts';
import { getVault } from './vaults.service.ts';

type Deps = Pick<AppDeps, 'db' | 'now' | 'logger'>;

/**
 * Rows re-keyed per statement: 4 parameters each, well under SQLite's 32,766 and PostgreSQL's
 * 65,535 per statement.
 */
export const ROTATION_BATCH_ROWS = 500;

/** Thrown inside the transaction, so everything done before it is rolled back. */
class VaultChanged extends Error {}

/** 400 unless every id (and every new name look-up) in the request appears once. */
function checkUnique(input: RotateVaultRequest): void {
  const twice = (values: string[]) => new Set(values).size !== values.length;
  if (twice(input.files.map((f) => f.id))) throw badRequest('files: a file appears twice');
  if (twice(input.files.map((f) => f.name_lookup)))
    throw badRequest('files: two files have the same name_lookup');
  if (twice(input.secrets.map((s) => s.id))) throw badRequest('secrets: a secret appears twice');
}

const isLockNotAvailable = (err: unknown): boolean =>
  err instanceof Error && (err as { code?: unknown }).code === '55P03';

const sameIds = (stored: string[], sent: { id: string }[]) => {
  const ids = new Set(stored);
  return ids.size === sent.length && sent.every((r) => ids.has(r.id));
};

async function apply(
  trx: Transaction<Database>,
  deps: Deps,
  userId: string,
  vaultId: string,
  input: RotateVaultRequest,
): Promise<void> {
  const pg = deps.db.kind === 'postgres';
  let lookup = trx
    .selectFrom('vaults')
    .select('key_revision')
    .where('id', '=', vaultId)
    .where('user_id', '=', userId);
  if (pg) lookup = lookup.forUpdate();
  const vault = await lookup.executeTakeFirst();
  if (!vault) throw notFound(messages.vaults.notFound);
  await assertVaultWritable(trx, userId, vaultId, deps.logger);
  // [Note: rotation lock]
  if (pg) await sql`lock table secret_items, vault_files in share row exclusive mode`.execute(trx);

  const manifest = await manifests.findManifest(trx, vaultId);
  if (
    vault.key_revision !== input.expected_key_revision ||
    (manifest?.version ?? 0) !== input.expected_manifest_version
  ) {
    throw new VaultChanged();
  }
  const files = await trx
    .selectFrom('vault_files')
    .select('id')
    .where('vault_id', '=', vaultId)
    .execute();
  const secrets = await trx
    .selectFrom('secret_items')
    .select(['id', 'revision'])
    .where('vault_id', '=', vaultId)
    .execute();
  const revisions = new Map(secrets.map((s) => [s.id, s.revision]));
  if (
    !sameIds(
      files.map((f) => f.id),
      input.files,
    ) ||
    !sameIds([...revisions.keys()], input.secrets) ||
    input.secrets.some((s) => revisions.get(s.id) !== s.revision)
  ) {
    throw new VaultChanged();
  }
  // An upload still being received or stored carries a file key wrapped under the old master key:
  // one being stored would add a record the new keys cannot open, so the rotation waits for it;
  // the ones still receiving are ended (refused from here on, then swept) and must start again.
  // On PostgreSQL their rows are locked without waiting: the finishing of an upload holds its row
  // and then waits for the vault's (files/uploads.record.ts), so waiting here could deadlock; a
  // row held by another transaction means an upload is being stored, and the rotation is refused.
  let unfinished = trx
    .selectFrom('file_uploads')
    .select('state')
    .where('vault_id', '=', vaultId)
    .where('state', '!=', 'done');
  if (pg) unfinished = unfinished.forUpdate().noWait();
  const uploads = await unfinished.execute();
  if (uploads.some((u) => u.state === 'finishing')) throw new VaultChanged();
  const now = deps.now().toISOString();
  if (uploads.length) {
    await trx
      .updateTable('file_uploads')
      .set({ expires_at: now })
      .where('vault_id', '=', vaultId)
      .where('state', '!=', 'done')
      .execute();
  }

  // The records keep their revision and dates: their contents did not change, only their keys.
  // Many rows per statement (a vault may hold 100,000), every one of them matched or it is refused.
  for (let at = 0; at < input.files.length; at += ROTATION_BATCH_ROWS) {
    const batch = input.files.slice(at, at + ROTATION_BATCH_ROWS);
    const rows = sql.join(
      batch.map((f) => sql`(${f.id}, ${f.wrapped_key}, ${f.enc_meta}, ${f.name_lookup})`),
    );
    const res = await sql`
      with v (id, wrapped_key, enc_meta, name_lookup) as (values ${rows})
      update vault_files
      set wrapped_key = v.wrapped_key, enc_meta = v.enc_meta, name_lookup = v.name_lookup
      from v
      where vault_files.vault_id = ${vaultId} and vault_files.id = v.id`.execute(trx);
    if (Number(res.numAffectedRows) !== batch.length) throw new VaultChanged();
  }
  for (let at = 0; at < input.secrets.length; at += ROTATION_BATCH_ROWS) {
    const batch = input.secrets.slice(at, at + ROTATION_BATCH_ROWS);
    const rows = sql.join(
      batch.map((s) => sql`(${s.id}, cast(${s.revision} as integer), ${s.data})`),
    );
    const res = await sql`
      with v (id, revision, data) as (values ${rows})
      update secret_items
      set data = v.data
      from v
      where secret_items.vault_id = ${vaultId}
        and secret_items.id = v.id
        and secret_items.revision = v.revision`.execute(trx);
    if (Number(res.numAffectedRows) !== batch.length) throw new VaultChanged();
  }
  if (
    !(await repo.replaceKey(trx, userId, vaultId, input.expected_key_revision, input.key, now)) ||
    !(await manifests.writeManifest(
      trx,
      vaultId,
      input.expected_manifest_version,
      input.manifest,
      now,
    ))
  ) {
    throw new VaultChanged();
  }
}

export async function rotateVault(
  deps: Deps,
  userId: string,
  vaultId: string,
  input: RotateVaultRequest,
): Promise<{ vault: Vault; manifest: Manifest }> {
  checkUnique(input);
  try {
    await deps.db.kysely.transaction().execute((trx) => apply(trx, deps, userId, vaultId, input));
  } catch (err) {
    // A new name look-up equal to another file's old one, or an upload row held by its finishing
    // (PostgreSQL's lock_not_available): refused, like any other mismatch.
    if (err instanceof VaultChanged || isUniqueViolation(err) || isLockNotAvailable(err)) {
      throw new ManifestConflict(
        await manifests.findManifest(deps.db.kysely, vaultId),
        ROTATION_CONFLICT_MESSAGE,
      );
    }
    throw err;
  }
  return { vault: await getVault(deps, userId, vaultId), manifest: input.manifest };
}
