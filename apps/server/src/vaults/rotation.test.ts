// POST /api/vaults/:id/rotate (ADR 0007, "Key rotation"): all of it in one transaction or none of
// it. The failures "halfway" are real database errors, raised by a trigger on one row in the middle
// of the updates (or on the last write, the manifest), so the rollback is PostgreSQL's or SQLite's
// own, not a simulation of it.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  manifestConflictSchema,
  messages,
  ONE_SLOT_PER_KIND_MESSAGE,
  ROTATION_CONFLICT_MESSAGE,
  rotateVaultResponseSchema,
  secretResponseSchema,
  trialMessages,
  type Manifest,
  type RotateVaultRequest,
  type VaultKey,
} from '@sealvault/protocol';
import { createFilesVault } from '../testing/files.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { b64, createVault, send as sendAs } from '../testing/vaults.ts';
import { testManifest } from './manifest.testkit.ts';
import { ROTATION_BATCH_ROWS } from './rotation.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);
const rotate = (u: TestUser, vaultId: string, body: unknown) =>
  send(u.cookie, 'POST', `/api/vaults/${vaultId}/rotate`, body);

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
    {
      id: randomUUID(),
      kind: 'recovery',
      kdf: { alg: 'none' },
      salt: randomBytes(16).toString('base64'),
      wrapped: randomBytes(60).toString('base64'),
      commit: randomBytes(32).toString('base64'),
    },
  ],
});

/** A files vault with `n` file records and manifest version 1. */
async function filesVault(u: TestUser, n = 3) {
  const vaultId = await createVault(t, u.cookie);
  const rows = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    vault_id: vaultId,
    user_id: u.id,
    enc_meta: randomBytes(140).toString('base64'),
    name_lookup: randomBytes(32).toString('hex'),
    wrapped_key: randomBytes(60).toString('base64'),
    ciphertext_size: 1000 + i,
    checksum: randomBytes(32).toString('hex'),
    checksum_algorithm: 'content-hash-4m' as const,
    blob_key: `fake-${i}`,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  }));
  for (let at = 0; at < n; at += 200) {
    await t.db.kysely
      .insertInto('vault_files')
      .values(rows.slice(at, at + 200))
      .execute();
  }
  const fileIds: string[] = rows.map((r) => r.id);
  expect((await putManifest(u, vaultId, 0, testManifest(1))).status).toBe(200);
  return { vaultId, fileIds };
}

/** A secrets vault with `n` secrets (the first two edited once: revision 2) and manifest version 1. */
async function secretsVault(u: TestUser, n = 3, bytes = 600) {
  const vaultId = await createVault(t, u.cookie, { vault_type: 'secrets' });
  const secretIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    secretIds.push(id);
    const data = randomBytes(bytes).toString('base64');
    expect(
      (
        await send(u.cookie, 'POST', `/api/vaults/${vaultId}/secrets`, {
          id,
          revision: 1,
          key_revision: 0,
          data,
        })
      ).status,
    ).toBe(201);
    if (i < 2) {
      const edited = await send(u.cookie, 'PUT', `/api/vaults/${vaultId}/secrets/${id}`, {
        expected_revision: 1,
        key_revision: 0,
        data: randomBytes(bytes).toString('base64'),
      });
      expect(secretResponseSchema.parse(await edited.json()).secret.revision).toBe(2);
    }
  }
  expect((await putManifest(u, vaultId, 0, testManifest(1))).status).toBe(200);
  return { vaultId, secretIds };
}

const putManifest = (u: TestUser, vaultId: string, expected: number, manifest: Manifest) =>
  send(u.cookie, 'PUT', `/api/vaults/${vaultId}/manifest`, {
    expected_version: expected,
    manifest,
  });

/** Everything a rotation may change, as stored. */
async function snapshot(vaultId: string) {
  const db = t.db.kysely;
  return {
    vault: await db
      .selectFrom('vaults')
      .select(['key_json', 'key_revision', 'updated_at'])
      .where('id', '=', vaultId)
      .executeTakeFirstOrThrow(),
    manifest: await db
      .selectFrom('vault_manifests')
      .selectAll()
      .where('vault_id', '=', vaultId)
      .executeTakeFirst(),
    files: await db
      .selectFrom('vault_files')
      .selectAll()
      .where('vault_id', '=', vaultId)
      .orderBy('id')
      .execute(),
    secrets: await db
      .selectFrom('secret_items')
      .selectAll()
      .where('vault_id', '=', vaultId)
      .orderBy('id')
      .execute(),
  };
}

