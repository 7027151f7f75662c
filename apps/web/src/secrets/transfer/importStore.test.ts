import { itemEntryDigest } from '@sealvault/crypto';
import { describe, expect, it } from 'vitest';
import { entriesWithAdded } from './importStore.ts';

const vault = {
  name: 'Logins',
  description: '',
  vault_type: 'secrets' as const,
  provider_type: 'server' as const,
  storage_folder: '',
};
const data = (fill: number) => Buffer.alloc(60, fill).toString('base64');

describe('entriesWithAdded', () => {
  it('adds every new secret at revision 1 with its digest, sorted by id, keeping the rest', async () => {
    const kept: [string, number, string][] = [
      ['5aaaaaaa-0000-4000-8000-000000000000', 3, 'ab'.repeat(16)],
    ];
    const added = [
      { id: '9bbbbbbb-0000-4000-8000-000000000000', revision: 1 as const, data: data(1) },
      { id: '1ccccccc-0000-4000-8000-000000000000', revision: 1 as const, data: data(2) },
    ];
    const next = await entriesWithAdded(
      { vault, slots: ['f'.repeat(64)], files: [], secrets: kept },
      added,
    );
    expect(next.secrets).toEqual([
      [added[1]!.id, 1, await itemEntryDigest(added[1]!)],
      kept[0],
      [added[0]!.id, 1, await itemEntryDigest(added[0]!)],
    ]);
    expect(next.vault).toEqual(vault);
    expect(next.slots).toEqual(['f'.repeat(64)]);
  });
});
