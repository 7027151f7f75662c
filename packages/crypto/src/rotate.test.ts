// Key rotation (ADR 0007): a new VMK and slots, every record re-encrypted to it, file contents
// untouched; all or nothing; the old and new sessions each read only their own records.
import { beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './bytes.ts';
import {
  asFileId,
  asFolderId,
  asItemId,
  type FolderId,
  type SessionId,
  type VaultId,
} from './ids.ts';
import type { FileMeta, SecretItem } from './records.ts';
import type { RekeyFileInput } from './rotate.ts';
import type { VaultKey } from './slot.ts';
import { FAST_KDF, localClient, pattern, readAll, streamOf, uuid } from './testkit.ts';

const { client } = localClient();
const vaultId = uuid<VaultId>();
const folder = asFolderId(uuid());
let oldKey: VaultKey;
let oldSession: SessionId;
const plain = pattern(300_000, 5);

interface Stored extends RekeyFileInput {
  ciphertext: Uint8Array<ArrayBuffer>;
  meta: FileMeta;
}
const files: Stored[] = [];
const items: { id: string; revision: number; data: string; value: SecretItem }[] = [];

beforeAll(async () => {
  ({ session: oldSession, key: oldKey } = await client.createVault(vaultId, 'old pw', FAST_KDF));
  // At the root, under a parent in the AAD, and in a folder named inside the metadata.
  const places: [FolderId | null, string | undefined, string | undefined, Partial<FileMeta>?][] = [
    [null, undefined, undefined],
    [folder, undefined, undefined],
    [null, folder, undefined],
    [null, folder, folder], // a thumbnail (of a file whose id happens to be `folder`)
    [null, folder, undefined, { trashed: 5, trashedFrom: ['Taxes'] }], // in the trash
    [null, folder, undefined, { versionOf: folder }], // an older version
  ];
  for (const [i, [parentId, inFolder, thumbnailOf, more]] of places.entries()) {
    const id = asFileId(uuid());
    const enc = await client.encryptFileStream(oldSession, id, streamOf(plain));
    const ciphertext = await readAll(enc.ciphertext);
    const meta: FileMeta = {
      name: `f${i}.bin`,
      mime: 'application/octet-stream',
      size: plain.length,
      modified: 1,
      ...(inFolder ? { folder: inFolder } : {}),
      ...(thumbnailOf ? { thumbnailOf } : {}),
      ...more,
    };
    files.push({
      id,
      parentId,
      wrapped_key: enc.wrappedKey,
      enc_meta: await client.encryptMeta(oldSession, id, parentId, meta),
      ciphertext,
      meta,
    });
  }
  for (const revision of [1, 5]) {
    const id = asItemId(uuid());
    const value = { title: `item ${revision}`, password: 'secret' };
    items.push({
      id,
      revision,
      value,
      data: await client.encryptItem(oldSession, id, revision, value),
    });
  }
});

const input = (f: Stored): RekeyFileInput => ({
  id: f.id,
  parentId: f.parentId,
  wrapped_key: f.wrapped_key,
  enc_meta: f.enc_meta,
});

describe('rotateVault, rekeyFiles, rekeyItems', { timeout: 30_000 }, () => {
  it('round trips: everything readable under the new session only, contents unchanged', async () => {
    const rotated = await client.rotateVault(oldSession, 'new pw', {
      kdf: FAST_KDF,
      recovery: true,
    });
    expect(rotated.session).not.toBe(oldSession);
    expect(rotated.key.slots.map((s) => s.kind)).toEqual(['password', 'recovery']);
    for (const s of rotated.key.slots) expect(fromBase64(s.commit ?? '').length).toBe(32);
    expect(rotated.recoveryKey).toMatch(/^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
    const fresh = rotated.session;

    const rekeyed = await client.rekeyFiles(oldSession, fresh, files.map(input));
    expect(rekeyed).toHaveLength(files.length);
    for (const [i, f] of files.entries()) {
      const r = rekeyed[i]!;
      const parent = f.parentId === null ? null : asFolderId(f.parentId);
      expect(await client.decryptMeta(fresh, asFileId(f.id), parent, r.enc_meta)).toEqual(f.meta);
      // Per folder: the one inside the metadata when there is one; a trashed record or an older
      // version holds no name (its own id and the empty name).
      const noName = f.meta.trashed !== undefined || f.meta.versionOf !== undefined;
      const lookIn = noName
        ? asFolderId(f.id)
        : f.meta.thumbnailOf
          ? asFolderId(f.meta.thumbnailOf)
          : f.meta.folder
            ? asFolderId(f.meta.folder)
            : parent;
      const lookName = noName ? '' : f.meta.name;
      expect(r.name_lookup).toBe(await client.lookupName(fresh, lookIn, lookName));
      expect(r.name_lookup).not.toBe(await client.lookupName(oldSession, lookIn, lookName));
      const out = await readAll(
        client.decryptFileStream(fresh, asFileId(f.id), r.wrapped_key, streamOf(f.ciphertext)),
      );
      expect(out.length).toBe(plain.length);
      expect(out.every((b, j) => b === plain[j])).toBe(true);
      // The old records do not open under the new keys, nor the new under the old.
      await expect(
        client.decryptMeta(fresh, asFileId(f.id), parent, f.enc_meta),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      await expect(
        client.decryptMeta(oldSession, asFileId(f.id), parent, r.enc_meta),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      await expect(
        readAll(
          client.decryptFileStream(
            oldSession,
            asFileId(f.id),
            r.wrapped_key,
            streamOf(f.ciphertext),
          ),
        ),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      await expect(
        readAll(
          client.decryptFileStream(fresh, asFileId(f.id), f.wrapped_key, streamOf(f.ciphertext)),
        ),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }

    const data = await client.rekeyItems(oldSession, fresh, items);
    for (const [i, it] of items.entries()) {
      expect(await client.decryptItem(fresh, asItemId(it.id), it.revision, data[i]!)).toEqual(
        it.value,
      );
      await expect(
        client.decryptItem(fresh, asItemId(it.id), it.revision, it.data),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      await expect(
        client.decryptItem(oldSession, asItemId(it.id), it.revision, data[i]!),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }

    // The new slots open to the new VMK (the recovery key too); the old password does not.
    const viaPassword = await client.unlockVault(vaultId, rotated.key, 'new pw', {
      allowLegacy: false,
    });
    const viaRecovery = await client.unlockWithRecoveryKey(
      vaultId,
      rotated.key,
      rotated.recoveryKey!,
    );
    for (const s of [viaPassword, viaRecovery]) {
      expect(await client.decryptItem(s, asItemId(items[0]!.id), 1, data[0]!)).toEqual(
        items[0]!.value,
      );
    }
    await expect(client.unlockVault(vaultId, rotated.key, 'old pw')).rejects.toMatchObject({
      code: 'INVALID_PASSWORD',
    });
    // The old key still opens the old VMK until the server commits the rotation.
    const stillOld = await client.unlockVault(vaultId, oldKey, 'old pw');
    expect(await client.decryptItem(stillOld, asItemId(items[0]!.id), 1, items[0]!.data)).toEqual(
      items[0]!.value,
    );
  });

  it('makes no recovery slot unless asked', async () => {
    const rotated = await client.rotateVault(oldSession, 'pw2', { recovery: false, kdf: FAST_KDF });
    expect(rotated.key.slots.map((s) => s.kind)).toEqual(['password']);
    expect(rotated.recoveryKey).toBeUndefined();
    expect(rotated).not.toHaveProperty('recoveryKey');
  });

  it('fails the whole call with DECRYPT_FAILED when one record does not open', async () => {
    const { session: fresh } = await client.rotateVault(oldSession, 'pw3', {
      recovery: false,
      kdf: FAST_KDF,
    });
    const bad = fromBase64(files[1]!.enc_meta);
    bad[30]! ^= 1;
    const tampered = [input(files[0]!), { ...input(files[1]!), enc_meta: toBase64(bad) }];
    const err = await client.rekeyFiles(oldSession, fresh, tampered).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DECRYPT_FAILED' });
    expect(String((err as Error).message)).not.toContain(files[1]!.id);
    // A moved file (wrong folder) and a wrong revision fail too.
    await expect(
      client.rekeyFiles(oldSession, fresh, [{ ...input(files[0]!), parentId: folder }]),
    ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    await expect(
      client.rekeyItems(oldSession, fresh, [{ ...items[0]!, revision: 2 }]),
    ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    // Two sessions of different vaults are refused.
    const { session: other } = await client.createVault(uuid(), 'x', FAST_KDF);
    await expect(client.rekeyItems(oldSession, other, [])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('closeSession forgets one session; lockVault forgets all of the vault', async () => {
    const { session: fresh } = await client.rotateVault(oldSession, 'pw4', {
      recovery: false,
      kdf: FAST_KDF,
    });
    await client.closeSession(fresh);
    await expect(client.lookupName(fresh, null, 'x')).rejects.toMatchObject({ code: 'LOCKED' });
    await expect(client.lookupName(oldSession, null, 'x')).resolves.toMatch(/^[0-9a-f]{64}$/);
    await client.closeSession(fresh); // idempotent
    const { session: another } = await client.rotateVault(oldSession, 'pw5', {
      recovery: false,
      kdf: FAST_KDF,
    });
    await client.lockVault(vaultId);
    for (const s of [oldSession, another]) {
      await expect(client.lookupName(s, null, 'x')).rejects.toMatchObject({ code: 'LOCKED' });
    }
    await expect(client.rotateVault(oldSession, 'x', { recovery: false })).rejects.toMatchObject({
      code: 'LOCKED',
    });
  });
});
