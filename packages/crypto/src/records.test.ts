// Metadata, secret items and name look-ups (vault-format.md §3).
import { beforeAll, describe, expect, it } from 'vitest';
import { concat, fromBase64, randomBytes as rnd, toBase64 } from './bytes.ts';
import {
  asFileId,
  asFolderId,
  asItemId,
  type FileId,
  type SessionId,
  type VaultId,
} from './ids.ts';
import { deriveVaultKeys } from './keys.ts';
import { aesGcmEncrypt } from './primitives.ts';
import {
  decryptItem,
  decryptMeta,
  encryptItem,
  encryptMeta,
  itemAad,
  metaAad,
  padBucket,
  padJson,
  type FileMeta,
} from './records.ts';
import { decryptItems, decryptMetas } from './recordBatch.ts';
import { FAST_KDF, localClient, uuid } from './testkit.ts';

const { client } = localClient();
let session: SessionId;
let otherVault: SessionId;
const fileId = asFileId('1d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f');
const folder = asFolderId('2d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f');
const itemId = asItemId('3d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f');
const meta: FileMeta = {
  name: 'Tax return 2025.pdf',
  mime: 'application/pdf',
  size: 123_456,
  modified: 1_760_000_000_000,
};

beforeAll(async () => {
  ({ session } = await client.createVault(uuid(), 'pw', FAST_KDF));
  ({ session: otherVault } = await client.createVault(uuid(), 'pw', FAST_KDF));
});