/** A complete, valid rotation of what the vault holds now. */
async function rotation(vaultId: string): Promise<RotateVaultRequest> {
  const now = await snapshot(vaultId);
  return {
    expected_key_revision: now.vault.key_revision,
    expected_manifest_version: now.manifest?.version ?? 0,
    key: newKey(),
    manifest: testManifest((now.manifest?.version ?? 0) + 1, { mac: 'f'.repeat(64) }),
    files: now.files.map((f) => ({
      id: f.id,
      wrapped_key: randomBytes(60).toString('base64'),
      enc_meta: randomBytes(140).toString('base64'),
      name_lookup: randomBytes(32).toString('hex'),
    })),
    secrets: now.secrets.map((s) => ({
      id: s.id,
      revision: s.revision,
      data: randomBytes(600).toString('base64'),
    })),
  };
}

/** Makes every UPDATE of the row `id` of `table` fail with a database error, until dropped. */
async function failUpdatesOf(table: string, column: string, id: string) {
  const db = t.db.kysely;
  if (t.db.kind === 'sqlite') {
    await sql
      .raw(
        `create trigger fail_rotation before update on ${table} when new.${column} = '${id}' ` +
          `begin select raise(abort, 'injected failure'); end`,
      )
      .execute(db);
    return () => sql.raw('drop trigger fail_rotation').execute(db);
  }
  await sql
    .raw(
      `create or replace function fail_rotation() returns trigger language plpgsql as ` +
        `$$ begin raise exception 'injected failure'; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger fail_rotation before update on ${table} for each row ` +
        `when (new.${column} = '${id}') execute function fail_rotation()`,
    )
    .execute(db);
  return () => sql.raw(`drop trigger fail_rotation on ${table}`).execute(db);
}

