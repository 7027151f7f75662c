// /api/vaults/:id/move (issue 27, [Note: vault moves] in moves.service.ts): a move is started,
// continued, replaced and cancelled; only verified copies are recorded; the switch changes the
// vault's provider, folder, references and manifest in one transaction or not at all; a files
// vault moves to our server through tus in move mode, under the plan's limits.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelMoveResponseSchema,
  errorBodySchema,
  manifestConflictSchema,
  messages,
  moveNotVerifiedMessage,
  moveResponseSchema,
  startMoveResponseSchema,
  switchMoveResponseSchema,
  vaultMovedMessage,
  type Manifest,
  type MoveItem,
  type ProviderType,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { b64, createVault, send as sendAs, setPlan } from '../testing/vaults.ts';
import { contentHash, fakeCiphertext, tus, uploadMetadata } from '../testing/files.ts';
import { createLogger } from '../logger.ts';
import { testManifest } from './manifest.testkit.ts';
import { deleteVaultsOfUser } from './vaults.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DROPBOX_APP_KEY: 'test-dropbox-key' });
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);
const moveUrl = (vault: string, tail = '') => `/api/vaults/${vault}/move${tail}`;
const hex = (n: number) => randomBytes(n).toString('hex');
/** A user on the Unlimited plan (Free allows one vault of each type). */
async function member(plan = 'unlimited'): Promise<TestUser> {
  const u = await createUser(t);
  await setPlan(t, u.id, plan);
  return u;
}
const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

async function start(
  cookie: string,
  vault: string,
  target: ProviderType,
  folder: string | null = null,
  deleteSource = true,
) {
  return send(cookie, 'PUT', moveUrl(vault), {
    target_provider: target,
    target_folder: folder,
    delete_source: deleteSource,
  });
}

