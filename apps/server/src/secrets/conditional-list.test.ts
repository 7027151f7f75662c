// [Note: conditional secrets list] in secrets.routes.ts: the secrets list's ETag comes from its
// vault's items tag, which the database's triggers replace on any write of the vault's items, on
// SQLite and PostgreSQL alike (items-tag.migration.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, createVault, send } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const list = (cookie: string, vault: string, ifNoneMatch?: string) =>
  t.request(`/api/vaults/${vault}/secrets`, {
    headers: { cookie, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
  });

const item = (vault: string, n: number) => ({
  id: randomUUID(),
  vault_id: vault,
  data: b64(40 + n, n),
  revision: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

async function vaultWithItem() {
  const u = await createUser(t);
  const vault = await createVault(t, u.cookie, { vault_type: 'secrets' });
  const first = item(vault, 1);
  await t.db.kysely.insertInto('secret_items').values(first).execute();
  return { u, vault, first };
}

/** The list's ETag now; fails if it has none. */
async function etag(cookie: string, vault: string): Promise<string> {
  const res = await list(cookie, vault);
  expect(res.status).toBe(200);
  const tag = res.headers.get('etag');
  expect(tag).toMatch(/^"s1-[0-9a-f]{16}"$/);
  return tag!;
}

describe('the secrets list, asked again', () => {
  it('has no ETag before its vault held an item, so nothing is kept', async () => {
    const u = await createUser(t);
    const vault = await createVault(t, u.cookie, { vault_type: 'secrets' });
    const res = await list(u.cookie, vault);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    expect(secretsResponseSchema.parse(await res.json()).secrets).toEqual([]);
  });

  it('answers 304 with no body while nothing changed, and keeps the browser asking', async () => {
    const { u, vault } = await vaultWithItem();
    const tag = await etag(u.cookie, vault);
    const again = await list(u.cookie, vault, tag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    // A weak form (a gzipped answer's) and a list of tags match too; another tag does not.
    expect((await list(u.cookie, vault, `W/${tag}`)).status).toBe(304);
    expect((await list(u.cookie, vault, `"s1-0000000000000000", ${tag}`)).status).toBe(304);
    const other = await list(u.cookie, vault, '"s1-0000000000000000"');
    expect(other.status).toBe(200);
    expect(secretsResponseSchema.parse(await other.json()).secrets).toHaveLength(1);
  });

  it('changes with every write of the routes: create, update, delete', async () => {
    const { u, vault, first } = await vaultWithItem();
    const tags = [await etag(u.cookie, vault)];
    const id = randomUUID();
    const made = await send(t, u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id,
      revision: 1,
      data: b64(60, 7),
      key_revision: 0,
    });
    expect(made.status).toBe(201);
    tags.push(await etag(u.cookie, vault));
    const changed = await send(t, u.cookie, 'PUT', `/api/vaults/${vault}/secrets/${id}`, {
      expected_revision: 1,
      data: b64(60, 8),
      key_revision: 0,
    });
    expect(changed.status).toBe(200);
    tags.push(await etag(u.cookie, vault));
    expect(
      (await send(t, u.cookie, 'DELETE', `/api/vaults/${vault}/secrets/${first.id}`)).status,
    ).toBe(204);
    tags.push(await etag(u.cookie, vault));
    expect(new Set(tags).size).toBe(4);
    // The first tag now gets the current list, not a 304.
    const res = await list(u.cookie, vault, tags[0]);
    expect(res.status).toBe(200);
    const listed = secretsResponseSchema.parse(await res.json()).secrets;
    expect(listed.map((s) => [s.id, s.revision])).toEqual([[id, 2]]);
  });

  it('changes with writes that bypass the routes (key rotation, moves, imports: any statement)', async () => {
    const { u, vault, first } = await vaultWithItem();
    const before = await etag(u.cookie, vault);
    // Several rows in one statement (an import).
    await t.db.kysely
      .insertInto('secret_items')
      .values([item(vault, 2), item(vault, 3), item(vault, 4)])
      .execute();
    const imported = await etag(u.cookie, vault);
    expect(imported).not.toBe(before);
    // Every item re-encrypted (a key rotation).
    await t.db.kysely
      .updateTable('secret_items')
      .set({ data: b64(50, 9) })
      .where('vault_id', '=', vault)
      .execute();
    const rotated = await etag(u.cookie, vault);
    expect(rotated).not.toBe(imported);
    // Deleted all at once (removeMovedSecrets).
    await t.db.kysely.deleteFrom('secret_items').where('vault_id', '=', vault).execute();
    const emptied = await etag(u.cookie, vault);
    expect(emptied).not.toBe(rotated);
    expect(secretsResponseSchema.parse(await (await list(u.cookie, vault)).json()).secrets).toEqual(
      [],
    );
    expect(first.id).toBeTruthy();
  });

  it("touches only the written vault's tag; one statement across two vaults changes both", async () => {
    const a = await vaultWithItem();
    const b = await vaultWithItem();
    const [tagA, tagB] = [await etag(a.u.cookie, a.vault), await etag(b.u.cookie, b.vault)];
    await t.db.kysely.insertInto('secret_items').values(item(a.vault, 5)).execute();
    expect(await etag(a.u.cookie, a.vault)).not.toBe(tagA);
    expect(await etag(b.u.cookie, b.vault)).toBe(tagB);
    const [nowA, nowB] = [await etag(a.u.cookie, a.vault), tagB];
    await t.db.kysely
      .updateTable('secret_items')
      .set({ revision: 2 })
      .where('id', 'in', [a.first.id, b.first.id])
      .execute();
    expect(await etag(a.u.cookie, a.vault)).not.toBe(nowA);
    expect(await etag(b.u.cookie, b.vault)).not.toBe(nowB);
  });

  it("answers 404 for another user's vault, whatever tag is sent", async () => {
    const { u, vault } = await vaultWithItem();
    const tag = await etag(u.cookie, vault);
    const other = await createUser(t);
    expect((await list(other.cookie, vault, tag)).status).toBe(404);
    expect((await list(other.cookie, vault, '*')).status).toBe(404);
  });

  it('deletes a vault with items (the triggers follow the cascade)', async () => {
    const { u, vault } = await vaultWithItem();
    await t.db.kysely.insertInto('secret_items').values(item(vault, 6)).execute();
    await t.db.kysely.deleteFrom('vaults').where('id', '=', vault).execute();
    expect((await list(u.cookie, vault)).status).toBe(404);
  });
});
