import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  importSecretsResponseSchema,
  manifestConflictSchema,
  manifestResponseSchema,
  secretsResponseSchema,
  trialMessages,
  type ImportSecretsRequest,
} from '@sealvault/protocol';
import { bodyLimitOf, SECRETS_IMPORT_BODY_LIMIT_BYTES } from '../http/body-limit.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, createVault, send as sendAs, setPlan } from '../testing/vaults.ts';
import { testManifest } from '../vaults/manifest.testkit.ts';
import { IMPORT_BATCH_ROWS } from './secrets.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof createUser>>;
const send = (u: User, method: string, path: string, body?: unknown) =>
  sendAs(t, u.cookie, method, path, body);
const newVault = (u: User, vault_type: 'files' | 'secrets' = 'secrets') =>
  createVault(t, u.cookie, { vault_type });
const importInto = (u: User, vaultId: string, body: unknown) =>
  send(u, 'POST', `/api/vaults/${vaultId}/secrets/import`, body);

function request(n: number, expectedVersion = 0, fill = 1): ImportSecretsRequest {
  return {
    secrets: Array.from({ length: n }, () => ({
      id: randomUUID(),
      revision: 1,
      data: b64(80, fill),
    })),
    manifest: { expected_version: expectedVersion, manifest: testManifest(expectedVersion + 1) },
    key_revision: 0,
  };
}

async function stored(u: User, vaultId: string) {
  const secrets = secretsResponseSchema.parse(
    await (await send(u, 'GET', `/api/vaults/${vaultId}/secrets`)).json(),
  ).secrets;
  const manifest = manifestResponseSchema.parse(
    await (await send(u, 'GET', `/api/vaults/${vaultId}/manifest`)).json(),
  ).manifest;
  return { secrets, manifest };
}

describe('secrets import', () => {
  it('stores every secret at revision 1 and the next manifest in one request', async () => {
    const u = await createUser(t);
    const vault = await newVault(u);
    // More than one insert batch, so a batch boundary is crossed.
    const body = request(IMPORT_BATCH_ROWS + 7);
    const res = await importInto(u, vault, body);
    expect(res.status).toBe(201);
    const answer = importSecretsResponseSchema.parse(await res.json());
    expect(answer.imported).toBe(body.secrets.length);
    expect(answer.manifest).toEqual(body.manifest.manifest);
    const after = await stored(u, vault);
    expect(after.manifest).toEqual(body.manifest.manifest);
    expect(after.secrets.map((s) => s.id).sort()).toEqual(body.secrets.map((s) => s.id).sort());
    expect(after.secrets.every((s) => s.revision === 1 && s.data === b64(80, 1))).toBe(true);

    // A second import compare-and-swaps on the version the first one wrote.
    const next = await importInto(u, vault, request(2, 1, 2));
    expect(next.status).toBe(201);
    expect((await stored(u, vault)).secrets).toHaveLength(body.secrets.length + 2);
  });

  it('stores nothing when an id is taken, sent twice, or the manifest moved on', async () => {
    const u = await createUser(t);
    const vault = await newVault(u);
    const first = request(3);
    expect((await importInto(u, vault, first)).status).toBe(201);
    const before = await stored(u, vault);

    // An id another secret already has (here, the last of a batch after fresh ones).
    const taken = request(IMPORT_BATCH_ROWS + 2, 1);
    taken.secrets[IMPORT_BATCH_ROWS + 1] = { ...first.secrets[0]!, data: b64(80, 5) };
    const res = await importInto(u, vault, taken);
    expect(res.status).toBe(409);
    expect(errorBodySchema.parse(await res.json()).error.message).toBe(
      'A secret with this id already exists.',
    );
    expect(await stored(u, vault)).toEqual(before);

    const twice = request(2, 1);
    twice.secrets[1] = twice.secrets[0]!;
    const dup = await importInto(u, vault, twice);
    expect(dup.status).toBe(400);
    expect(errorBodySchema.parse(await dup.json()).error.message).toContain('appears twice');

    // A stale expected version: 409 with the stored manifest, and no secret stored.
    const stale = await importInto(u, vault, request(2, 0));
    expect(stale.status).toBe(409);
    expect(manifestConflictSchema.parse(await stale.json()).current).toEqual(before.manifest);
    expect(await stored(u, vault)).toEqual(before);
  });

  it("answers 404 for another user's vault, 403 for a read-only one, 400 for bad input", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const vault = await newVault(owner);
    for (const id of [vault, randomUUID(), 'nope']) {
      const res = await importInto(other, id, request(1));
      expect(res.status, id).toBe(404);
    }
    expect(
      (await t.request(`/api/vaults/${vault}/secrets/import`, { method: 'POST' })).status,
    ).toBe(401);
    const files = await newVault(owner, 'files');
    const bad: [string, unknown][] = [
      ['not a secrets vault', { vault: files, body: request(1) }],
      ['no secrets', { vault, body: { ...request(1), secrets: [] } }],
      [
        'revision 2',
        { vault, body: { ...request(1), secrets: [{ ...request(1).secrets[0]!, revision: 2 }] } },
      ],
      [
        'not base64',
        {
          vault,
          body: { ...request(1), secrets: [{ ...request(1).secrets[0]!, data: 'x!'.repeat(30) }] },
        },
      ],
      [
        'version not + 1',
        {
          vault,
          body: { ...request(1), manifest: { expected_version: 3, manifest: testManifest(1) } },
        },
      ],
      ['no manifest', { vault, body: { secrets: request(1).secrets } }],
    ];
    for (const [what, { vault: id, body }] of bad as [string, { vault: string; body: unknown }][]) {
      const res = await importInto(owner, id, body);
      expect(res.status, what).toBe(400);
    }
    expect((await stored(owner, vault)).secrets).toEqual([]);

    // After a lapsed trial the newer of two secrets vaults only reads (plans/read-only.ts).
    await setPlan(t, owner.id, 'pro');
    t.clock.now = new Date(Date.now() + 60_000);
    const newer = await newVault(owner);
    t.clock.now = new Date();
    await setPlan(t, owner.id, 'free');
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('user_subscriptions')
      .values({
        user_id: owner.id,
        plan_id: 'free',
        status: 'active',
        started_at: now,
        current_period_end: null,
        pending_plan_id: null,
        provider_ref: null,
        trial_plan_id: 'pro',
        trial_started_at: now,
        trial_ends_at: now,
        trial_outcome: 'lapsed',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const readOnly = await importInto(owner, newer, request(2));
    expect(readOnly.status).toBe(403);
    expect(errorBodySchema.parse(await readOnly.json()).error.message).toBe(
      trialMessages.readOnlyVault,
    );
    expect(await stored(owner, newer)).toEqual({ secrets: [], manifest: null });
  });

  it('has a 64 MiB body limit', async () => {
    const u = await createUser(t);
    const vault = await newVault(u);
    const path = `/api/vaults/${vault}/secrets/import`;
    expect(bodyLimitOf('POST', path)).toBe(SECRETS_IMPORT_BODY_LIMIT_BYTES);
    expect(SECRETS_IMPORT_BODY_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    const res = await t.request(path, {
      method: 'POST',
      headers: {
        cookie: u.cookie,
        'content-type': 'application/json',
        'content-length': String(SECRETS_IMPORT_BODY_LIMIT_BYTES + 1),
      },
      body: new Uint8Array(0),
    });
    expect(res.status).toBe(413);
    // The other secrets routes keep the default.
    expect(bodyLimitOf('POST', `/api/vaults/${vault}/secrets`)).toBe(1024 * 1024);
  });
});