/** A files vault on "This browser" with `n` file records (the provider holds their bytes). */
async function localFilesVault(u: TestUser, n: number) {
  const vault = await createVault(t, u.cookie, { provider_type: 'local' });
  const files: { id: string; checksum: string; size: number; ref: string }[] = [];
  for (let i = 0; i < n; i++) {
    const file = { id: randomUUID(), checksum: hex(32), size: 1000 + 72 + 16, ref: `local/${i}` };
    const res = await send(u.cookie, 'POST', `/api/vaults/${vault}/files`, {
      id: file.id,
      enc_meta: b64(140),
      name_lookup: hex(32),
      wrapped_key: b64(60),
      ciphertext_size: file.size,
      checksum: file.checksum,
      storage_ref: file.ref,
      key_revision: 0,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    files.push(file);
  }
  return { vault, files };
}

const fileItem = (f: { id: string; checksum: string; size: number }, ref: string): MoveItem => ({
  id: f.id,
  kind: 'file',
  ref,
  checksum: f.checksum,
  size: f.size,
});

function manifestFor(
  version: number,
  vaultType: 'files' | 'secrets',
  provider: ProviderType,
  folder = '',
  over: Partial<Manifest> = {},
): Manifest {
  return testManifest(version, {
    vault: {
      name: 'v',
      description: '',
      vault_type: vaultType,
      provider_type: provider,
      storage_folder: folder,
    },
    ...over,
  });
}

async function putManifest(cookie: string, vault: string, m: Manifest) {
  const res = await send(cookie, 'PUT', `/api/vaults/${vault}/manifest`, {
    expected_version: m.version - 1,
    manifest: m,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const fileRows = (vault: string) =>
  t.db.kysely
    .selectFrom('vault_files')
    .select(['id', 'blob_key', 'storage_ref'])
    .where('vault_id', '=', vault)
    .orderBy('id')
    .execute();
const vaultRow = (vault: string) =>
  t.db.kysely.selectFrom('vaults').selectAll().where('id', '=', vault).executeTakeFirstOrThrow();
const moveRows = async (vault: string) => ({
  moves: await t.db.kysely
    .selectFrom('vault_moves')
    .selectAll()
    .where('vault_id', '=', vault)
    .execute(),
  items: await t.db.kysely
    .selectFrom('vault_move_items')
    .selectAll()
    .where('vault_id', '=', vault)
    .execute(),
});

describe('a move: start, continue, replace, cancel', () => {
  it('starts a move, continues it with its items kept, replaces it with leftovers, cancels', async () => {
    const u = await member();
    const { vault, files } = await localFilesVault(u, 2);
    expect(
      moveResponseSchema.parse(await (await send(u.cookie, 'GET', moveUrl(vault))).json()).move,
    ).toBeNull();

    const first = await start(u.cookie, vault, 'dropbox', '/Apps/SealVault/v');
    expect(first.status, await first.clone().text()).toBe(200);
    const started = startMoveResponseSchema.parse(await first.json());
    expect(started.move).toMatchObject({
      vault_id: vault,
      source_provider: 'local',
      target_provider: 'dropbox',
      target_folder: '/Apps/SealVault/v',
      delete_source: true,
      items: [],
    });
    expect(started.leftovers).toEqual([]);

    const item = fileItem(files[0]!, 'id:dropbox-1');
    const added = await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [item] });
    expect(added.status, await added.clone().text()).toBe(200);
    expect(moveResponseSchema.parse(await added.json()).move?.items).toEqual([item]);

    // The same target and folder: continued, its item kept, delete_source updated.
    const again = startMoveResponseSchema.parse(
      await (await start(u.cookie, vault, 'dropbox', '/Apps/SealVault/v', false)).json(),
    );
    expect(again.move.items).toEqual([item]);
    expect(again.move.delete_source).toBe(false);
    expect(again.leftovers).toEqual([]);

    // Another folder: replaced; what was copied comes back as leftovers.
    const replaced = startMoveResponseSchema.parse(
      await (await start(u.cookie, vault, 'dropbox', '/Apps/SealVault/other')).json(),
    );
    expect(replaced.move.items).toEqual([]);
    expect(replaced.move.target_folder).toBe('/Apps/SealVault/other');
    expect(replaced.leftovers).toEqual([item]);

    const item2 = fileItem(files[1]!, 'id:dropbox-2');
    await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [item2] });
    const cancelled = await send(u.cookie, 'DELETE', moveUrl(vault));
    expect(cancelResponse(await cancelled.json())).toEqual([item2]);
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });
    // Nothing to cancel any more: an empty list, not an error.
    const none = await send(u.cookie, 'DELETE', moveUrl(vault));
    expect(cancelResponse(await none.json())).toEqual([]);
    // The vault never left "This browser".
    expect((await vaultRow(vault)).provider_type).toBe('local');
  });

  it('refuses a move to where the vault is (409 same_provider) and malformed bodies (400)', async () => {
    const u = await member();
    const { vault } = await localFilesVault(u, 0);
    const same = await start(u.cookie, vault, 'local');
    expect(same.status).toBe(409);
    expect(await errorOf(same)).toEqual({
      code: 'same_provider',
      message: messages.moves.sameProvider,
    });
    for (const body of [
      { target_provider: 'ftp', target_folder: null, delete_source: true },
      { target_provider: 'dropbox', target_folder: null },
      { target_provider: 'server', target_folder: null, delete_source: true, extra: 1 },
    ]) {
      const res = await send(u.cookie, 'PUT', moveUrl(vault), body);
      expect(res.status).toBe(400);
    }
    // A files vault on Dropbox needs its folder; our server takes none.
    expect((await start(u.cookie, vault, 'dropbox', null)).status).toBe(400);
    expect((await start(u.cookie, vault, 'server', '/x')).status).toBe(400);
    // A provider this server does not offer.
    expect((await start(u.cookie, vault, 'onedrive', '/x')).status).toBe(400);
    const items = await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [] });
    expect(items.status).toBe(400);
    const noMove = await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [fileItem({ id: randomUUID(), checksum: hex(32), size: 1 }, 'r')],
    });
    expect(noMove.status).toBe(409);
    expect((await errorOf(noMove)).code).toBe('no_move');
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });
  });

  it("answers 404 for another user's vault on every route, and touches nothing", async () => {
    const owner = await member();
    const other = await member();
    const { vault, files } = await localFilesVault(owner, 1);
    await start(owner.cookie, vault, 'dropbox', '/f');
    const attempts = [
      send(other.cookie, 'GET', moveUrl(vault)),
      start(other.cookie, vault, 'server'),
      send(other.cookie, 'POST', moveUrl(vault, '/items'), {
        items: [fileItem(files[0]!, 'r')],
      }),
      send(other.cookie, 'POST', moveUrl(vault, '/switch'), {
        expected_version: 0,
        manifest: manifestFor(1, 'files', 'dropbox', '/f'),
      }),
      send(other.cookie, 'DELETE', moveUrl(vault)),
      send(other.cookie, 'GET', moveUrl('not-a-uuid')),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    const rows = await moveRows(vault);
    expect(rows.moves).toHaveLength(1);
    expect(rows.items).toEqual([]);
  });
});

