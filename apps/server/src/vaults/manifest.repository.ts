// The vault manifest row (ADR 0007): the client's MACed JSON and its version. Callers check that
// the vault is the user's first; every query here is scoped by the vault id.
import type { Kysely, Transaction } from 'kysely';
import type { Manifest } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** The stored manifest, or null while the vault has none. */
export async function findManifest(db: Q, vaultId: string): Promise<Manifest | null> {
  const row = await db
    .selectFrom('vault_manifests')
    .select('manifest')
    .where('vault_id', '=', vaultId)
    .executeTakeFirst();
  // Written only from a parsed manifestSchema value (writeManifest), so it reads back as one.
  return row ? (JSON.parse(row.manifest) as Manifest) : null;
}

/**
 * Compare-and-swap: stores `manifest` if the stored version is `expectedVersion` (0: there is
 * none yet). False when another write got there first. Atomic on its own (a conditional UPDATE,
 * or an INSERT that does nothing on a taken key), so it needs no lock around it.
 */
export async function writeManifest(
  db: Q,
  vaultId: string,
  expectedVersion: number,
  manifest: Manifest,
  now: string,
): Promise<boolean> {
  const values = { version: manifest.version, manifest: JSON.stringify(manifest), updated_at: now };
  if (expectedVersion === 0) {
    const res = await db
      .insertInto('vault_manifests')
      .values({ vault_id: vaultId, ...values })
      .onConflict((oc) => oc.column('vault_id').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const res = await db
    .updateTable('vault_manifests')
    .set(values)
    .where('vault_id', '=', vaultId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
