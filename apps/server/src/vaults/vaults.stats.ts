// The counts a vault card shows while locked (docs/product.md §2): secrets_count, file_count and total_size
// (bytes of ciphertext). One grouped query per kind for any number of vaults, never one per vault.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { countItemsByVault } from '../secrets/secrets.repository.ts';
import { fileStatsByVault } from '../files/files.repository.ts';
import type { VaultStats } from './vaults.repository.ts';

export async function statsByVault(
  db: Kysely<Database>,
  vaultIds: string[],
): Promise<Map<string, VaultStats>> {
  const secrets = await countItemsByVault(db, vaultIds);
  const files = await fileStatsByVault(db, vaultIds);
  return new Map(
    vaultIds.map((id) => [
      id,
      { secrets_count: secrets.get(id) ?? 0, file_count: 0, total_size: 0, ...files.get(id) },
    ]),
  );
}
