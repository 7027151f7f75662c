// [Note: prepared queries] in prepared.ts, on the test database (SQLite, or PostgreSQL where
// TEST_DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault } from '../testing/vaults.ts';
import { KEPT_LIST_LENGTH, prepared } from './prepared.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A user's vaults of one type, with a constant of the query's own beside the arguments. */
const vaultsOfType = prepared((db, a: { userId: string; type: string }) =>
  db
    .selectFrom('vaults')
    .select(['id', 'vault_type'])
    .where('user_id', '=', a.userId)
    .where('vault_type', '=', a.type)
    .where('provider_type', '=', 'server')
    .orderBy('id'),
);

describe('a prepared query', () => {
  it("answers each run's own arguments, as the built query does", async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const aFiles = await createVault(t, a.cookie, { vault_type: 'files' });
    const aSecrets = await createVault(t, a.cookie, { vault_type: 'secrets' });
    const bFiles = await createVault(t, b.cookie, { vault_type: 'files' });
    const db = t.db.kysely;
    const built = (userId: string, type: string) =>
      db
        .selectFrom('vaults')
        .select(['id', 'vault_type'])
        .where('user_id', '=', userId)
        .where('vault_type', '=', type)
        .where('provider_type', '=', 'server')
        .orderBy('id')
        .execute();

    expect(await vaultsOfType(db, { userId: a.id, type: 'files' })).toEqual([
      { id: aFiles, vault_type: 'files' },
    ]);
    // The second run takes its own arguments, not the first's.
    expect(await vaultsOfType(db, { userId: a.id, type: 'secrets' })).toEqual([
      { id: aSecrets, vault_type: 'secrets' },
    ]);
    expect(await vaultsOfType(db, { userId: b.id, type: 'files' })).toEqual(
      await built(b.id, 'files'),
    );
    expect(await vaultsOfType(db, { userId: b.id, type: 'files' })).toEqual([
      { id: bFiles, vault_type: 'files' },
    ]);
    expect(await vaultsOfType(db, { userId: 'nobody', type: 'files' })).toEqual([]);
  });

  it('runs inside a transaction and sees its writes', async () => {
    const u = await createUser(t);
    const vault = await createVault(t, u.cookie, { vault_type: 'files' });
    await t.db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('vaults')
          .set({ vault_type: 'secrets' })
          .where('id', '=', vault)
          .execute();
        expect(await vaultsOfType(trx, { userId: u.id, type: 'secrets' })).toEqual([
          { id: vault, vault_type: 'secrets' },
        ]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await vaultsOfType(t.db.kysely, { userId: u.id, type: 'files' })).toEqual([
      { id: vault, vault_type: 'files' },
    ]);
  });

  it('takes a list for `in`, one template per length, and each run its own elements', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const ids = [
      await createVault(t, u.cookie, { vault_type: 'files' }),
      await createVault(t, u.cookie, { vault_type: 'secrets' }),
      await createVault(t, other.cookie, { vault_type: 'files' }),
    ];
    const byIds = prepared((db, a: { ids: string[] }) =>
      db.selectFrom('vaults').select('id').where('id', 'in', a.ids).orderBy('id'),
    );
    const db = t.db.kysely;
    const sorted = (xs: string[]) => [...xs].sort().map((id) => ({ id }));
    expect(await byIds(db, { ids: [ids[0]!] })).toEqual(sorted([ids[0]!]));
    expect(await byIds(db, { ids: [ids[1]!] })).toEqual(sorted([ids[1]!]));
    expect(await byIds(db, { ids })).toEqual(sorted(ids));
    expect(await byIds(db, { ids: [ids[2]!, 'none'] })).toEqual(sorted([ids[2]!]));
    // Longer than the templates kept: built for the run, the same answer.
    const many = [...ids, ...Array.from({ length: KEPT_LIST_LENGTH }, (_, i) => `x${i}`)];
    expect(await byIds(db, { ids: many })).toEqual(sorted(ids));
  });

  it('refuses a query that leaves an argument out of its parameters', async () => {
    const ignoring = prepared((db, a: { userId: string; unused: string }) =>
      db.selectFrom('vaults').select('id').where('user_id', '=', a.userId),
    );
    await expect(ignoring(t.db.kysely, { userId: 'x', unused: 'y' })).rejects.toThrow(
      /not a parameter of the query: unused/,
    );
  });
});
