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

export async function statsByVault(
  db: Kysely<Database>,
  vaultIds: string[],
): Promise<Map<string, VaultStats>> {
  if (vaultIds.length === 0) return new Map();
  const secrets = await countItemsByVault(db, vaultIds);
  const inProviders = await itemsInProviders(db, vaultIds);
  const files = await fileStatsByVault(db, vaultIds);
  return new Map(
    vaultIds.map((id) => [
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
