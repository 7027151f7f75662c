import { describe, expect, it } from 'vitest';
import {
  compareWithManifest,
  describeProblems,
  hiddenIds,
  type ManifestEntries,
} from './problems.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

const manifest: ManifestEntries = {
  vault: {
    name: 'Personal',
    description: '',
    vault_type: 'secrets',
    provider_type: 'server',
    storage_folder: '',
  },
  slots: ['f1'],
  files: [[A, 'da']],
  secrets: [
    [A, 2, 'sa'],
    [B, 1, 'sb'],
  ],
};

describe('compareWithManifest', () => {
  it('finds nothing when the server returns exactly the manifest', () => {
    expect(
      compareWithManifest(manifest, {
        vault: { ...manifest.vault },
        slots: ['f1'],
        files: [{ id: A, digest: 'da' }],
        secrets: [
          { id: B, revision: 1, digest: 'sb' },
          { id: A, revision: 2, digest: 'sa' },
        ],
      }),
    ).toEqual([]);
  });

  it('names a relabelled vault, a changed slot set, and every missing, extra, changed or rolled-back item', () => {
    const problems = compareWithManifest(manifest, {
      vault: { ...manifest.vault, name: 'Work' },
      slots: ['f1', 'f2'],
      files: [{ id: C, digest: 'dc' }],
      secrets: [
        { id: A, revision: 1, digest: 'old' },
        { id: B, revision: 1, digest: 'swapped' },
      ],
    });
    expect(problems).toEqual([
      { kind: 'vault-field', field: 'name', expected: 'Personal', actual: 'Work' },
      { kind: 'slots' },
      { kind: 'extra', item: 'file', id: C },
      { kind: 'missing', item: 'file', id: A },
      { kind: 'rolled-back', item: 'secret', id: A, revision: 1, expected: 2 },
      { kind: 'changed', item: 'secret', id: B },
    ]);
    expect([...hiddenIds(problems)].sort()).toEqual([A, B, C].sort());
    const titles: Record<string, string> = { [A]: 'Bank', [B]: 'Mail', [C]: 'cat.jpg' };
    expect(describeProblems(problems, (id) => titles[id])).toEqual([
      "The server changed this vault's name from “Personal” to “Work”.",
      "This vault's key slots on the server do not match its manifest: a slot was added, removed or replaced outside this app.",
      "The file “cat.jpg” is not in this vault's manifest: the server added it back or made it up. It is not shown.",
      'The secret “Bank” was rolled back by the server to an older version (revision 1; the manifest has revision 2). It is not shown.',
      "The secret “Mail” does not match this vault's manifest: the server changed or swapped it. It is not shown.",
      "A file in this vault's manifest is missing from the server: deleted or withheld outside this app.",
    ]);
  });

  it('counts missing items and names unknown ones generically', () => {
    const problems = compareWithManifest(manifest, { secrets: [] });
    expect(describeProblems(problems, () => undefined)).toEqual([
      "2 secrets in this vault's manifest are missing from the server: deleted or withheld outside this app.",
    ]);
    expect(hiddenIds(problems).size).toBe(0);
  });

  it('checks only the parts it is given', () => {
    expect(compareWithManifest(manifest, { files: [{ id: A, digest: 'da' }] })).toEqual([]);
  });
});
