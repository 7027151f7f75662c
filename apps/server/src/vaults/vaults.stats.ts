// The counts a vault card shows while locked (docs/product.md §2): secrets_count, file_count and total_size
// (bytes of ciphertext). One grouped query per kind for any number of vaults, never one per vault.
// A secrets vault whose items live in its provider ([Note: secrets in their provider] in
// secrets.service.ts) is counted from its manifest's entries: this server holds none of its items.
import type { Kysely } from 'kysely';
import type { Manifest } from '@sealvault/protocol';
import type { Database } from '../db/schema.ts';
import { countItemsByVault } from '../secrets/secrets.repository.ts';
import { fileStatsByVault } from '../files/files.repository.ts';
import type { VaultStats } from './vaults.repository.ts';

/** Items pinned by the manifests of secrets vaults kept in their provider, by vault id. */
async function itemsInProviders(
  db: Kysely<Database>,
  vaultIds: string[],
): Promise<Map<string, number>> {
  if (vaultIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('vault_manifests')
    .innerJoin('vaults', 'vaults.id', 'vault_manifests.vault_id')
    .select(['vault_manifests.vault_id', 'vault_manifests.manifest'])
    .where('vault_manifests.vault_id', 'in', vaultIds)
    .where('vaults.vault_type', '=', 'secrets')
    .where('vaults.provider_type', '!=', 'server')
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) {
    const manifest = JSON.parse(row.manifest) as Manifest;
    if (manifest.segments) counts.set(row.vault_id, manifest.secrets.length);
  }
  return counts;
}

/** What statsByVault needs to know of a vault: which kinds of rows can hold its counts. */
export interface StatsOf {
  id: string;
  vault_type: string;
  provider_type: string;
}

/**
 * The counts of `vaults`. Only the queries that can find rows run (issue 31, the vault list's
 * CPU): items for secrets vaults, manifests for those kept in a provider, files for files vaults
 * (a secrets vault never holds files, a files vault never items: their routes refuse them).
 */
export async function statsByVault(
  db: Kysely<Database>,
  vaults: StatsOf[],
): Promise<Map<string, VaultStats>> {
  if (vaults.length === 0) return new Map();
  const ids = (keep: (v: StatsOf) => boolean) => vaults.filter(keep).map((v) => v.id);
  const secretVaults = ids((v) => v.vault_type === 'secrets');
  const secrets = await countItemsByVault(db, secretVaults);
  const inProviders = await itemsInProviders(
    db,
    ids((v) => v.vault_type === 'secrets' && v.provider_type !== 'server'),
  );
  const files = await fileStatsByVault(
    db,
    ids((v) => v.vault_type !== 'secrets'),
  );
  return new Map(
    vaults.map(({ id }) => [
      id,
      {
        secrets_count: inProviders.get(id) ?? secrets.get(id) ?? 0,
        file_count: 0,
        total_size: 0,
        ...files.get(id),
      },
    ]),
  );
}
