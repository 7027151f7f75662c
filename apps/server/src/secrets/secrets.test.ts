import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  secretConflictSchema,
  secretResponseSchema,
  secretsResponseSchema,
  vaultResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64 as b64Of, createVault, send as sendAs } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const b64 = (n: number, fill = 1) => b64Of(n, fill);
const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);
const newVault = (cookie: string, vault_type: 'files' | 'secrets' = 'secrets') =>
  createVault(t, cookie, { vault_type });

describe('secrets', () => {
  it('creates, lists, updates with the expected revision and deletes a secret', async () => {
    const u = await createUser(t);
    const vault = await newVault(u.cookie);
    const id = randomUUID();
    const created = await send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id,
      revision: 1,
      key_revision: 0,
      data: b64(80),
    });
    expect(created.status).toBe(201);
    expect(secretResponseSchema.parse(await created.json()).secret).toMatchObject({
      id,
      revision: 1,
      data: b64(80),
    });

    const updated = await send(u.cookie, 'PUT', `/api/vaults/${vault}/secrets/${id}`, {
      expected_revision: 1,
      key_revision: 0,
      data: b64(80, 2),
    });
    expect(secretResponseSchema.parse(await updated.json()).secret).toMatchObject({
      revision: 2,
      data: b64(80, 2),
    });

    const list = secretsResponseSchema.parse(
      await (await send(u.cookie, 'GET', `/api/vaults/${vault}/secrets`)).json(),
    );
    expect(list.secrets.map((s) => [s.id, s.revision])).toEqual([[id, 2]]);
    const card = vaultResponseSchema.parse(
      await (await send(u.cookie, 'GET', `/api/vaults/${vault}`)).json(),
    );
    expect(card.vault.secrets_count).toBe(1);

    expect((await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets/${id}`)).status).toBe(204);
    const again = await send(u.cookie, 'DELETE', `/api/vaults/${vault}/secrets/${id}`);
    expect(again.status).toBe(404);
    expect(errorBodySchema.parse(await again.json()).error.message).toBe('Secret not found');
  });

  it('refuses a stale revision with 409 and the newer version, overwriting nothing', async () => {
    const u = await createUser(t);
    const vault = await newVault(u.cookie);
    const id = randomUUID();
    await send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id,
      revision: 1,
      key_revision: 0,
      data: b64(80),
    });
    const tabA = await send(u.cookie, 'PUT', `/api/vaults/${vault}/secrets/${id}`, {
      expected_revision: 1,
      key_revision: 0,
      data: b64(80, 3),
    });
    expect(tabA.status).toBe(200);
    const tabB = await send(u.cookie, 'PUT', `/api/vaults/${vault}/secrets/${id}`, {
      expected_revision: 1,
      key_revision: 0,
      data: b64(80, 4),
    });
    expect(tabB.status).toBe(409);
    const conflict = secretConflictSchema.parse(await tabB.json());
    expect(conflict.current).toMatchObject({ revision: 2, data: b64(80, 3) });
    const stored = secretsResponseSchema.parse(
      await (await send(u.cookie, 'GET', `/api/vaults/${vault}/secrets`)).json(),
    );
    expect(stored.secrets[0]?.data).toBe(b64(80, 3));
  });

  it("answers 404 for another user's vault and secrets, on every route", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const vault = await newVault(owner.cookie);
    const id = randomUUID();
    await send(owner.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id,
      revision: 1,
      key_revision: 0,
      data: b64(80),
    });
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/vaults/${vault}/secrets`],
      [
        'POST',
        `/api/vaults/${vault}/secrets`,
        { id: randomUUID(), revision: 1, key_revision: 0, data: b64(80) },
      ],
      [
        'PUT',
        `/api/vaults/${vault}/secrets/${id}`,
        { expected_revision: 1, key_revision: 0, data: b64(80, 9) },
      ],
      ['DELETE', `/api/vaults/${vault}/secrets/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      expect((await send(other.cookie, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const stored = secretsResponseSchema.parse(
      await (await send(owner.cookie, 'GET', `/api/vaults/${vault}/secrets`)).json(),
    );
    expect(stored.secrets).toHaveLength(1);
    expect(stored.secrets[0]?.data).toBe(b64(80));
  });

  it('validates input with clear 4xx answers', async () => {
    const u = await createUser(t);
    const vault = await newVault(u.cookie);
    const filesVault = await newVault(u.cookie, 'files');
    const bad: unknown[] = [
      { id: 'nope', revision: 1, key_revision: 0, data: b64(80) },
      { id: randomUUID(), revision: 2, data: b64(80) },
      { id: randomUUID(), revision: 1, key_revision: 0, data: 'not base64!' },
      { id: randomUUID(), revision: 1, key_revision: 0, data: b64(70_000) },
    ];
    for (const body of bad) {
      expect((await send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, body)).status).toBe(400);
    }
    const wrongKind = await send(u.cookie, 'POST', `/api/vaults/${filesVault}/secrets`, {
      id: randomUUID(),
      revision: 1,
      key_revision: 0,
      data: b64(80),
    });
    expect(wrongKind.status).toBe(400);
    expect((await send(u.cookie, 'GET', `/api/vaults/not-a-uuid/secrets`)).status).toBe(404);
    expect((await t.request(`/api/vaults/${vault}/secrets`)).status).toBe(401);
  });

  it('deleting the vault deletes its secrets', async () => {
    const u = await createUser(t);
    const vault = await newVault(u.cookie);
    await send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id: randomUUID(),
      revision: 1,
      key_revision: 0,
      data: b64(80),
    });
    expect((await send(u.cookie, 'DELETE', `/api/vaults/${vault}`)).status).toBe(204);
    const left = await t.db.kysely
      .selectFrom('secret_items')
      .select('id')
      .where('vault_id', '=', vault)
      .execute();
    expect(left).toEqual([]);
  });
});
