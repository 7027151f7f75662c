import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  FREE_PLAN_ONE_OF_EACH,
  limitsSchema,
  messages,
  ONE_SLOT_PER_KIND_MESSAGE,
  vaultResponseSchema,
  vaultsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, send as sendAs, setPlan as setPlanOf, vaultRequest } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const vaultInput = vaultRequest;
const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);
const setPlan = (userId: string, plan: string) => setPlanOf(t, userId, plan);

describe('vault lifecycle', () => {
  it('creates, lists, reads, renames, changes the key and deletes a vault', async () => {
    const u = await createUser(t);
    const input = vaultInput();
    const created = await send(u.cookie, 'POST', '/api/vaults', input);
    expect(created.status).toBe(201);
    const { vault } = vaultResponseSchema.parse(await created.json());
    expect(vault).toMatchObject({
      id: input.id,
      name: input.name,
      is_hidden: false,
      last_accessed: null,
      key_revision: 0,
    });
    expect(vault.key).toEqual(input.key);

    const list = vaultsResponseSchema.parse(
      await (await send(u.cookie, 'GET', '/api/vaults')).json(),
    );
    expect(list.vaults.map((v) => v.id)).toEqual([input.id]);

    const renamed = await send(u.cookie, 'PATCH', `/api/vaults/${input.id}`, { name: 'Taxes' });
    expect(vaultResponseSchema.parse(await renamed.json()).vault.name).toBe('Taxes');

    // ADR 0007: the server is no longer told when a vault is unlocked.
    const accessed = await send(u.cookie, 'POST', `/api/vaults/${input.id}/access`);
    expect(accessed.status).toBe(404);
    const read = vaultResponseSchema.parse(
      await (await send(u.cookie, 'GET', `/api/vaults/${input.id}`)).json(),
    );
    expect(read.vault.last_accessed).toBeNull();

    const newKey = {
      ...input.key,
      slots: [{ ...input.key.slots[0]!, salt: b64(16).replace('B', 'C') }],
    };
    const changed = await send(u.cookie, 'PUT', `/api/vaults/${input.id}/key`, {
      expected_revision: 0,
      key: newKey,
    });
    expect(changed.status).toBe(200);
    expect(vaultResponseSchema.parse(await changed.json()).vault).toMatchObject({
      key_revision: 1,
      key: newKey,
    });

    const twoPasswords = await send(u.cookie, 'PUT', `/api/vaults/${input.id}/key`, {
      expected_revision: 1,
      key: { ...newKey, slots: [newKey.slots[0], { ...newKey.slots[0], id: 'pw2' }] },
    });
    expect(twoPasswords.status).toBe(400);
    expect(errorBodySchema.parse(await twoPasswords.json()).error.message).toBe(
      `key.slots: ${ONE_SLOT_PER_KIND_MESSAGE}`,
    );

    const stale = await send(u.cookie, 'PUT', `/api/vaults/${input.id}/key`, {
      expected_revision: 0,
      key: input.key,
    });
    expect(stale.status).toBe(409);

    expect((await send(u.cookie, 'DELETE', `/api/vaults/${input.id}`)).status).toBe(204);
    expect((await send(u.cookie, 'GET', `/api/vaults/${input.id}`)).status).toBe(404);
  });

  it('refuses bad input with a 400 that names the field, never a 500', async () => {
    const u = await createUser(t);
    const cases: unknown[] = [
      { ...vaultInput(), name: '   ' },
      { ...vaultInput(), vault_type: 'photos' },
      { ...vaultInput(), id: 'not-a-uuid' },
      { ...vaultInput(), key: { format: 'vf1', slots: [] } },
      {
        ...vaultInput(),
        key: { format: 'vf1', slots: [{ ...vaultInput().key.slots[0], salt: '%%%' }] },
      },
    ];
    for (const body of cases) {
      const res = await send(u.cookie, 'POST', '/api/vaults', body);
      expect(res.status).toBe(400);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('bad_request');
    }
    const notJson = await t.request('/api/vaults', {
      method: 'POST',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('requires a signed-in user', async () => {
    expect((await t.request('/api/vaults')).status).toBe(401);
    expect((await t.request('/api/limits')).status).toBe(401);
    expect((await t.request('/api/vaults', { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('refuses a second vault with the same id', async () => {
    const u = await createUser(t);
    const input = vaultInput();
    expect((await send(u.cookie, 'POST', '/api/vaults', input)).status).toBe(201);
    expect((await send(u.cookie, 'POST', '/api/vaults', input)).status).toBe(409);
  });
});

describe('ownership', () => {
  it("answers 404 on every route for another user's vault and never lists it", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const input = vaultInput();
    await send(owner.cookie, 'POST', '/api/vaults', input);
    const base = `/api/vaults/${input.id}`;
    const attempts: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { name: 'mine now' }],
      ['GET', `${base}/manifest`],
      ['PUT', `${base}/key`, { expected_revision: 0, key: input.key }],
      ['DELETE', base],
    ];
    for (const [method, path, body] of attempts) {
      const res = await send(other.cookie, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(messages.vaults.notFound);
    }
    const list = vaultsResponseSchema.parse(
      await (await send(other.cookie, 'GET', '/api/vaults')).json(),
    );
    expect(list.vaults).toEqual([]);
    const mine = vaultResponseSchema.parse(await (await send(owner.cookie, 'GET', base)).json());
    expect(mine.vault).toMatchObject({ name: input.name, key_revision: 0 });
  });
});

describe('plan limits', () => {
  it('lets exactly max_vaults of 20 parallel creates through on the free plan', async () => {
    const u = await createUser(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(
          u.cookie,
          'POST',
          '/api/vaults',
          vaultInput({ vault_type: i % 2 ? 'secrets' : 'files' }),
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 403)).toHaveLength(18);
    // Which refusal a request meets depends on how far the others got: a second vault of a
    // kind already held, or any vault once both are held.
    for (const refused of results.filter((r) => r.status === 403)) {
      const { error } = errorBodySchema.parse(await refused.json());
      expect(error.code).toBe('limit_reached');
      expect([messages.vaults.limitReached, FREE_PLAN_ONE_OF_EACH]).toContain(error.message);
    }
    const kinds = vaultsResponseSchema
      .parse(await (await send(u.cookie, 'GET', '/api/vaults')).json())
      .vaults.map((v) => v.vault_type)
      .sort();
    expect(kinds).toEqual(['files', 'secrets']);
  });

  it('holds the Free plan to one file vault and one secrets vault (spec §9), and says so', async () => {
    const u = await createUser(t);
    expect((await send(u.cookie, 'POST', '/api/vaults', vaultInput())).status).toBe(201);
    const second = await send(u.cookie, 'POST', '/api/vaults', vaultInput());
    expect(second.status).toBe(403);
    expect(errorBodySchema.parse(await second.json()).error).toEqual({
      code: 'limit_reached',
      message: FREE_PLAN_ONE_OF_EACH,
    });
    const secrets = await send(
      u.cookie,
      'POST',
      '/api/vaults',
      vaultInput({ vault_type: 'secrets' }),
    );
    expect(secrets.status).toBe(201);
    // A paid plan has no such rule.
    await setPlan(u.id, 'basic');
    expect((await send(u.cookie, 'POST', '/api/vaults', vaultInput())).status).toBe(201);
  });

  it('treats -1 as unlimited', async () => {
    const u = await createUser(t);
    await setPlan(u.id, 'unlimited');
    const limits = limitsSchema.parse(await (await send(u.cookie, 'GET', '/api/limits')).json());
    expect(limits).toEqual({
      plan_id: 'unlimited',
      max_vaults: -1,
      max_file_size_mb: -1,
      plan_name: 'Unlimited',
      max_storage_mb: -1,
      max_share_links: -1,
      max_share_mb: -1,
      storage_used_bytes: 0,
    });
    for (let i = 0; i < 25; i++) {
      expect((await send(u.cookie, 'POST', '/api/vaults', vaultInput())).status).toBe(201);
    }
  });

  it("reports the plan's limits and falls back to 2 vaults and 2 MB when they cannot be read", async () => {
    const u = await createUser(t);
    await setPlan(u.id, 'basic');
    expect(limitsSchema.parse(await (await send(u.cookie, 'GET', '/api/limits')).json())).toEqual({
      plan_id: 'basic',
      max_vaults: 10,
      max_file_size_mb: 100,
      plan_name: 'Basic',
      max_storage_mb: 10_240,
      max_share_links: 25,
      max_share_mb: 2048,
      storage_used_bytes: 0,
    });
    // The plans table out of reach: the limits cannot be read, so the spec's fallback applies.
    await sql`alter table subscription_plans rename to subscription_plans_away`.execute(
      t.db.kysely,
    );
    try {
      const fallback = limitsSchema.parse(
        await (await send(u.cookie, 'GET', '/api/limits')).json(),
      );
      expect(fallback).toMatchObject({ max_vaults: 2, max_file_size_mb: 2 });
    } finally {
      await sql`alter table subscription_plans_away rename to subscription_plans`.execute(
        t.db.kysely,
      );
    }
  });
});

describe('account deletion', () => {
  it("removes the user's vaults and their secrets, and nobody else's", async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const mine = vaultInput({ vault_type: 'secrets' });
    const theirs = vaultInput();
    await send(u.cookie, 'POST', '/api/vaults', mine);
    await send(other.cookie, 'POST', '/api/vaults', theirs);
    const data = Buffer.alloc(60, 1).toString('base64');
    await send(u.cookie, 'POST', `/api/vaults/${mine.id}/secrets`, {
      id: randomUUID(),
      revision: 1,
      key_revision: 0,
      data,
    });

    const res = await send(u.cookie, 'DELETE', '/api/me', { password: u.password });
    expect(res.status).toBeLessThan(300);

    const vaultsLeft = await t.db.kysely
      .selectFrom('vaults')
      .select('id')
      .where('user_id', '=', u.id)
      .execute();
    const secretsLeft = await t.db.kysely
      .selectFrom('secret_items')
      .select('id')
      .where('vault_id', '=', mine.id)
      .execute();
    expect(vaultsLeft).toEqual([]);
    expect(secretsLeft).toEqual([]);
    const theirsLeft = await send(other.cookie, 'GET', `/api/vaults/${theirs.id}`);
    expect(theirsLeft.status).toBe(200);
  });
});