describe('metadata', () => {
  it('round trips and hides the name length in 64-byte steps', async () => {
    const enc = await client.encryptMeta(session, fileId, folder, meta);
    expect(await client.decryptMeta(session, fileId, folder, enc)).toEqual(meta);
    expect((fromBase64(enc).length - 12 - 16) % 64).toBe(0);
    const longer = await client.encryptMeta(session, fileId, folder, {
      ...meta,
      name: 'Tax return 2025 v2.pdf',
    });
    expect(fromBase64(longer).length).toBe(fromBase64(enc).length);
    expect(padJson({}).length).toBe(64);
  });

  it('is bound to the vault, the file and the folder', async () => {
    const enc = await client.encryptMeta(session, fileId, null, meta);
    await expect(client.decryptMeta(session, fileId, null, enc)).resolves.toEqual(meta);
    // Each call starts only when the previous one has been checked: started together, a later
    // one could reject before its `expect` is attached (an unhandled rejection, which fails the run).
    for (const open of [
      () => client.decryptMeta(session, fileId, folder, enc),
      () => client.decryptMeta(session, asFileId(folder), null, enc),
      () => client.decryptMeta(otherVault, fileId, null, enc),
    ]) {
      await expect(open()).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }
  });

  it('rejects a flipped bit and garbage', async () => {
    const bytes = fromBase64(await client.encryptMeta(session, fileId, null, meta));
    bytes[20]! ^= 4;
    await expect(client.decryptMeta(session, fileId, null, toBase64(bytes))).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(client.decryptMeta(session, fileId, null, 'not base64!')).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });

  it('carries the folder a file is in, inside the encryption; a folder that is not a UUID is refused', async () => {
    const inFolder = { ...meta, folder };
    const enc = await client.encryptMeta(session, fileId, null, inFolder);
    expect(await client.decryptMeta(session, fileId, null, enc)).toEqual(inFolder);
    const upper = { ...meta, folder: folder.toUpperCase() };
    await expect(client.encryptMeta(session, fileId, null, upper)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    // Written by something else: a folder that is not a lowercase UUID does not open.
    const keys = await deriveVaultKeys(new Uint8Array(32).fill(9), uuid<VaultId>());
    const nonce = new Uint8Array(12).fill(2);
    const sealedWith = async (m: unknown) =>
      toBase64(
        concat(
          nonce,
          await aesGcmEncrypt(keys.meta, nonce, padJson(m), metaAad(keys, fileId, null)),
        ),
      );
    expect(await decryptMeta(keys, fileId, null, await sealedWith(inFolder))).toEqual(inFolder);
    for (const bad of ['root', 7, folder.toUpperCase()]) {
      await expect(
        decryptMeta(keys, fileId, null, await sealedWith({ ...meta, folder: bad })),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      await expect(
        decryptMeta(keys, fileId, null, await sealedWith({ ...meta, thumbnailOf: bad })),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }
    // A thumbnail names the file it shows, the same way.
    const thumb = { ...meta, mime: 'image/webp', thumbnailOf: fileId };
    const encThumb = await client.encryptMeta(session, fileId, null, thumb);
    expect(await client.decryptMeta(session, fileId, null, encThumb)).toEqual(thumb);
    // The trash and versions (vault-format.md "Trash", "Versions").
    const trashed = { ...inFolder, trashed: 1764240000000, trashedFrom: ['Taxes', '2026'] };
    const encTrashed = await client.encryptMeta(session, fileId, null, trashed);
    expect(await client.decryptMeta(session, fileId, null, encTrashed)).toEqual(trashed);
    const version = { ...meta, versionOf: folder };
    const encVersion = await client.encryptMeta(session, fileId, null, version);
    expect(await client.decryptMeta(session, fileId, null, encVersion)).toEqual(version);
    for (const bad of [
      { trashed: -1 },
      { trashed: 1.5 },
      { trashed: '1764240000000' },
      { trashedFrom: 'Taxes' },
      { trashedFrom: [''] },
      { trashedFrom: [3] },
      { versionOf: 'old' },
      { versionOf: folder.toUpperCase() },
    ]) {
      await expect(
        decryptMeta(keys, fileId, null, await sealedWith({ ...meta, ...bad })),
      ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }
  });

  it('refuses malformed metadata on the way in', async () => {
    const bad = { ...meta, size: 'big' } as unknown as FileMeta;
    await expect(client.encryptMeta(session, fileId, null, bad)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('secret items', () => {
  const item = {
    title: 'Bank',
    username: 'me',
    password: 'hunter2',
    url: 'https://bank.example',
    notes: '',
    totp: 'x',
  };

  it('pads items to 512, 1024, 2048, ... bytes (ADR 0007), still valid JSON', async () => {
    const sizes = [];
    for (const notes of ['', 'x'.repeat(500), 'x'.repeat(1100), 'x'.repeat(3000)]) {
      const enc = await client.encryptItem(session, itemId, 1, { title: 't', notes });
      sizes.push(fromBase64(enc).length - 12 - 16);
      expect(await client.decryptItem(session, itemId, 1, enc)).toEqual({ title: 't', notes });
    }
    expect(sizes).toEqual([512, 1024, 2048, 4096]);
    expect(padBucket({ a: 'x'.repeat(512 - 8) }).length).toBe(512); // {"a":"..."}: 512 bytes
    expect(padBucket({ a: 'x'.repeat(512 - 7) }).length).toBe(1024);
    expect(JSON.parse(new TextDecoder().decode(padBucket({ a: 1 })))).toEqual({ a: 1 });
  });

  it('still opens items padded to 64 bytes (written before ADR 0007)', async () => {
    const vaultId = uuid<VaultId>();
    const keys = await deriveVaultKeys(new Uint8Array(32).fill(7), vaultId);
    const nonce = new Uint8Array(12).fill(1);
    const item = { title: 'old', password: 'p' };
    const sealed = await aesGcmEncrypt(keys.item, nonce, padJson(item), itemAad(keys, itemId, 4));
    expect(sealed.length - 16).toBe(64);
    const data = toBase64(concat(nonce, sealed));
    expect(await decryptItem(keys, itemId, 4, data)).toEqual(item);
  });

  it('round trips with extra fields', async () => {
    const enc = await client.encryptItem(session, itemId, 3, item);
    expect(await client.decryptItem(session, itemId, 3, enc)).toEqual(item);
  });

  it('is bound to the revision, the item and the vault', async () => {
    const enc = await client.encryptItem(session, itemId, 3, item);
    // One at a time, as above: a rejection must never come before its `expect`.
    for (const open of [
      () => client.decryptItem(session, itemId, 2, enc),
      () => client.decryptItem(session, asItemId(fileId), 3, enc),
      () => client.decryptItem(otherVault, itemId, 3, enc),
    ]) {
      await expect(open()).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    }
  });

  it('decrypts many in one call, with null for each record that does not open', async () => {
    const good = await client.encryptItem(session, itemId, 3, item);
    const otherId = asItemId(crypto.randomUUID());
    const second = await client.encryptItem(session, otherId, 1, { ...item, title: 'Mail' });
    const results = await client.decryptItems(session, [
      { id: itemId, revision: 3, data: good },
      { id: itemId, revision: 4, data: good },
      { id: otherId, revision: 1, data: second },
      { id: otherId, revision: 1, data: good },
    ]);
    expect(results).toEqual([item, null, { ...item, title: 'Mail' }, null]);
  });

  it("decrypts many files' metadata in one call, with null for each that does not open", async () => {
    const a = asFileId(crypto.randomUUID());
    const b = asFileId(crypto.randomUUID());
    const encA = await client.encryptMeta(session, a, null, meta);
    const encB = await client.encryptMeta(session, b, folder, { ...meta, name: 'b.txt' });
    const results = await client.decryptMetas(session, [
      { id: a, parentId: null, encMeta: encA },
      { id: b, parentId: folder, encMeta: encB },
      { id: b, parentId: null, encMeta: encB },
      { id: a, parentId: null, encMeta: encB },
    ]);
    expect(results).toEqual([meta, { ...meta, name: 'b.txt' }, null, null]);
  });

  // [Note: batch record opening]: the batch builds each AAD into one reused buffer; it must
  // answer exactly what opening the records one at a time answers, record by record.
  it('opens a batch as one-at-a-time does, whatever each record is', async () => {
    const keys = await deriveVaultKeys(new Uint8Array(32).fill(7), uuid<VaultId>());
    const files = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const id = asFileId(crypto.randomUUID());
        const parentId = i % 3 === 0 ? null : asFolderId(crypto.randomUUID());
        const encMeta = await encryptMeta(keys, id, parentId, { ...meta, name: `f${i}` }, rnd);
        // Every fifth record is moved to another id, folder or parent, or damaged.
        const bad = [
          { id, parentId, encMeta },
          { id: asFileId(crypto.randomUUID()), parentId, encMeta },
          { id, parentId: parentId === null ? folder : null, encMeta },
          { id, parentId, encMeta: `${encMeta.slice(0, -4)}AAAA` },
          { id: 'not-a-uuid' as FileId, parentId, encMeta },
        ];
        return i % 5 === 0 ? bad[(i / 5) % bad.length]! : { id, parentId, encMeta };
      }),
    );
    const f1 = files[1]!;
    files.push({ ...f1, id: f1.id.toUpperCase() as FileId }); // opens: the same 16 bytes
    files.push({ ...f1, id: `${f1.id.slice(0, 7)}-${f1.id[7]}${f1.id.slice(9)}` as FileId });
    files.push({ id: fileId, parentId: null, encMeta: '!!!!' });
    files.push({ id: fileId, parentId: null, encMeta: toBase64(new Uint8Array(40)) });
    const one = await Promise.all(
      files.map((f) => decryptMeta(keys, f.id, f.parentId, f.encMeta).catch(() => null)),
    );
    expect(await decryptMetas(keys, files)).toEqual(one);
    expect(one.filter((m) => m === null).length).toBeGreaterThan(5);
    expect(one.filter((m) => m !== null).length).toBeGreaterThan(25);
    expect(one.at(-4)).toEqual({ ...meta, name: 'f1' });

    const items = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const id = asItemId(crypto.randomUUID());
        const data = await encryptItem(keys, id, i + 1, { ...item, title: `t${i}` }, rnd);
        if (i % 4 === 1) return { id, revision: i + 2, data }; // the wrong revision
        if (i % 4 === 2) return { id, revision: -1, data };
        return { id, revision: i + 1, data };
      }),
    );
    const oneItem = await Promise.all(
      items.map((r) => decryptItem(keys, r.id, r.revision, r.data).catch(() => null)),
    );
    expect(await decryptItems(keys, items)).toEqual(oneItem);
    expect(oneItem.filter((x) => x !== null).length).toBe(15);
  });

  it('cannot be swapped with metadata (different keys)', async () => {
    const enc = await client.encryptMeta(session, asFileId(itemId), null, meta);
    await expect(client.decryptItem(session, itemId, 1, enc)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });
});

describe("a device's cache of a vault", () => {
  it('opens under the same vault only, and never as metadata', async () => {
    const value = JSON.stringify({ v: 1, records: { a: ['s', meta, 'd'] } });
    const sealed = await client.sealCache(session, value);
    expect(await client.openCache(session, sealed)).toBe(value);
    await expect(client.openCache(otherVault, sealed)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(
      client.decryptMeta(session, asFileId(crypto.randomUUID()), null, toBase64(sealed)),
    ).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    const enc = await client.encryptMeta(session, asFileId(itemId), null, meta);
    await expect(client.openCache(session, fromBase64(enc))).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(client.openCache(session, sealed.subarray(0, 20))).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });
});

describe('name look-up', () => {
  it('is deterministic per vault and folder, NFC-insensitive and hex', async () => {
    const a = await client.lookupName(session, folder, 'caf\u00e9.txt');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await client.lookupName(session, folder, 'cafe\u0301.txt')).toBe(a);
    expect(await client.lookupName(session, null, 'caf\u00e9.txt')).not.toBe(a);
    expect(await client.lookupName(otherVault, folder, 'caf\u00e9.txt')).not.toBe(a);
    expect(await client.lookupName(session, folder, 'Caf\u00e9.txt')).not.toBe(a);
  });
});
