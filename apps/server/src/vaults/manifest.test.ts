// GET/PUT /api/vaults/:id/manifest (ADR 0007): stored as sent, compare-and-swap on the version,
// malformed manifests refused with 400, another user's vault 404, its own body limit, and gone
// with its vault.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  MANIFEST_CONFLICT_MESSAGE,
  manifestConflictSchema,
  manifestResponseSchema,
  messages,
  type Manifest,
} from '@sealvault/protocol';
import { MANIFEST_BODY_LIMIT_BYTES } from '../http/body-limit.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault, send as sendAs } from '../testing/vaults.ts';
import { testManifest } from './manifest.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);
const url = (vaultId: string) => `/api/vaults/${vaultId}/manifest`;
const put = (cookie: string, vaultId: string, expected: number, manifest: Manifest) =>
  send(cookie, 'PUT', url(vaultId), { expected_version: expected, manifest });
const read = async (cookie: string, vaultId: string) => {
  const res = await send(cookie, 'GET', url(vaultId));
  expect(res.status).toBe(200);
  return manifestResponseSchema.parse(await res.json()).manifest;
};

describe('vault manifest', () => {
  it('is null for a new vault, then reads back each version written', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    expect(await read(u.cookie, vaultId)).toBeNull();

    const v1 = testManifest(1);
    const first = await put(u.cookie, vaultId, 0, v1);
    expect(first.status).toBe(200);
    expect(manifestResponseSchema.parse(await first.json()).manifest).toEqual(v1);
    expect(await read(u.cookie, vaultId)).toEqual(v1);

    const v2 = testManifest(2, { files: [[randomUUID(), randomBytes(16).toString('hex')]] });
    expect((await put(u.cookie, vaultId, 1, v2)).status).toBe(200);
    expect(await read(u.cookie, vaultId)).toEqual(v2);
    const row = await t.db.kysely
      .selectFrom('vault_manifests')
      .select(['version'])
      .where('vault_id', '=', vaultId)
      .executeTakeFirstOrThrow();
    expect(row.version).toBe(2);
  });

  it('lets one of two writers of the same next version win; the other gets 409 and the winner', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    expect((await put(u.cookie, vaultId, 0, testManifest(1))).status).toBe(200);

    const a = testManifest(2, { mac: 'a'.repeat(64) });
    const b = testManifest(2, { mac: 'b'.repeat(64) });
    const results = await Promise.all([put(u.cookie, vaultId, 1, a), put(u.cookie, vaultId, 1, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0].status === 200 ? a : b;
    const loser = results.find((r) => r.status === 409)!;
    expect(manifestConflictSchema.parse(await loser.json())).toEqual({
      error: { code: 'conflict', message: MANIFEST_CONFLICT_MESSAGE },
      current: winner,
    });
    expect(await read(u.cookie, vaultId)).toEqual(winner);
  });

  it('lets one of two first writers win (expected_version 0)', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    const a = testManifest(1, { mac: 'a'.repeat(64) });
    const b = testManifest(1, { mac: 'b'.repeat(64) });
    const results = await Promise.all([put(u.cookie, vaultId, 0, a), put(u.cookie, vaultId, 0, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0].status === 200 ? a : b;
    const loser = results.find((r) => r.status === 409)!;
    expect(manifestConflictSchema.parse(await loser.json()).current).toEqual(winner);
  });

  it('refuses a stale or skipped version with 409 and the stored manifest, overwriting nothing', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    // None stored yet: expecting version 1 is a conflict whose current is null.
    const none = await put(u.cookie, vaultId, 1, testManifest(2));
    expect(none.status).toBe(409);
    expect(manifestConflictSchema.parse(await none.json()).current).toBeNull();

    const v1 = testManifest(1);
    await put(u.cookie, vaultId, 0, v1);
    const v2 = testManifest(2);
    await put(u.cookie, vaultId, 1, v2);
    for (const [expected, manifest] of [
      [0, testManifest(1, { mac: 'c'.repeat(64) })],
      [1, testManifest(2, { mac: 'c'.repeat(64) })],
      [3, testManifest(4)],
    ] as const) {
      const res = await put(u.cookie, vaultId, expected, manifest);
      expect(res.status, `expected_version ${expected}`).toBe(409);
      expect(manifestConflictSchema.parse(await res.json()).current).toEqual(v2);
    }
    expect(await read(u.cookie, vaultId)).toEqual(v2);
  });

  it('refuses malformed manifests with a 400 naming the field, never a 500', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    const good = testManifest(2);
    const cases: [string, unknown][] = [
      ['mac', { expected_version: 1, manifest: { ...good, mac: 'zz'.repeat(32) } }],
      ['mac', { expected_version: 1, manifest: { ...good, mac: 'A'.repeat(64) } }],
      ['manifest.version', { expected_version: 2, manifest: good }],
      ['manifest.prev', { expected_version: 1, manifest: { ...good, prev: '' } }],
      [
        'slots',
        { expected_version: 1, manifest: { ...good, slots: ['1'.repeat(64), '1'.repeat(64)] } },
      ],
      ['files.0.1', { expected_version: 1, manifest: { ...good, files: [[randomUUID(), 'x']] } }],
      [
        'secrets.0.1',
        {
          expected_version: 1,
          manifest: { ...good, secrets: [[randomUUID(), 0, '0'.repeat(32)]] },
        },
      ],
      [
        'vault.vault_type',
        {
          expected_version: 1,
          manifest: { ...good, vault: { ...good.vault, vault_type: 'photos' } },
        },
      ],
      ['format', { expected_version: 1, manifest: { ...good, format: 'vf2' } }],
      ['expected_version', { expected_version: -1, manifest: testManifest(1) }],
      ['manifest', { expected_version: 0 }],
    ];
    for (const [field, body] of cases) {
      const res = await send(u.cookie, 'PUT', url(vaultId), body);
      expect(res.status, field).toBe(400);
      const { error } = errorBodySchema.parse(await res.json());
      expect(error.code).toBe('bad_request');
      expect(error.message, field).toContain(field.split('.').at(-1));
    }
    const notJson = await t.request(url(vaultId), {
      method: 'PUT',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: '{"expected_version": 0, "manifest": {',
    });
    expect(notJson.status).toBe(400);
    expect(errorBodySchema.parse(await notJson.json()).error.message).toBe(
      'The request body must be JSON.',
    );
    expect(await read(u.cookie, vaultId)).toBeNull();
  });

  it("answers 404 for another user's vault, a malformed id or an unknown one; 401 signed out", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const vaultId = await createVault(t, owner.cookie);
    const v1 = testManifest(1);
    await put(owner.cookie, vaultId, 0, v1);
    for (const [method, id, body] of [
      ['GET', vaultId, undefined],
      ['PUT', vaultId, { expected_version: 1, manifest: testManifest(2) }],
      ['GET', 'not-a-uuid', undefined],
      ['PUT', randomUUID(), { expected_version: 0, manifest: testManifest(1) }],
    ] as const) {
      const res = await send(other.cookie, method, url(id), body);
      expect(res.status, `${method} ${id}`).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(messages.vaults.notFound);
    }
    expect((await t.request(url(vaultId))).status).toBe(401);
    expect(await read(owner.cookie, vaultId)).toEqual(v1);
  });

  it('takes a manifest over 1 MiB (up to its own 8 MiB limit) and refuses a larger body with 413', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie);
    // 30,000 file entries: about 2.4 MB of JSON, over the app's default limit of 1 MiB.
    const files = Array.from({ length: 30_000 }, (): [string, string] => [
      randomUUID(),
      randomBytes(16).toString('hex'),
    ]);
    const big = testManifest(1, { files });
    const body = JSON.stringify({ expected_version: 0, manifest: big });
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    const ok = await send(u.cookie, 'PUT', url(vaultId), JSON.parse(body));
    expect(ok.status).toBe(200);
    expect((await read(u.cookie, vaultId))?.files).toHaveLength(30_000);

    const tooBig = await t.request(url(vaultId), {
      method: 'PUT',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: `{"pad":"${'x'.repeat(MANIFEST_BODY_LIMIT_BYTES)}"}`,
    });
    expect(tooBig.status).toBe(413);
    expect(errorBodySchema.parse(await tooBig.json()).error.code).toBe('payload_too_large');
    // The default limit still holds for the vault's other routes.
    const patch = await t.request(`/api/vaults/${vaultId}`, {
      method: 'PATCH',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: `{"name":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    });
    expect(patch.status).toBe(413);
  });

  it('goes with its vault, and with the account', async () => {
    const u = await createUser(t);
    const a = await createVault(t, u.cookie);
    const b = await createVault(t, u.cookie, { vault_type: 'secrets' });
    await put(u.cookie, a, 0, testManifest(1));
    await put(
      u.cookie,
      b,
      0,
      testManifest(1, { vault: { ...testManifest(1).vault, vault_type: 'secrets' } }),
    );
    const stored = () =>
      t.db.kysely
        .selectFrom('vault_manifests')
        .select('vault_id')
        .where('vault_id', 'in', [a, b])
        .execute()
        .then((rows) => rows.map((r) => r.vault_id).sort());
    expect(await stored()).toEqual([a, b].sort());

    expect((await send(u.cookie, 'DELETE', `/api/vaults/${a}`)).status).toBe(204);
    expect(await stored()).toEqual([b]);
    const res = await send(u.cookie, 'DELETE', '/api/me', { password: u.password });
    expect(res.status).toBeLessThan(300);
    expect(await stored()).toEqual([]);
  });
});
