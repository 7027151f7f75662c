// Records of files a vault's provider holds (POST /api/vaults/:vaultId/files, issue 14): checked
// like a tus upload (vault, vf1 size, plan's file size, unique id and name), stored with the
// provider's reference and content hash, and never backed by a blob of ours.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ciphertextLength,
  fileResponseSchema,
  fileTooLargeMessage,
  limitsSchema,
  type CreateFileRecordRequest,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  createFilesVault,
  errorOf,
  fakeCiphertext,
  filesDeps,
  filesIn,
  listFiles,
  setPlan,
  tus,
  uploadMetadata,
} from '../testing/files.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { recordTexts } from './files.records.ts';
import { sweepFiles } from './uploads.sweep.ts';
import { texts } from './uploads.errors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const record = (over: Partial<CreateFileRecordRequest> = {}): CreateFileRecordRequest => ({
  id: randomUUID(),
  enc_meta: randomBytes(140).toString('base64'),
  name_lookup: randomBytes(32).toString('hex'),
  wrapped_key: randomBytes(60).toString('base64'),
  ciphertext_size: ciphertextLength(5000),
  checksum: randomBytes(32).toString('hex'),
  storage_ref: `opfs:${randomUUID()}`,
  key_revision: 0,
  ...over,
});

const post = (user: TestUser, vaultId: string, body: unknown) =>
  send(t, user.cookie, 'POST', `/api/vaults/${vaultId}/files`, body);

/** A user on `plan` with a files vault in this browser ('local'). */
async function localVault(plan = 'unlimited') {
  const user = await createUser(t);
  await setPlan(t, user.id, plan);
  return { user, vaultId: await createFilesVault(t, user.id, { provider_type: 'local' }) };
}

const queuedDeletions = () => t.db.kysely.selectFrom('blob_deletions').selectAll().execute();

