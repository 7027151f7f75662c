import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SecretRecord } from '@sealvault/protocol';

// The Worker is replaced by a decryptor that records what it was asked to open: a record's
// "ciphertext" here is its title, and "bad" does not open.
const opened: string[] = [];
vi.mock('../crypto/items.ts', () => ({
  itemCrypto: {
    decryptMany: (_vault: string, items: { data: string }[]) => {
      opened.push(...items.map((i) => i.data));
      return Promise.resolve(
        items.map((i) =>
          i.data === 'bad'
            ? null
            : { title: i.data, username: '', password: '', url: '', notes: '' },
        ),
      );
    },
  },
}));

const { decryptAll, patched } = await import('./useSecrets.ts');

const VAULT = 'v';
const record = (id: string, revision: number, data: string): SecretRecord => ({
  id,
  revision,
  data,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const fields = (title: string) => ({ title, username: '', password: '', url: '', notes: '' });
const load = (records: SecretRecord[]) => ({ records, problems: [], holder: 'the server' });

describe('the secrets list', () => {
  beforeEach(() => {
    opened.length = 0;
  });

  it('decrypts only the records it has not decrypted before, and sorts by title', async () => {
    const first = await decryptAll(
      VAULT,
      load([record('a', 1, 'Zeta'), record('b', 1, 'alpha'), record('c', 1, 'bad')]),
    );
    expect(first.secrets.map((s) => s.title)).toEqual(['alpha', 'Zeta']);
    expect(first.unreadable).toBe(1);
    opened.length = 0;
    // b changed (new revision and ciphertext), a kept, c still unreadable, d new.
    const second = await decryptAll(
      VAULT,
      load([
        record('a', 1, 'Zeta'),
        record('b', 2, 'Beta'),
        record('c', 1, 'bad'),
        record('d', 1, 'delta'),
      ]),
      first,
    );
    expect(opened.sort()).toEqual(['Beta', 'bad', 'delta']);
    expect(second.secrets.map((s) => [s.title, s.revision])).toEqual([
      ['Beta', 2],
      ['delta', 1],
      ['Zeta', 1],
    ]);
  });

  it('opens a record again when its ciphertext differs at the same revision', async () => {
    const first = await decryptAll(VAULT, load([record('a', 1, 'one')]));
    opened.length = 0;
    const second = await decryptAll(VAULT, load([record('a', 1, 'other')]), first);
    expect(opened).toEqual(['other']);
    expect(second.secrets[0]?.title).toBe('other');
  });

  it('reuses an item opened early only for a listed record with the same id, revision and ciphertext', async () => {
    // [Note: early secrets opening]: what was opened before the manifest check, from records
    // the server or the provider sent early (here the early fields say "early ...").
    const early = new Map([
      ['a', { revision: 1, data: 'alpha', fields: fields('early alpha') }],
      ['b', { revision: 1, data: 'beta', fields: fields('early beta') }], // listed at revision 2
      ['c', { revision: 1, data: 'old', fields: fields('early gamma') }], // other ciphertext
      ['x', { revision: 1, data: 'extra', fields: fields('early extra') }], // not listed
    ]);
    const list = await decryptAll(
      VAULT,
      load([record('a', 1, 'alpha'), record('b', 2, 'beta'), record('c', 1, 'gamma')]),
      undefined,
      early,
    );
    expect(opened.sort()).toEqual(['beta', 'gamma']);
    expect(list.secrets.map((s) => [s.id, s.title, s.revision])).toEqual([
      ['b', 'beta', 2],
      ['a', 'early alpha', 1],
      ['c', 'gamma', 1],
    ]);
    expect(list.ciphers.get('a')).toBe('alpha');
  });

  it('shows no item opened early whose record the manifest check refused', async () => {
    const early = new Map([['a', { revision: 1, data: 'alpha', fields: fields('alpha') }]]);
    const list = await decryptAll(
      VAULT,
      {
        records: [record('a', 1, 'alpha')],
        problems: [{ kind: 'changed', item: 'secret', id: 'a' }],
        holder: 'the server',
      },
      undefined,
      early,
    );
    expect(list.secrets).toEqual([]);
    expect(list.integrity).toHaveLength(1);
  });

  it('puts a change in place at once and keeps its ciphertext for the next read', async () => {
    const list = await decryptAll(VAULT, load([record('a', 1, 'alpha'), record('b', 1, 'beta')]));
    const edited = { ...list.secrets[1]!, title: 'Aardvark', revision: 2 };
    const after = patched(list, 'b', { secret: edited, data: 'Aardvark' });
    expect(after.secrets.map((s) => s.title)).toEqual(['Aardvark', 'alpha']);
    opened.length = 0;
    await decryptAll(VAULT, load([record('a', 1, 'alpha'), record('b', 2, 'Aardvark')]), after);
    expect(opened).toEqual([]);
    expect(patched(after, 'a', null).secrets.map((s) => s.id)).toEqual(['b']);
  });
});
