import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, fileResponseSchema, filesResponseSchema } from '@sealvault/protocol';
import type { Insertable } from 'kysely';
import type { VaultFilesTable } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import {
  createFilesVault,
  contentHash,
  fakeCiphertext,
  fileContent,
  filesDeps,
  filesIn,
  listFiles,
  setPlan,
  sha256,
  tus,
  uploadMetadata,
} from '../testing/files.ts';
import { deleteVault, getVault, listVaults } from '../vaults/vaults.service.ts';
import { sweepFiles } from './uploads.sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof createUser>>;

async function withFile(plain = 600_000) {
  const user = await createUser(t);
  await setPlan(t, user.id, 'unlimited');
  const vaultId = await createFilesVault(t, user.id);
  const bytes = fakeCiphertext(plain);
  const meta = uploadMetadata(vaultId, bytes);
  const { patched } = await tus(t, user.cookie).upload(meta, bytes);
  expect(patched.status).toBe(204);
  return { user, vaultId, bytes, meta, fileId: meta.fileId };
}

const get = (user: User, p: string, headers: Record<string, string> = {}) =>
  t.request(p, { headers: { cookie: user.cookie, ...headers } });
const send = (user: User, method: string, p: string, body?: unknown) =>
  t.request(p, {
    method,
    headers: { cookie: user.cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const rename = () => ({
  enc_meta: randomBytes(140).toString('base64'),
  name_lookup: randomBytes(32).toString('hex'),
  key_revision: 0,
});

describe('file routes', () => {
  it('reach only the owner’s vaults and files: everything else is 404', async () => {
    const a = await withFile(1000);
    const b = await withFile(1000);
    const base = (vaultId: string) => `/api/vaults/${vaultId}/files`;
    // A's session against B's vault and file.
    for (const res of [
      await get(a.user, base(b.vaultId)),
      await get(a.user, `${base(b.vaultId)}/${b.fileId}/content`),
      await get(a.user, `${base(b.vaultId)}/${b.fileId}`),
      await send(a.user, 'PATCH', `${base(b.vaultId)}/${b.fileId}`, rename()),
      await send(a.user, 'DELETE', `${base(b.vaultId)}/${b.fileId}`),
    ]) {
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json())).toEqual({
        error: { code: 'not_found', message: 'Vault not found' },
      });
    }
    // B's file id under A's own vault, a random id, a malformed id.
    for (const fileId of [b.fileId, randomUUID(), 'x', '..%2F..%2Fetc']) {
      expect((await get(a.user, `${base(a.vaultId)}/${fileId}/content`)).status).toBe(404);
      expect((await get(a.user, `${base(a.vaultId)}/${fileId}`)).status).toBe(404);
      expect((await send(a.user, 'PATCH', `${base(a.vaultId)}/${fileId}`, rename())).status).toBe(
        404,
      );
      expect((await send(a.user, 'DELETE', `${base(a.vaultId)}/${fileId}`)).status).toBe(404);
    }
    expect((await get(a.user, base('not-a-uuid'))).status).toBe(404);
    expect((await t.request(base(a.vaultId))).status).toBe(401);
    // Nothing of B's changed.
    const bFiles = (await (await get(b.user, base(b.vaultId))).json()) as { files: unknown[] };
    expect(bFiles.files).toHaveLength(1);
  });

  it('lists the opaque records, never a name or type', async () => {
    const { user, vaultId, meta, bytes } = await withFile(1000);
    const body = filesResponseSchema.parse(
      await (await get(user, `/api/vaults/${vaultId}/files`)).json(),
    );
    expect(body.files).toEqual([
      {
        id: meta.fileId,
        enc_meta: meta.encMeta,
        name_lookup: meta.lookup,
        wrapped_key: meta.wrappedKey,
        ciphertext_size: bytes.length,
        checksum: contentHash(bytes),
        checksum_algorithm: 'content-hash-4m',
        storage_ref: null, // on this server
        created_at: expect.any(String) as unknown,
        updated_at: expect.any(String) as unknown,
        trashed_at: null, // not in the trash ([Note: trash] in the protocol's files.ts)
        purged_at: null,
      },
    ]);
    expect(t.logs()).not.toContain(meta.encMeta);
    expect(t.logs()).not.toContain(meta.lookup);
    // The one record, without listing the vault (issue 26).
    const one = fileResponseSchema.parse(
      await (await get(user, `/api/vaults/${vaultId}/files/${meta.fileId}`)).json(),
    );
    expect(one.file).toEqual(body.files[0]);
  });

  it('still lists and serves a file from before the content hash (whole-file SHA-256)', async () => {
    const { user, vaultId } = await withFile(1000);
    const bytes = fakeCiphertext(300_000);
    const blob = await t.files.blobs.put([bytes]);
    const id = randomUUID();
    const now = t.clock.now.toISOString();
    // Written as the server wrote rows before 0070_checksum_algorithm, without the column: its
    // default marks the row 'sha256', as the migration marks the rows it finds.
    const old: Omit<Insertable<VaultFilesTable>, 'checksum_algorithm'> = {
      id,
      vault_id: vaultId,
      user_id: user.id,
      enc_meta: randomBytes(140).toString('base64'),
      name_lookup: randomBytes(32).toString('hex'),
      wrapped_key: randomBytes(60).toString('base64'),
      ciphertext_size: bytes.length,
      checksum: sha256(bytes),
      blob_key: blob.key,
      created_at: now,
      updated_at: now,
    };
    await t.db.kysely
      .insertInto('vault_files')
      .values(old as Insertable<VaultFilesTable>)
      .execute();

    const files = await listFiles(t, user, vaultId);
    expect(files.find((f) => f.id === id)).toMatchObject({
      checksum: sha256(bytes),
      checksum_algorithm: 'sha256',
      ciphertext_size: bytes.length,
    });
    expect(files.filter((f) => f.id !== id)).toMatchObject([
      { checksum_algorithm: 'content-hash-4m' },
    ]);
    expect((await fileContent(t, user, vaultId, id)).equals(bytes)).toBe(true);
    const ranged = await get(user, `/api/vaults/${vaultId}/files/${id}/content`, {
      range: 'bytes=100-199',
    });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const renamed = await send(user, 'PATCH', `/api/vaults/${vaultId}/files/${id}`, rename());
    expect(fileResponseSchema.parse(await renamed.json()).file).toMatchObject({
      id,
      checksum_algorithm: 'sha256',
    });
  });

  it('serves exact byte ranges, across vf1 chunk boundaries too', async () => {
    const { user, vaultId, fileId, bytes } = await withFile(3 * 262_144 + 1000);
    const url = `/api/vaults/${vaultId}/files/${fileId}/content`;
    const size = bytes.length;
    const full = await get(user, url);
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-type')).toBe('application/octet-stream');
    expect(full.headers.get('cache-control')).toBe('no-store');
    expect(full.headers.get('content-length')).toBe(String(size));
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const boundary = 72 + 262_160;
    for (const [range, start, end] of [
      ['bytes=262100-262300', 262_100, 262_300],
      [`bytes=${boundary - 1}-${boundary}`, boundary - 1, boundary],
      [`bytes=${boundary}-${boundary + 2 * 262_160}`, boundary, boundary + 2 * 262_160],
      ['bytes=0-71', 0, 71],
      [`bytes=${size - 100}-`, size - 100, size - 1],
      ['bytes=-16', size - 16, size - 1],
      [`bytes=10-${size + 1000}`, 10, size - 1],
    ] as const) {
      const res = await get(user, url, { range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(
        true,
      );
    }
    const beyond = await get(user, url, { range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await get(user, url, { range: 'bytes=0-1,5-6' })).status).toBe(200);
    const head = await t.request(url, { method: 'HEAD', headers: { cookie: user.cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
  });

  it('renames by replacing the encrypted metadata; a look-up in use is 409', async () => {
    const { user, vaultId, fileId, meta } = await withFile(1000);
    const otherBytes = fakeCiphertext(10);
    const other = uploadMetadata(vaultId, otherBytes);
    expect((await tus(t, user.cookie).upload(other, otherBytes)).patched.status).toBe(204);
    const url = `/api/vaults/${vaultId}/files/${fileId}`;

    const next = rename();
    const res = await send(user, 'PATCH', url, next);
    expect(res.status).toBe(200);
    expect(fileResponseSchema.parse(await res.json())).toMatchObject({
      file: { id: fileId, enc_meta: next.enc_meta, name_lookup: next.name_lookup },
    });
    expect((await send(user, 'PATCH', url, next)).status).toBe(200); // unchanged name: fine
    const taken = await send(user, 'PATCH', url, { ...rename(), name_lookup: other.lookup });
    expect(taken.status).toBe(409);
    expect(
      (
        await send(user, 'PATCH', url, {
          enc_meta: 'not base64!',
          name_lookup: meta.lookup,
          key_revision: 0,
        })
      ).status,
    ).toBe(400);
    expect((await send(user, 'PATCH', url, {})).status).toBe(400);
  });

  it('deletes the record and its blob', async () => {
    const { user, vaultId, fileId } = await withFile(1000);
    const before = filesIn(t, 'blobs').length;
    expect((await send(user, 'DELETE', `/api/vaults/${vaultId}/files/${fileId}`)).status).toBe(204);
    expect(filesIn(t, 'blobs').length).toBe(before - 1);
    expect((await get(user, `/api/vaults/${vaultId}/files/${fileId}/content`)).status).toBe(404);
    expect((await send(user, 'DELETE', `/api/vaults/${vaultId}/files/${fileId}`)).status).toBe(404);
  });

  it('counts files and ciphertext bytes per vault; deleting the vault removes its blobs', async () => {
    const { user, vaultId, bytes } = await withFile(5000);
    const second = fakeCiphertext(7000);
    const meta2 = uploadMetadata(vaultId, second);
    const up = tus(t, user.cookie);
    expect((await up.upload(meta2, second)).patched.status).toBe(204);
    const pending = fakeCiphertext(100);
    const location =
      (await up.create({ ...uploadMetadata(vaultId, pending) }, pending.length)).headers.get(
        'location',
      ) ?? '';
    const deps = { ...filesDeps(t), auth: undefined as never };
    expect(await getVault(deps, user.id, vaultId)).toMatchObject({
      file_count: 2,
      total_size: bytes.length + second.length,
    });
    expect((await listVaults(deps, user.id))[0]).toMatchObject({ file_count: 2 });

    const before = filesIn(t, 'blobs').length;
    await deleteVault(deps, user.id, vaultId);
    expect(filesIn(t, 'blobs').length).toBe(before - 2);
    expect(
      await t.db.kysely
        .selectFrom('vault_files')
        .where('vault_id', '=', vaultId)
        .selectAll()
        .execute(),
    ).toEqual([]);
    // Its unfinished upload is refused from now on and swept.
    expect((await up.patch(location, 0, pending)).status).toBe(410);
    await sweepFiles(filesDeps(t));
    expect(filesIn(t, 'uploads')).toEqual([]);
  });
});