describe('file records of a provider-held vault', () => {
  it('creates, lists, renames and deletes a record, with its reference and content hash', async () => {
    const { user, vaultId } = await localVault();
    const input = record();
    const res = await post(user, vaultId, input);
    expect(res.status).toBe(201);
    const { file } = fileResponseSchema.parse(await res.json());
    expect(file).toMatchObject({
      id: input.id,
      enc_meta: input.enc_meta,
      name_lookup: input.name_lookup,
      wrapped_key: input.wrapped_key,
      ciphertext_size: input.ciphertext_size,
      checksum: input.checksum,
      checksum_algorithm: 'content-hash-4m',
      storage_ref: input.storage_ref,
    });
    expect(await listFiles(t, user, vaultId)).toEqual([file]);

    const renamed = await send(t, user.cookie, 'PATCH', `/api/vaults/${vaultId}/files/${file.id}`, {
      enc_meta: randomBytes(150).toString('base64'),
      name_lookup: randomBytes(32).toString('hex'),
      key_revision: 0,
    });
    expect(renamed.status).toBe(200);
    expect(fileResponseSchema.parse(await renamed.json()).file.storage_ref).toBe(input.storage_ref);

    const blobsBefore = filesIn(t, 'blobs');
    const removeBlob = vi.spyOn(t.files.blobs, 'delete');
    try {
      const del = await send(t, user.cookie, 'DELETE', `/api/vaults/${vaultId}/files/${file.id}`);
      expect(del.status).toBe(204);
      expect(await listFiles(t, user, vaultId)).toEqual([]);
      expect(removeBlob).not.toHaveBeenCalled();
    } finally {
      removeBlob.mockRestore();
    }
    expect(await queuedDeletions()).toEqual([]);
    expect(filesIn(t, 'blobs')).toEqual(blobsBefore);
  });

  it('refuses to serve a provider-held file from this server', async () => {
    const { user, vaultId } = await localVault();
    const input = record();
    expect((await post(user, vaultId, input)).status).toBe(201);
    for (const method of ['GET', 'HEAD']) {
      const res = await t.request(`/api/vaults/${vaultId}/files/${input.id}/content`, {
        method,
        headers: { cookie: user.cookie },
      });
      expect(res.status).toBe(409);
      if (method === 'GET') expect((await errorOf(res)).message).toBe(recordTexts.providerHeld);
    }
  });

  it('refuses a vault on this server (400), a secrets vault (400) and another user’s (404)', async () => {
    const { user, vaultId } = await localVault();
    const serverVault = await createFilesVault(t, user.id);
    const res = await post(user, serverVault, record());
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(recordTexts.serverVault);

    const secrets = await createFilesVault(t, user.id, {
      vault_type: 'secrets',
      provider_type: 'local',
    });
    const notFiles = await post(user, secrets, record());
    expect(notFiles.status).toBe(400);
    expect((await errorOf(notFiles)).message).toBe(recordTexts.notFilesVault);

    const other = await createUser(t);
    expect((await post(other, vaultId, record())).status).toBe(404);
    expect((await post(other, randomUUID(), record())).status).toBe(404);
    expect((await post(other, 'not-a-uuid', record())).status).toBe(404);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
    expect(await listFiles(t, user, serverVault)).toEqual([]);
  });

  it('refuses a size no vf1 ciphertext has (400) and a malformed body (400)', async () => {
    const { user, vaultId } = await localVault();
    // one full chunk and then an empty sealed chunk: vf1 never writes that
    const bad = await post(
      user,
      vaultId,
      record({ ciphertext_size: ciphertextLength(2 ** 18) + 16 }),
    );
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe(recordTexts.notCiphertextSize);
    expect((await post(user, vaultId, record({ ciphertext_size: 10 }))).status).toBe(400);
    expect((await post(user, vaultId, { ...record(), storage_ref: '' })).status).toBe(400);
    expect((await post(user, vaultId, { ...record(), blob_key: 'x' })).status).toBe(400);
    expect(await listFiles(t, user, vaultId)).toEqual([]);
  });

  it('refuses a file larger than the plan allows (413, the tus path’s message)', async () => {
    const { user, vaultId } = await localVault('free'); // 2 MiB of plaintext
    const plain = 2 * 1024 * 1024 + 1;
    const res = await post(user, vaultId, record({ ciphertext_size: ciphertextLength(plain) }));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toBe(fileTooLargeMessage(plain));
    const atLimit = record({ ciphertext_size: ciphertextLength(2 * 1024 * 1024) });
    expect((await post(user, vaultId, atLimit)).status).toBe(201);
  });

  it('does not count provider-held bytes towards the storage quota of this server', async () => {
    const { user, vaultId } = await localVault('free');
    expect(
      (await post(user, vaultId, record({ ciphertext_size: ciphertextLength(2_000_000) }))).status,
    ).toBe(201);
    const limits = limitsSchema.parse(
      await (await send(t, user.cookie, 'GET', '/api/limits')).json(),
    );
    expect(limits.storage_used_bytes).toBe(0);
  });

  it('refuses a duplicate id (anywhere) or name (in the vault) with 409', async () => {
    const { user, vaultId } = await localVault();
    const first = record();
    expect((await post(user, vaultId, first)).status).toBe(201);
    const sameId = await post(user, vaultId, record({ id: first.id }));
    expect(sameId.status).toBe(409);
    expect((await errorOf(sameId)).message).toBe(texts.duplicateId);
    const sameName = await post(user, vaultId, record({ name_lookup: first.name_lookup }));
    expect(sameName.status).toBe(409);
    expect((await errorOf(sameName)).message).toBe(texts.duplicateName);
    // the same name in another vault is fine
    const second = await createFilesVault(t, user.id, { provider_type: 'local' });
    expect((await post(user, second, record({ name_lookup: first.name_lookup }))).status).toBe(201);
    expect(await listFiles(t, user, vaultId)).toHaveLength(1);
  });

  it('deleting the vault or the account queues no blob deletion and touches no blob', async () => {
    const { user, vaultId } = await localVault();
    // a server vault of the same user, with a real blob that must survive the local vault's deletion
    const serverVault = await createFilesVault(t, user.id);
    const bytes = fakeCiphertext(3000);
    const meta = uploadMetadata(serverVault, bytes);
    expect((await tus(t, user.cookie).upload(meta, bytes)).patched.status).toBe(204);
    for (let i = 0; i < 3; i++) expect((await post(user, vaultId, record())).status).toBe(201);
    const blobs = filesIn(t, 'blobs');

    const removeBlob = vi.spyOn(t.files.blobs, 'delete');
    try {
      expect((await send(t, user.cookie, 'DELETE', `/api/vaults/${vaultId}`)).status).toBe(204);
      expect(removeBlob).not.toHaveBeenCalled();
      expect(await queuedDeletions()).toEqual([]);
      expect(filesIn(t, 'blobs')).toEqual(blobs);
      await sweepFiles(filesDeps(t));
      expect(removeBlob).not.toHaveBeenCalled();

      // the account: its second local vault's records go, the server vault's blob is queued
      const again = await createFilesVault(t, user.id, { provider_type: 'local' });
      for (let i = 0; i < 2; i++) expect((await post(user, again, record())).status).toBe(201);
      const res = await t.request('/api/me', {
        method: 'DELETE',
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ password: user.password }),
      });
      expect(res.status).toBeLessThan(300);
      const rows = await t.db.kysely
        .selectFrom('vault_files')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([]);
      const queued = await queuedDeletions();
      expect(queued.map((q) => q.blob_key)).toHaveLength(1);
      expect(queued.every((q) => q.blob_key !== '')).toBe(true);
    } finally {
      removeBlob.mockRestore();
    }
  });
});
