import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, createVault, send } from '../testing/vaults.ts';
import { listItems, listItemsJsonSqlite, toRecord } from './secrets.repository.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A secrets vault with six items: equal creation times (ordered by id), distinct revisions. */
async function vaultWithItems() {
  const u = await createUser(t);
  const vault = await createVault(t, u.cookie, { vault_type: 'secrets' });
  // Equal creation times are ordered by id; revisions are numbers, not text.
  const times = ['2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z'];
  const rows = Array.from({ length: 6 }, (_, i) => ({
    id: randomUUID(),
    vault_id: vault,
    data: b64(40 + i, i + 1),
    revision: i + 1,
    created_at: times[i % 2] ?? '',
    updated_at: '2026-01-03T00:00:00.000Z',
  }));
  await t.db.kysely.insertInto('secret_items').values(rows).execute();
  return { u, vault, rows };
}

// [Note: secrets list as SQLite JSON] in secrets.repository.ts.
describe('the secrets list', () => {
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'built by SQLite is the text JSON.stringify writes for the same items, in the same order',
    async () => {
      const empty = await createVault(t, (await createUser(t)).cookie, { vault_type: 'secrets' });
      expect(await listItemsJsonSqlite(t.db.kysely, empty)).toBe('[]');
      const { vault } = await vaultWithItems();
      const json = await listItemsJsonSqlite(t.db.kysely, vault);
      const expected = JSON.stringify((await listItems(t.db.kysely, vault)).map(toRecord));
      expect(json).toBe(expected);
    },
  );

  it('is answered as JSON in creation order, then by id', async () => {
    const { u, vault, rows } = await vaultWithItems();
    const res = await send(t, u.cookie, 'GET', `/api/vaults/${vault}/secrets`);
    expect(res.headers.get('content-type')).toBe('application/json');
    const listed = secretsResponseSchema.parse(await res.json()).secrets;
    expect(listed.map((s) => s.id)).toEqual(
      [...rows]
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
        .map((r) => r.id),
    );
  });

  it("answers 404 for another user's vault", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const vault = await createVault(t, owner.cookie, { vault_type: 'secrets' });
    const res = await send(t, other.cookie, 'GET', `/api/vaults/${vault}/secrets`);
    expect(res.status).toBe(404);
  });
});
