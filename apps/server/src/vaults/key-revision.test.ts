// [Note: key revision of a write] (issue 25, finding 1): a device still holding a vault's keys from
// before a rotation (or any key change) must not store records under them. Every record write
// names the key revision it was made under; a stale one is refused with 409 `stale_key` and stores
// nothing, and a write that names none is refused with 400.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ciphertextLength,
  errorBodySchema,
  STALE_KEY_MESSAGE,
  type RotateVaultRequest,
  type VaultKey,
} from '@sealvault/protocol';
import { fakeCiphertext, tus, uploadMetadata } from '../testing/files.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { createVault, send as sendAs, setPlan } from '../testing/vaults.ts';
import { testManifest } from './manifest.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (u: TestUser, method: string, path: string, body?: unknown) =>
  sendAs(t, u.cookie, method, path, body);

const newKey = (): VaultKey => ({
  format: 'vf1',
  slots: [
    {
      id: randomUUID(),
      kind: 'password',
      kdf: { alg: 'argon2id', m: 65536, t: 3, p: 1 },
      salt: randomBytes(16).toString('base64'),
      wrapped: randomBytes(60).toString('base64'),
      commit: randomBytes(32).toString('base64'),
    },
  ],
});

const b64 = (n = 600) => randomBytes(n).toString('base64');
const uniqueName = () => `Vault ${randomUUID().slice(0, 8)}`;

/** Rotates the vault's keys as the browser does: every record re-encrypted, key revision + 1. */
async function rotate(u: TestUser, vaultId: string): Promise<void> {
  const db = t.db.kysely;
  const vault = await db
    .selectFrom('vaults')
    .select('key_revision')
    .where('id', '=', vaultId)
    .executeTakeFirstOrThrow();
  const manifest = await db
    .selectFrom('vault_manifests')
    .select('version')
    .where('vault_id', '=', vaultId)
    .executeTakeFirst();
  const files = await db
    .selectFrom('vault_files')
    .select('id')
    .where('vault_id', '=', vaultId)
    .execute();
  const secrets = await db
    .selectFrom('secret_items')
    .select(['id', 'revision'])
    .where('vault_id', '=', vaultId)
    .execute();
  const version = manifest?.version ?? 0;
  const body: RotateVaultRequest = {
    expected_key_revision: vault.key_revision,
    expected_manifest_version: version,
    key: newKey(),
    manifest: testManifest(version + 1),
    files: files.map((f) => ({
      id: f.id,
      wrapped_key: b64(60),
      enc_meta: b64(140),
      name_lookup: randomBytes(32).toString('hex'),
    })),
    secrets: secrets.map((s) => ({ id: s.id, revision: s.revision, data: b64() })),
  };
  const res = await send(u, 'POST', `/api/vaults/${vaultId}/rotate`, body);
  expect(res.status).toBe(200);
}

async function expectStale(res: Response) {
  expect(res.status).toBe(409);
  const body = errorBodySchema.parse(await res.json());
  expect(body.error).toEqual({ code: 'stale_key', message: STALE_KEY_MESSAGE });
}

const storedSecrets = (vaultId: string) =>
  t.db.kysely
    .selectFrom('secret_items')
    .select(['id', 'revision', 'data'])
    .where('vault_id', '=', vaultId)
    .orderBy('id')
    .execute();

const storedFiles = (vaultId: string) =>
  t.db.kysely
    .selectFrom('vault_files')
    .select(['id', 'enc_meta', 'name_lookup', 'wrapped_key'])
    .where('vault_id', '=', vaultId)
    .orderBy('id')
    .execute();

