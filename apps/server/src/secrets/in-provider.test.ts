// [Note: secrets in their provider] (secrets.service.ts, ADR 0008): a secrets vault on another
// provider than ours takes no item on this server; the items it kept here from before are deleted
// all at once, and only once its manifest pins segments; its card counts the manifest's entries.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  removedSecretsResponseSchema,
  secretsResponseSchema,
  SECRETS_IN_PROVIDER_MESSAGE,
  SECRETS_NOT_MOVED_MESSAGE,
  vaultResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, createVault, send as sendAs } from '../testing/vaults.ts';
import { testManifest } from '../vaults/manifest.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);

/** A secrets vault on "This browser" holding `n` items on this server, as made before ADR 0008. */
async function vaultWithServerItems(cookie: string, n: number) {
  const vault = await createVault(t, cookie, { vault_type: 'secrets', provider_type: 'local' });
  const now = new Date().toISOString();
  const ids = Array.from({ length: n }, () => randomUUID());
  if (n > 0)
    await t.db.kysely
      .insertInto('secret_items')
      .values(
        ids.map((id) => ({
          id,
          vault_id: vault,
          data: b64(80),
          revision: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  return { vault, ids };
}

const secretsOf = async (cookie: string, vault: string) =>
  secretsResponseSchema.parse(
    await (await send(cookie, 'GET', `/api/vaults/${vault}/secrets`)).json(),
  ).secrets;

const manifestWith = (over: Parameters<typeof testManifest>[1]) =>
  testManifest(1, {
    vault: {
      name: 'v',
      description: '',
      vault_type: 'secrets',
      provider_type: 'local',
      storage_folder: '',
    },
    ...over,
  });

describe('a secrets vault kept in its provider', () => {
  it('refuses to store a created, updated or imported item, with 409 secrets_in_provider', async () => {
    const u = await createUser(t);
    const { vault, ids } = await vaultWithServerItems(u.cookie, 1);
    const attempts = [
      send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
        id: randomUUID(),
        revision: 1,
        key_revision: 0,
        data: b64(80),
      }),
      send(u.cookie, 'PUT', `/api/vaults/${vault}/secrets/${ids[0]}`, {
        expected_revision: 1,
        key_revision: 0,
        data: b64(80, 2),
      }),
      send(u.cookie, 'POST', `/api/vaults/${vault}/secrets/import`, {
        secrets: [{ id: randomUUID(), revision: 1, data: b64(80) }],
        manifest: { expected_version: 0, manifest: manifestWith({}) },
        key_revision: 0,
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(409);
      expect(errorBodySchema.parse(await res.json()).error).toEqual({
        code: 'secrets_in_provider',
        message: SECRETS_IN_PROVIDER_MESSAGE,
      });
    }
    // Nothing changed: the one item from before, at its revision; no manifest was written.
    expect((await secretsOf(u.cookie, vault)).map((s) => [s.id, s.revision])).toEqual([
      [ids[0], 1],
    ]);
    expect((await send(u.cookie, 'GET', `/api/vaults/${vault}/manifest`)).status).toBe(200);
    const stored = await t.db.kysely.selectFrom('vault_manifests').selectAll().execute();
    expect(stored.filter((m) => m.vault_id === vault)).toEqual([]);
  });

  it('deletes the items kept here only once the manifest pins segments, all at once', async () => {
    const u = await createUser(t);
    const { vault } = await vaultWithServerItems(u.cookie, 3);
    const early = await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets`);
    expect(early.status).toBe(409);
    expect(errorBodySchema.parse(await early.json()).error).toEqual({
      code: 'not_moved',
      message: SECRETS_NOT_MOVED_MESSAGE,
    });
    // A manifest without segments: the items are still the vault's only copy.
    const v1 = manifestWith({});
    expect(
      (
        await send(u.cookie, 'PUT', `/api/vaults/${vault}/manifest`, {
          expected_version: 0,
          manifest: v1,
        })
      ).status,
    ).toBe(200);
    expect((await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets`)).status).toBe(409);
    expect(await secretsOf(u.cookie, vault)).toHaveLength(3);

    const v2 = testManifest(2, {
      vault: v1.vault,
      secrets: [],
      segments: [[randomUUID(), 'a'.repeat(64)]],
    });
    expect(
      (
        await send(u.cookie, 'PUT', `/api/vaults/${vault}/manifest`, {
          expected_version: 1,
          manifest: v2,
        })
      ).status,
    ).toBe(200);
    const moved = await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets`);
    expect(moved.status).toBe(200);
    expect(removedSecretsResponseSchema.parse(await moved.json())).toEqual({ deleted: 3 });
    expect(await secretsOf(u.cookie, vault)).toEqual([]);
    // Again: nothing left, not an error (another device may have finished first).
    const again = await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets`);
    expect(removedSecretsResponseSchema.parse(await again.json())).toEqual({ deleted: 0 });
  });

  it("refuses the bulk delete on our server's own secrets vaults and on another user's", async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const ours = await createVault(t, other.cookie, { vault_type: 'secrets' });
    expect((await send(other.cookie, 'DELETE', `/api/vaults/${ours}/secrets`)).status).toBe(409);
    const { vault } = await vaultWithServerItems(u.cookie, 1);
    expect((await send(other.cookie, 'DELETE', `/api/vaults/${vault}/secrets`)).status).toBe(404);
    expect((await send(u.cookie, 'DELETE', `/api/vaults/not-a-vault/secrets`)).status).toBe(404);
    expect(await secretsOf(u.cookie, vault)).toHaveLength(1);
  });

  it("counts a moved vault's items from its manifest on the card", async () => {
    const u = await createUser(t);
    const { vault } = await vaultWithServerItems(u.cookie, 2);
    const entry = (n: number): [string, number, string] => [randomUUID(), 1, String(n).repeat(32)];
    const card = async () =>
      vaultResponseSchema.parse(await (await send(u.cookie, 'GET', `/api/vaults/${vault}`)).json())
        .vault.secrets_count;
    expect(await card()).toBe(2);
    const manifest = manifestWith({
      secrets: [entry(1), entry(2), entry(3)].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      segments: [[randomUUID(), 'b'.repeat(64)]],
    });
    const put = await send(u.cookie, 'PUT', `/api/vaults/${vault}/manifest`, {
      expected_version: 0,
      manifest,
    });
    expect(put.status, await put.text()).toBe(200);
    expect(await card()).toBe(3);
  });
});