const cancelResponse = (body: unknown) => cancelMoveResponseSchema.parse(body).items;

describe('verified copies', () => {
  it('refuses a copy that does not match its record, recording nothing of the request', async () => {
    const u = await member();
    const { vault, files } = await localFilesVault(u, 2);
    await start(u.cookie, vault, 'dropbox', '/f');
    const good = fileItem(files[0]!, 'id:1');
    for (const bad of [
      { ...fileItem(files[1]!, 'id:2'), checksum: hex(32) },
      { ...fileItem(files[1]!, 'id:2'), size: files[1]!.size + 1 },
    ]) {
      const res = await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [good, bad] });
      expect(res.status).toBe(409);
      expect(await errorOf(res)).toEqual({
        code: 'copy_mismatch',
        message: messages.moves.copyMismatch,
      });
    }
    expect((await moveRows(vault)).items).toEqual([]);
  });

  it("refuses another vault's file, and a segment the manifest does not pin", async () => {
    const u = await member();
    const { vault } = await localFilesVault(u, 0);
    const { files: others } = await localFilesVault(u, 1);
    await start(u.cookie, vault, 'dropbox', '/f');
    const res = await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [fileItem(others[0]!, 'id:x')],
    });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('copy_mismatch');

    const secrets = await createVault(t, u.cookie, {
      vault_type: 'secrets',
      provider_type: 'local',
    });
    const seg = randomUUID();
    const digest = hex(32);
    await putManifest(
      u.cookie,
      secrets,
      manifestFor(1, 'secrets', 'local', '', { segments: [[seg, digest]] }),
    );
    await start(u.cookie, secrets, 'dropbox', '/s');
    const segment = (id: string, checksum: string): MoveItem => ({
      id,
      kind: 'segment',
      ref: 'id:seg',
      checksum,
      size: 10,
    });
    for (const bad of [segment(seg, hex(32)), segment(randomUUID(), digest)]) {
      const r = await send(u.cookie, 'POST', moveUrl(secrets, '/items'), { items: [bad] });
      expect(r.status).toBe(409);
      expect((await errorOf(r)).code).toBe('copy_mismatch');
    }
    const ok = await send(u.cookie, 'POST', moveUrl(secrets, '/items'), {
      items: [segment(seg, digest)],
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
  });
});