describe('key rotation', () => {
  it('re-keys every file, bumps the key revision and writes the next manifest, in one request', async () => {
    const u = await createUser(t);
    const { vaultId } = await filesVault(u, 4);
    const before = await snapshot(vaultId);
    const body = await rotation(vaultId);
    t.clock.now = new Date('2026-06-01T12:00:00.000Z');
    const res = await rotate(u, vaultId, body);
    t.clock.now = new Date();
    expect(res.status).toBe(200);
    const answer = rotateVaultResponseSchema.parse(await res.json());
    expect(answer.vault).toMatchObject({ id: vaultId, key_revision: 1, key: body.key });
    expect(answer.manifest).toEqual(body.manifest);

    const after = await snapshot(vaultId);
    expect(after.vault.key_revision).toBe(1);
    expect(JSON.parse(after.vault.key_json)).toEqual(body.key);
    expect(after.vault.updated_at).toBe('2026-06-01T12:00:00.000Z');
    expect(after.manifest?.version).toBe(2);
    expect(JSON.parse(after.manifest!.manifest)).toEqual(body.manifest);
    const sent = new Map(body.files.map((f) => [f.id, f]));
    for (const [i, f] of after.files.entries()) {
      const { id, wrapped_key, enc_meta, name_lookup } = f;
      expect({ id, wrapped_key, enc_meta, name_lookup }).toEqual(sent.get(f.id));
      // The ciphertext and its checksum are untouched: file contents are not re-encrypted.
      const old = before.files[i]!;
      expect([f.checksum, f.blob_key, f.updated_at]).toEqual([
        old.checksum,
        old.blob_key,
        old.updated_at,
      ]);
    }
    // The manifest moved on: the old version is stale for later writers.
    expect((await putManifest(u, vaultId, 1, testManifest(2))).status).toBe(409);
  });

  it('re-encrypts every secret at its revision, with a body over the default 1 MiB', async () => {
    const u = await createUser(t);
    // 20 secrets of 80,000 base64 characters: about 1.6 MB of JSON.
    const { vaultId } = await secretsVault(u, 20, 60_000);
    const before = await snapshot(vaultId);
    const body = await rotation(vaultId);
    body.secrets = body.secrets.map((s) => ({
      ...s,
      data: randomBytes(60_000).toString('base64'),
    }));
    expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
    const res = await rotate(u, vaultId, body);
    expect(res.status).toBe(200);
    const after = await snapshot(vaultId);
    const sent = new Map(body.secrets.map((s) => [s.id, s]));
    for (const [i, s] of after.secrets.entries()) {
      expect(s.data).toBe(sent.get(s.id)?.data);
      expect(s.revision).toBe(before.secrets[i]!.revision);
      expect(s.updated_at).toBe(before.secrets[i]!.updated_at);
    }
    expect(after.vault.key_revision).toBe(1);
    expect(after.manifest?.version).toBe(2);
  });

  it("refuses a set of records that is not exactly the vault's with 409, changing nothing", async () => {
    const u = await createUser(t);
    const { vaultId: filesId } = await filesVault(u);
    const { vaultId: secretsId } = await secretsVault(u);
    const cases: [string, string, (r: RotateVaultRequest) => void][] = [
      ['a file left out', filesId, (r) => void r.files.pop()],
      [
        'a file it does not hold',
        filesId,
        (r) => void r.files.push({ ...r.files[0]!, id: randomUUID(), name_lookup: 'e'.repeat(64) }),
      ],
      ['a secret left out', secretsId, (r) => void r.secrets.shift()],
      [
        'a secret it does not hold',
        secretsId,
        (r) => void r.secrets.push({ ...r.secrets[0]!, id: randomUUID() }),
      ],
      [
        'a secret at an older revision',
        secretsId,
        (r) => void (r.secrets.find((x) => x.revision === 2)!.revision = 1),
      ],
      [
        'a secret sent to the files vault',
        filesId,
        (r) =>
          void r.secrets.push({
            id: randomUUID(),
            revision: 1,
            data: b64(600),
          }),
      ],
      ['a stale key revision', filesId, (r) => void (r.expected_key_revision = 5)],
      [
        'a stale manifest version',
        filesId,
        (r) => {
          r.expected_manifest_version = 0;
          r.manifest = testManifest(1);
        },
      ],
    ];
    for (const [what, vaultId, change] of cases) {
      const before = await snapshot(vaultId);
      const body = await rotation(vaultId);
      change(body);
      const res = await rotate(u, vaultId, body);
      expect(res.status, what).toBe(409);
      const conflict = manifestConflictSchema.parse(await res.json());
      expect(conflict.error.message).toBe(ROTATION_CONFLICT_MESSAGE);
      expect(conflict.current).toEqual(testManifest(1));
      expect(await snapshot(vaultId), what).toEqual(before);
    }
  });

  it('rolls everything back when a row update fails halfway, or the last write does', async () => {
    const u = await createUser(t);
    // Rows are updated in the order sent, ROTATION_BATCH_ROWS per statement: the file that fails
    // is in the second statement, after a whole batch was written.
    const { vaultId: filesId, fileIds } = await filesVault(u, 2 * ROTATION_BATCH_ROWS + 5);
    const { vaultId: secretsId, secretIds } = await secretsVault(u, 5);
    const cases: [string, string, () => Promise<() => Promise<unknown>>][] = [
      [
        'a file of the second batch',
        filesId,
        () => failUpdatesOf('vault_files', 'id', fileIds[ROTATION_BATCH_ROWS + 3]!),
      ],
      ['the third secret', secretsId, () => failUpdatesOf('secret_items', 'id', secretIds[2]!)],
      // Every row and the key are written by then.
      ['the manifest', filesId, () => failUpdatesOf('vault_manifests', 'vault_id', filesId)],
    ];
    const order = new Map([...fileIds, ...secretIds].map((id, i) => [id, i]));
    for (const [what, vaultId, inject] of cases) {
      const before = await snapshot(vaultId);
      const body = await rotation(vaultId);
      body.files.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      body.secrets.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      const drop = await inject();
      try {
        const res = await rotate(u, vaultId, body);
        expect(res.status, what).toBe(500);
        expect(errorBodySchema.parse(await res.json()).error.code).toBe('internal');
      } finally {
        await drop();
      }
      expect(await snapshot(vaultId), what).toEqual(before);
      // Nothing is left half done: the same rotation goes through once the fault is gone.
      expect((await rotate(u, vaultId, body)).status, what).toBe(200);
    }
    expect(t.logs()).toContain('injected failure');
  });

  it("answers 404 for another user's vault, 403 for a read-only one, 400 for a malformed request", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const { vaultId } = await filesVault(owner);
    const body = await rotation(vaultId);
    for (const id of [vaultId, randomUUID(), 'nope']) {
      const res = await rotate(other, id, body);
      expect(res.status, id).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(messages.vaults.notFound);
    }
    const bad: [string, RotateVaultRequest][] = [
      ['appears twice', { ...body, files: [...body.files, body.files[0]!] }],
      [
        'same name_lookup',
        {
          ...body,
          files: body.files.map((f) => ({ ...f, name_lookup: body.files[0]!.name_lookup })),
        },
      ],
      [
        ONE_SLOT_PER_KIND_MESSAGE,
        { ...body, key: { format: 'vf1', slots: [body.key.slots[0]!, body.key.slots[0]!] } },
      ],
      ['expected version + 1', { ...body, expected_manifest_version: 2 }],
    ];
    for (const [message, request] of bad) {
      const res = await rotate(owner, vaultId, request);
      expect(res.status, message).toBe(400);
      expect(errorBodySchema.parse(await res.json()).error.message).toContain(message);
    }
    const before = await snapshot(vaultId);

    // After a lapsed trial the newer of two files vaults only reads (plans/read-only.ts); Free
    // would not let the owner make it, so it is inserted as the trial would have left it.
    t.clock.now = new Date(Date.now() + 60_000);
    const newer = await createFilesVault(t, owner.id);
    t.clock.now = new Date();
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
    const readOnly = await rotate(owner, newer, await rotation(newer));
    expect(readOnly.status).toBe(403);
    expect(errorBodySchema.parse(await readOnly.json()).error.message).toBe(
      trialMessages.readOnlyVault,
    );
    // Its manifest can still be written: a password change (allowed) changes its slots.
    expect((await putManifest(owner, newer, 0, testManifest(1))).status).toBe(200);
    expect(await snapshot(vaultId)).toEqual(before);
  });

  it("ends the vault's uploads still receiving, and waits while one is being stored", async () => {
    const u = await createUser(t);
    const { vaultId } = await filesVault(u);
    const upload = (state: string) => ({
      id: randomUUID(),
      user_id: u.id,
      vault_id: vaultId,
      file_id: randomUUID(),
      enc_meta: b64(140),
      name_lookup: randomBytes(32).toString('hex'),
      wrapped_key: b64(60),
      checksum: '',
      upload_length: 5000,
      state,
      claim_id: null,
      claimed_at: null,
      blob_key: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2099-01-01T00:00:00.000Z',
    });
    const finishing = upload('finishing');
    await t.db.kysely.insertInto('file_uploads').values(finishing).execute();
    expect((await rotate(u, vaultId, await rotation(vaultId))).status).toBe(409);

    await t.db.kysely.deleteFrom('file_uploads').where('id', '=', finishing.id).execute();
    const receiving = upload('receiving');
    const done = upload('done');
    await t.db.kysely.insertInto('file_uploads').values([receiving, done]).execute();
    if (t.db.kind === 'postgres') {
      // An upload's row held by another transaction (as its finishing holds it): refused at once
      // with 409, never a wait that could deadlock.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      let locked = () => {};
      const isLocked = new Promise<void>((r) => (locked = r));
      const other = t.db.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('file_uploads')
          .set({ state: 'receiving' })
          .where('id', '=', receiving.id)
          .execute();
        locked();
        await held;
      });
      await isLocked;
      const refused = await rotate(u, vaultId, await rotation(vaultId));
      release();
      await other;
      expect(refused.status).toBe(409);
    }
    t.clock.now = new Date('2026-06-02T00:00:00.000Z');
    const res = await rotate(u, vaultId, await rotation(vaultId));
    t.clock.now = new Date();
    expect(res.status).toBe(200);
    const rows = await t.db.kysely
      .selectFrom('file_uploads')
      .select(['id', 'expires_at'])
      .where('vault_id', '=', vaultId)
      .execute();
    expect(new Map(rows.map((r) => [r.id, r.expires_at]))).toEqual(
      new Map([
        [receiving.id, '2026-06-02T00:00:00.000Z'],
        [done.id, '2099-01-01T00:00:00.000Z'],
      ]),
    );
  });

  it('refuses a body over 64 MiB with 413 before reading it', async () => {
    const u = await createUser(t);
    const { vaultId } = await filesVault(u, 1);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1024));
        },
      },
      { highWaterMark: 0 },
    );
    const res = await t.request(`/api/vaults/${vaultId}/rotate`, {
      method: 'POST',
      headers: {
        cookie: u.cookie,
        'content-type': 'application/json',
        'content-length': String(64 * 1024 * 1024 + 1),
      },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(pulled).toBe(0);
  });
});