describe('writes under a retired key', () => {
  it('refuses a secret create, update and import made before a rotation, storing nothing', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie, { vault_type: 'secrets', name: uniqueName() });
    const id = randomUUID();
    const base = `/api/vaults/${vaultId}/secrets`;
    expect(
      (await send(u, 'POST', base, { id, revision: 1, data: b64(), key_revision: 0 })).status,
    ).toBe(201);

    await rotate(u, vaultId); // another device: key revision 0 -> 1
    const before = await storedSecrets(vaultId);

    // The stale device still holds revision 0.
    await expectStale(
      await send(u, 'POST', base, { id: randomUUID(), revision: 1, data: b64(), key_revision: 0 }),
    );
    await expectStale(
      await send(u, 'PUT', `${base}/${id}`, { expected_revision: 1, data: b64(), key_revision: 0 }),
    );
    await expectStale(
      await send(u, 'POST', `${base}/import`, {
        secrets: [{ id: randomUUID(), revision: 1, data: b64() }],
        manifest: { expected_version: 1, manifest: testManifest(2) },
        key_revision: 0,
      }),
    );
    expect(await storedSecrets(vaultId)).toEqual(before);
    const manifest = await t.db.kysely
      .selectFrom('vault_manifests')
      .select('version')
      .where('vault_id', '=', vaultId)
      .executeTakeFirstOrThrow();
    expect(manifest.version).toBe(1); // the refused import wrote no manifest either

    // Under the current keys, the same writes go through.
    expect(
      (
        await send(u, 'PUT', `${base}/${id}`, {
          expected_revision: 1,
          data: b64(),
          key_revision: 1,
        })
      ).status,
    ).toBe(200);
    expect(
      (await send(u, 'POST', base, { id: randomUUID(), revision: 1, data: b64(), key_revision: 1 }))
        .status,
    ).toBe(201);
  });

  it('refuses a file record, a rename and a tus upload made before a rotation, storing nothing', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const local = await createVault(t, u.cookie, { provider_type: 'local', name: uniqueName() });
    const server = await createVault(t, u.cookie, { name: uniqueName() });
    const record = (key_revision: number) => ({
      id: randomUUID(),
      enc_meta: b64(140),
      name_lookup: randomBytes(32).toString('hex'),
      wrapped_key: b64(60),
      ciphertext_size: ciphertextLength(5000),
      checksum: randomBytes(32).toString('hex'),
      storage_ref: `opfs:${randomUUID()}`,
      key_revision,
    });
    const first = record(0);
    expect((await send(u, 'POST', `/api/vaults/${local}/files`, first)).status).toBe(201);

    await rotate(u, local);
    await rotate(u, server);
    const before = await storedFiles(local);

    await expectStale(await send(u, 'POST', `/api/vaults/${local}/files`, record(0)));
    await expectStale(
      await send(u, 'PATCH', `/api/vaults/${local}/files/${first.id}`, {
        enc_meta: b64(150),
        name_lookup: randomBytes(32).toString('hex'),
        key_revision: 0,
      }),
    );
    expect(await storedFiles(local)).toEqual(before);

    const bytes = fakeCiphertext(3000);
    const up = tus(t, u.cookie);
    const created = await up.create(
      uploadMetadata(server, bytes, { keyRevision: '0' }),
      bytes.length,
    );
    await expectStale(created);
    expect(await storedFiles(server)).toEqual([]);

    // Under the current keys, they go through.
    expect((await send(u, 'POST', `/api/vaults/${local}/files`, record(1))).status).toBe(201);
    const { created: ok, patched } = await up.upload(
      uploadMetadata(server, bytes, { keyRevision: '1' }),
      bytes,
    );
    expect([ok.status, patched.status]).toEqual([201, 204]);
    expect(await storedFiles(server)).toHaveLength(1);
  });

  it('refuses the record of an upload whose key was retired while it was being received', async () => {
    const u = await createUser(t);
    const vaultId = await createVault(t, u.cookie, { name: uniqueName() });
    const bytes = fakeCiphertext(3000);
    const up = tus(t, u.cookie);
    const created = await up.create(uploadMetadata(vaultId, bytes), bytes.length);
    expect(created.status).toBe(201);
    // A rotation that committed between the creation's check and its row, so it did not end the
    // upload: only the record's own check is left to catch it.
    await t.db.kysely
      .updateTable('vaults')
      .set({ key_revision: 1 })
      .where('id', '=', vaultId)
      .execute();
    const patched = await up.patch(created.headers.get('location') ?? '', 0, bytes);
    await expectStale(patched);
    expect(await storedFiles(vaultId)).toEqual([]);
  });

  it('refuses a write that names no key revision with 400, before anything is stored', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const secrets = await createVault(t, u.cookie, { vault_type: 'secrets', name: uniqueName() });
    const local = await createVault(t, u.cookie, { provider_type: 'local', name: uniqueName() });
    const server = await createVault(t, u.cookie, { name: uniqueName() });
    const cases: [string, string, unknown][] = [
      ['POST', `/api/vaults/${secrets}/secrets`, { id: randomUUID(), revision: 1, data: b64() }],
      [
        'POST',
        `/api/vaults/${secrets}/secrets/import`,
        {
          secrets: [{ id: randomUUID(), revision: 1, data: b64() }],
          manifest: { expected_version: 0, manifest: testManifest(1) },
        },
      ],
      [
        'POST',
        `/api/vaults/${local}/files`,
        {
          id: randomUUID(),
          enc_meta: b64(140),
          name_lookup: randomBytes(32).toString('hex'),
          wrapped_key: b64(60),
          ciphertext_size: ciphertextLength(5000),
          checksum: randomBytes(32).toString('hex'),
          storage_ref: 'opfs:x',
        },
      ],
    ];
    for (const [method, path, body] of cases) {
      const res = await send(u, method, path, body);
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(await res.json()), path).toMatch(/key_revision/);
    }
    const bytes = fakeCiphertext(3000);
    const meta: Record<string, string> = { ...uploadMetadata(server, bytes) };
    delete meta.keyRevision;
    const res = await tus(t, u.cookie).create(meta, bytes.length);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/keyRevision/);
    expect(await storedSecrets(secrets)).toEqual([]);
    expect(await storedFiles(local)).toEqual([]);
  });
});