describe('the switch', () => {
  it('is refused while a file is missing, with a wrong provider, and on a stale version', async () => {
    const u = await member();
    const { vault, files } = await localFilesVault(u, 3);
    await putManifest(u.cookie, vault, manifestFor(1, 'files', 'local'));
    await start(u.cookie, vault, 'dropbox', '/f');
    await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [fileItem(files[0]!, 'id:0')],
    });
    const sw = (body: unknown) => send(u.cookie, 'POST', moveUrl(vault, '/switch'), body);
    const next = manifestFor(2, 'files', 'dropbox', '/f');
    const missing = await sw({ expected_version: 1, manifest: next });
    expect(missing.status).toBe(409);
    expect(await errorOf(missing)).toEqual({
      code: 'not_verified',
      message: moveNotVerifiedMessage(2),
    });

    await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: files.slice(1).map((f, i) => fileItem(f, `id:${i + 1}`)),
    });
    const wrongProvider = await sw({
      expected_version: 1,
      manifest: manifestFor(2, 'files', 'local'),
    });
    expect(wrongProvider.status).toBe(400);
    const wrongFolder = await sw({
      expected_version: 1,
      manifest: manifestFor(2, 'files', 'dropbox', '/g'),
    });
    expect(wrongFolder.status).toBe(400);
    const stale = await sw({
      expected_version: 2,
      manifest: manifestFor(3, 'files', 'dropbox', '/f'),
    });
    expect(stale.status).toBe(409);
    expect(manifestConflictSchema.parse(await stale.json()).current?.version).toBe(1);
    expect((await sw({ expected_version: 1 })).status).toBe(400);

    // Nothing switched.
    const row = await vaultRow(vault);
    expect([row.provider_type, row.storage_folder]).toEqual(['local', null]);
    expect((await fileRows(vault)).every((f) => f.storage_ref?.startsWith('local/'))).toBe(true);
    expect((await moveRows(vault)).items).toHaveLength(3);
  });

  it('switches provider, folder, references and manifest in one go, and forgets the move', async () => {
    const u = await member();
    const { vault, files } = await localFilesVault(u, 2);
    await putManifest(u.cookie, vault, manifestFor(1, 'files', 'local'));
    await start(u.cookie, vault, 'dropbox', '/Apps/SealVault/v', true);
    await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: files.map((f, i) => fileItem(f, `id:box-${i}`)),
    });
    const next = manifestFor(2, 'files', 'dropbox', '/Apps/SealVault/v');
    const res = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: next,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = switchMoveResponseSchema.parse(await res.json());
    expect(body.vault.provider_type).toBe('dropbox');
    expect(body.vault.storage_folder).toBe('/Apps/SealVault/v');
    expect(body.manifest).toEqual(next);
    expect(body.old.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [...files]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((f) => ({ id: f.id, kind: 'file', ref: f.ref })),
    );
    expect(body.unused).toEqual([]);
    const byId = new Map(files.map((f, i) => [f.id, `id:box-${i}`]));
    for (const row of await fileRows(vault))
      expect(row).toEqual({ id: row.id, blob_key: '', storage_ref: byId.get(row.id) });
    const stored = await send(u.cookie, 'GET', `/api/vaults/${vault}/manifest`);
    expect(((await stored.json()) as { manifest: Manifest }).manifest).toEqual(next);
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });

    // A record from a device that still writes to "This browser" is refused, not lost.
    const late = await send(u.cookie, 'POST', `/api/vaults/${vault}/files`, {
      id: randomUUID(),
      enc_meta: b64(140),
      name_lookup: hex(32),
      wrapped_key: b64(60),
      ciphertext_size: 1088,
      checksum: hex(32),
      storage_ref: 'local/late',
      key_revision: 0,
      provider_type: 'local',
    });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toEqual({
      code: 'vault_moved',
      message: vaultMovedMessage('dropbox'),
    });
    expect(await fileRows(vault)).toHaveLength(2);
  });

  it('moves a files vault off our server and schedules its old blobs for deletion', async () => {
    const u = await member();
    const vault = await createVault(t, u.cookie);
    const bytes = fakeCiphertext(3000);
    const meta = uploadMetadata(vault, bytes);
    const { patched } = await tus(t, u.cookie).upload(meta, bytes);
    expect(patched.status).toBe(204);
    const [before] = await fileRows(vault);
    expect(before?.blob_key).not.toBe('');
    expect(await t.files.blobs.stat(before!.blob_key as never)).not.toBeNull();

    await putManifest(u.cookie, vault, manifestFor(1, 'files', 'server'));
    await start(u.cookie, vault, 'local');
    const item = fileItem(
      { id: meta.fileId, checksum: contentHash(bytes), size: bytes.length },
      'opfs:1',
    );
    const added = await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [item] });
    expect(added.status, await added.clone().text()).toBe(200);
    const res = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: manifestFor(2, 'files', 'local'),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = switchMoveResponseSchema.parse(await res.json());
    expect(body.old).toEqual([{ id: meta.fileId, kind: 'file', ref: before!.blob_key }]);
    expect(await fileRows(vault)).toEqual([
      { id: meta.fileId, blob_key: '', storage_ref: 'opfs:1' },
    ]);
    // Deleted right after the commit (the queue keeps whatever could not be).
    expect(await t.files.blobs.stat(before!.blob_key as never)).toBeNull();
  });

  it('drops the secret items a secrets vault kept here when it moves to a provider', async () => {
    const u = await member();
    const vault = await createVault(t, u.cookie, { vault_type: 'secrets' });
    const secretId = randomUUID();
    const made = await send(u.cookie, 'POST', `/api/vaults/${vault}/secrets`, {
      id: secretId,
      revision: 1,
      data: b64(80),
      key_revision: 0,
    });
    expect(made.status).toBe(201);
    const entry: [string, number, string] = [secretId, 1, hex(16)];
    await putManifest(
      u.cookie,
      vault,
      manifestFor(1, 'secrets', 'server', '', { secrets: [entry] }),
    );
    await start(u.cookie, vault, 'dropbox', '/s');
    const seg = randomUUID();
    const digest = hex(32);
    const next = manifestFor(2, 'secrets', 'dropbox', '/s', {
      secrets: [entry],
      segments: [[seg, digest]],
    });
    // The segment is pinned by the next manifest, not the stored one: the switch checks it there.
    const early = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: next,
    });
    expect(early.status).toBe(409);
    expect((await errorOf(early)).code).toBe('not_verified');
    // A snapshot of the server's items: no stored manifest pins it yet, so it is taken as sent and
    // held to the next manifest's pin at the switch.
    const snapshot = { id: seg, kind: 'segment', ref: 'id:seg', size: 900 } as const;
    const recorded = await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [{ ...snapshot, checksum: hex(32) }],
    });
    expect(recorded.status, await recorded.clone().text()).toBe(200);
    const wrongDigest = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: next,
    });
    expect(wrongDigest.status).toBe(409);
    expect((await errorOf(wrongDigest)).code).toBe('not_verified');
    await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [{ ...snapshot, checksum: digest }],
    });
    const res = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: next,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const left = await t.db.kysely
      .selectFrom('secret_items')
      .select('id')
      .where('vault_id', '=', vault)
      .execute();
    expect(left).toEqual([]);
    expect((await vaultRow(vault)).provider_type).toBe('dropbox');
  });

  it('inserts the secrets handed over when a secrets vault moves to our server', async () => {
    const u = await member();
    const vault = await createVault(t, u.cookie, { vault_type: 'secrets', provider_type: 'local' });
    const ids = [randomUUID(), randomUUID()].sort();
    const entries = ids.map((id, i): [string, number, string] => [id, i + 1, hex(16)]);
    const oldSeg = randomUUID();
    await putManifest(
      u.cookie,
      vault,
      manifestFor(1, 'secrets', 'local', '', { secrets: entries, segments: [[oldSeg, hex(32)]] }),
    );
    await start(u.cookie, vault, 'server');
    const next = manifestFor(2, 'secrets', 'server', '', { secrets: entries });
    const secrets = ids.map((id, i) => ({
      id,
      revision: i + 1,
      data: b64(80, i),
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    }));
    const sw = (body: object) => send(u.cookie, 'POST', moveUrl(vault, '/switch'), body);
    expect((await sw({ expected_version: 1, manifest: next })).status).toBe(400);
    expect(
      (await sw({ expected_version: 1, manifest: next, secrets: secrets.slice(1) })).status,
    ).toBe(400);
    expect(
      (
        await sw({
          expected_version: 1,
          manifest: next,
          secrets: secrets.map((s) => ({ ...s, revision: 9 })),
        })
      ).status,
    ).toBe(400);
    const withSegments = manifestFor(2, 'secrets', 'server', '', {
      secrets: entries,
      segments: [[randomUUID(), hex(32)]],
    });
    expect((await sw({ expected_version: 1, manifest: withSegments, secrets })).status).toBe(400);
    expect((await vaultRow(vault)).provider_type).toBe('local');

    const res = await sw({ expected_version: 1, manifest: next, secrets });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = switchMoveResponseSchema.parse(await res.json());
    expect(body.old).toEqual([{ id: oldSeg, kind: 'segment', ref: oldSeg }]);
    const list = await send(u.cookie, 'GET', `/api/vaults/${vault}/secrets`);
    expect(((await list.json()) as { secrets: unknown[] }).secrets).toEqual(
      secrets.map((s) => ({ ...s })),
    );
  });

  it("goes with the account's vaults when the account is deleted, its staged blobs queued", async () => {
    const u = await member();
    const bytes = fakeCiphertext(1000);
    const vault = await createVault(t, u.cookie, { provider_type: 'local' });
    const fileId = randomUUID();
    await send(u.cookie, 'POST', `/api/vaults/${vault}/files`, {
      id: fileId,
      enc_meta: b64(140),
      name_lookup: hex(32),
      wrapped_key: b64(60),
      ciphertext_size: bytes.length,
      checksum: contentHash(bytes),
      storage_ref: 'local/0',
      key_revision: 0,
    });
    await start(u.cookie, vault, 'server');
    const up = tus(t, u.cookie);
    const created = await up.create({ vaultId: vault, move_file_id: fileId }, bytes.length);
    expect((await up.patch(created.headers.get('location')!, 0, bytes)).status).toBe(204);
    const [item] = (await moveRows(vault)).items;
    await deleteVaultsOfUser({
      db: t.db,
      userId: u.id,
      logger: createLogger('silent'),
      secret: 's',
    });
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });
    const queued = await t.db.kysely
      .selectFrom('blob_deletions')
      .select('blob_key')
      .where('blob_key', '=', item!.ref)
      .execute();
    expect(queued).toHaveLength(1);
  });

  it('goes with its vault when the vault is deleted', async () => {
    const u = await member();
    const { vault, files } = await localFilesVault(u, 1);
    await start(u.cookie, vault, 'dropbox', '/f');
    await send(u.cookie, 'POST', moveUrl(vault, '/items'), { items: [fileItem(files[0]!, 'r')] });
    expect((await send(u.cookie, 'DELETE', `/api/vaults/${vault}`)).status).toBe(204);
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });
  });
});

describe('a files vault moving to our server (tus in move mode)', () => {
  /** A files vault on "This browser" whose records name these bytes' content hash and size. */
  async function localVaultOf(u: TestUser, contents: Buffer[]) {
    const vault = await createVault(t, u.cookie, { provider_type: 'local' });
    const ids: string[] = [];
    for (const [i, bytes] of contents.entries()) {
      const id = randomUUID();
      const res = await send(u.cookie, 'POST', `/api/vaults/${vault}/files`, {
        id,
        enc_meta: b64(140),
        name_lookup: hex(32),
        wrapped_key: b64(60),
        ciphertext_size: bytes.length,
        checksum: contentHash(bytes),
        storage_ref: `local/${i}`,
        key_revision: 0,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      ids.push(id);
    }
    return { vault, ids };
  }
  const moveMeta = (vault: string, fileId: string) => ({ vaultId: vault, move_file_id: fileId });
  const blobCount = async () =>
    (await t.db.kysely.selectFrom('vault_files').select('id').execute()).length;

  it('copies each file up, checks it, records the item (no new file record), then switches', async () => {
    const u = await member();
    const contents = [fakeCiphertext(5000), fakeCiphertext(70_000)];
    const { vault, ids } = await localVaultOf(u, contents);
    await putManifest(u.cookie, vault, manifestFor(1, 'files', 'local'));
    expect((await start(u.cookie, vault, 'server')).status).toBe(200);
    const records = await blobCount();
    const up = tus(t, u.cookie);

    // A corrupted copy: 460, nothing recorded, nothing kept.
    const bad = Buffer.from(contents[0]!);
    bad[100] = bad[100]! ^ 1;
    const created = await up.create(moveMeta(vault, ids[0]!), bad.length);
    expect(created.status, await created.clone().text()).toBe(201);
    const patched = await up.patch(created.headers.get('location')!, 0, bad);
    expect(patched.status).toBe(460);
    expect((await moveRows(vault)).items).toEqual([]);

    for (const [i, bytes] of contents.entries()) {
      const res = await up.create(moveMeta(vault, ids[i]!), bytes.length);
      expect(res.status, await res.clone().text()).toBe(201);
      const done = await up.patch(res.headers.get('location')!, 0, bytes);
      expect(done.status, await done.clone().text()).toBe(204);
      expect(done.headers.get('upload-offset')).toBe(String(bytes.length));
    }
    expect(await blobCount()).toBe(records); // no file record was made
    const move = moveResponseSchema.parse(
      await (await send(u.cookie, 'GET', moveUrl(vault))).json(),
    ).move!;
    expect(move.items.map((i) => i.id).sort()).toEqual([...ids].sort());
    for (const item of move.items) {
      const bytes = contents[ids.indexOf(item.id)]!;
      expect(item).toMatchObject({
        kind: 'file',
        checksum: contentHash(bytes),
        size: bytes.length,
      });
      expect((await t.files.blobs.stat(item.ref as never))?.size).toBe(bytes.length);
    }
    // The browser cannot name a blob of ours as a copy.
    const claimed = await send(u.cookie, 'POST', moveUrl(vault, '/items'), {
      items: [move.items[0]],
    });
    expect(claimed.status).toBe(400);

    const res = await send(u.cookie, 'POST', moveUrl(vault, '/switch'), {
      expected_version: 1,
      manifest: manifestFor(2, 'files', 'server'),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = switchMoveResponseSchema.parse(await res.json());
    expect(body.vault.provider_type).toBe('server');
    expect(body.vault.storage_folder).toBeNull();
    for (const [i, id] of ids.entries()) {
      const download = await send(u.cookie, 'GET', `/api/vaults/${vault}/files/${id}/content`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(contents[i]!)).toBe(true);
    }
    const refs = new Map(move.items.map((i) => [i.id, i.ref]));
    for (const row of await fileRows(vault))
      expect(row).toEqual({ id: row.id, blob_key: refs.get(row.id), storage_ref: null });
  });

  it('refuses a move-mode upload without a move to our server, for another file or size', async () => {
    const u = await member();
    const bytes = fakeCiphertext(2000);
    const { vault, ids } = await localVaultOf(u, [bytes]);
    const { ids: others } = await localVaultOf(u, [bytes]);
    const up = tus(t, u.cookie);
    const none = await up.create(moveMeta(vault, ids[0]!), bytes.length);
    expect(none.status).toBe(409);
    expect((await errorOf(none)).code).toBe('no_move');
    await start(u.cookie, vault, 'dropbox', '/f');
    expect((await up.create(moveMeta(vault, ids[0]!), bytes.length)).status).toBe(409);
    await start(u.cookie, vault, 'server');
    expect((await up.create(moveMeta(vault, others[0]!), bytes.length)).status).toBe(404);
    const wrongSize = await up.create(moveMeta(vault, ids[0]!), fakeCiphertext(2001).length);
    expect(wrongSize.status).toBe(409);
    expect((await errorOf(wrongSize)).code).toBe('copy_mismatch');
    const extra = await up.create({ ...moveMeta(vault, ids[0]!), encMeta: b64(140) }, bytes.length);
    expect(extra.status).toBe(400);
    const stranger = await member();
    const theirs = await tus(t, stranger.cookie).create(moveMeta(vault, ids[0]!), bytes.length);
    expect(theirs.status).toBe(404);
    expect(
      await t.db.kysely
        .selectFrom('file_uploads')
        .select('id')
        .where('vault_id', '=', vault)
        .execute(),
    ).toEqual([]);
  });

  it("holds the plan's file-size limit and storage quota, at the start and at each upload", async () => {
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('subscription_plans')
      .values({
        id: 'tiny',
        name: 'Tiny',
        description: 'A 1 MB quota',
        price_cents: 100,
        max_vaults: 10,
        max_file_size_mb: 100,
        max_storage_mb: 1,
        is_active: 0,
        sort_order: 99,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const u = await member();
    const big = fakeCiphertext(3 * 1024 * 1024);
    const { vault, ids } = await localVaultOf(u, [big]);
    await setPlan(t, u.id, 'free'); // 2 MB files
    const tooLarge = await start(u.cookie, vault, 'server');
    expect(tooLarge.status).toBe(413);
    expect((await errorOf(tooLarge)).message).toMatch(/exceeds your plan's limit/);
    await setPlan(t, u.id, 'tiny'); // 1 MB in all
    const overQuota = await start(u.cookie, vault, 'server');
    expect(overQuota.status).toBe(413);
    expect((await errorOf(overQuota)).message).toMatch(/storage limit of 1 MB/);
    expect(await moveRows(vault)).toEqual({ moves: [], items: [] });

    // A move started within the limits meets them again at each upload.
    await setPlan(t, u.id, 'unlimited');
    expect((await start(u.cookie, vault, 'server')).status).toBe(200);
    await setPlan(t, u.id, 'tiny');
    const upload = await tus(t, u.cookie).create(moveMeta(vault, ids[0]!), big.length);
    expect(upload.status).toBe(413);
    await setPlan(t, u.id, 'free');
    const file = await tus(t, u.cookie).create(moveMeta(vault, ids[0]!), big.length);
    expect(file.status).toBe(413);
    expect((await errorOf(file)).message).toMatch(/exceeds your plan's limit/);
  });

  it('removes the staged blobs itself when the move is cancelled', async () => {
    const u = await member();
    const bytes = fakeCiphertext(4000);
    const { vault, ids } = await localVaultOf(u, [bytes]);
    await start(u.cookie, vault, 'server');
    const up = tus(t, u.cookie);
    const res = await up.create(moveMeta(vault, ids[0]!), bytes.length);
    expect((await up.patch(res.headers.get('location')!, 0, bytes)).status).toBe(204);
    const [item] = (await moveRows(vault)).items;
    expect(await t.files.blobs.stat(item!.ref as never)).not.toBeNull();
    const cancelled = await send(u.cookie, 'DELETE', moveUrl(vault));
    expect(cancelResponse(await cancelled.json()).map((i) => i.ref)).toEqual([item!.ref]);
    expect(await t.files.blobs.stat(item!.ref as never)).toBeNull();
    expect((await vaultRow(vault)).provider_type).toBe('local');
  });
});
