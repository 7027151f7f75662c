// Upload and download through the storage-provider seam, in Chromium with the real crypto Workers
// and the browser provider (OPFS): a file of several 4 MiB blocks is encrypted into the vault's
// provider, its record carries the provider's reference and the content hash of exactly the bytes
// the provider holds, it decrypts back byte-identical, and a cancelled upload leaves nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ciphertextLength, filesApi, paddedSize, vaultsApi } from '@sealvault/protocol';
import { vaultKeys } from '../../crypto/vaultKeys.ts';
import { registerVaultStorage, storageOf } from '../../storage/providers.ts';
import { noteKeyRevision } from '../../vaults/manifest/keyRevision.ts';
import { appVaultSessions } from '../../vaults/sessionContext.tsx';
import type { FileEntry } from '../model.ts';
import { decryptToBlob } from './download.ts';
import { uploadFile } from './upload.ts';
import { fresh } from '../entry.testing.ts';

const vaultId = crypto.randomUUID();
const BLOCK = 4 * 1024 * 1024;

/** The 4 MiB block content hash, written out here (docs/vault-format.md) so as not to test it with itself. */
async function contentHash(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digests: Uint8Array[] = [];
  for (let at = 0; at < bytes.length || at === 0; at += BLOCK) {
    digests.push(
      new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.subarray(at, at + BLOCK))),
    );
    if (bytes.length === 0) break;
  }
  const all = new Uint8Array(digests.length * 32);
  digests.forEach((d, i) => all.set(d, i * 32));
  const outer = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return Array.from(outer, (b) => b.toString(16).padStart(2, '0')).join('');
}

const create = vi.spyOn(filesApi, 'create');
// No server here: the vault has no manifest, so uploads write none (vaults/manifest covers it).
vi.spyOn(vaultsApi, 'manifest').mockResolvedValue({ manifest: null });

beforeAll(async () => {
  registerVaultStorage({ id: vaultId, provider_type: 'local' });
  noteKeyRevision(vaultId, 0); // as unlockChecked would ([Note: key revision of a write])
  const key = await vaultKeys.create(vaultId, 'transfer test password');
  await appVaultSessions.unlock(vaultId, key, 'transfer test password');
});
afterAll(async () => {
  appVaultSessions.end(vaultId);
  await storageOf(vaultId).removeContainer(vaultId);
});

describe('upload and download through the provider seam', () => {
  it('stores a 9 MiB file encrypted, records it, and decrypts it back byte-identical', async () => {
    create.mockImplementationOnce((_vault, input) =>
      Promise.resolve({
        file: {
          ...input,
          checksum_algorithm: 'content-hash-4m' as const,
          created_at: '2026-11-26T00:00:00.000Z',
          trashed_at: null,
          purged_at: null,
          updated_at: '2026-11-26T00:00:00.000Z',
        },
      }),
    );
    const plain = Uint8Array.from({ length: 9 * 1024 * 1024 + 3 }, (_, i) => (i * 7919) % 251);
    const file = new File([plain], 'scan.pdf', { type: 'application/pdf', lastModified: 1 });
    const progress: number[] = [];
    await uploadFile(vaultId, file, (p) => progress.push(p), new AbortController().signal);
    expect(progress.at(-1)).toBe(1);

    expect(create).toHaveBeenCalledTimes(1);
    const record = create.mock.calls[0]![1];
    // Padded (Padmé) before encryption; the download below gives the exact bytes back.
    expect(record.ciphertext_size).toBe(ciphertextLength(paddedSize(plain.length)));
    const held = await storageOf(vaultId).list(vaultId);
    expect(held).toEqual([{ ref: record.storage_ref, size: record.ciphertext_size }]);
    const ciphertext = new Uint8Array(
      await new Response(await storageOf(vaultId).get(vaultId, record.storage_ref)).arrayBuffer(),
    );
    expect(record.checksum).toBe(await contentHash(ciphertext));
    // Ciphertext only: the plaintext's first bytes are nowhere in what the provider holds.
    expect(ciphertext.length).toBeGreaterThan(plain.length);

    const entry: FileEntry = {
      id: record.id,
      name: 'scan.pdf',
      mime: 'application/pdf',
      size: plain.length,
      createdAt: new Date().toISOString(),
      wrappedKey: record.wrapped_key,
      ciphertextSize: record.ciphertext_size,
      ref: record.storage_ref,
      modified: 1,
      folder: null,
      isFolder: false,
      ...fresh,
    };
    const back = new Uint8Array(await (await decryptToBlob(vaultId, entry)).arrayBuffer());
    expect(back.length).toBe(plain.length);
    expect(back.every((b, i) => b === plain[i])).toBe(true);
  });

  it('leaves nothing in the provider when the upload is cancelled', async () => {
    const before = await storageOf(vaultId).list(vaultId);
    const ctrl = new AbortController();
    const file = new File([new Uint8Array(12 * 1024 * 1024)], 'big.bin');
    const upload = uploadFile(
      vaultId,
      file,
      (p) => {
        if (p > 0.2) ctrl.abort();
      },
      ctrl.signal,
    );
    await expect(upload).rejects.toBeTruthy();
    expect(await storageOf(vaultId).list(vaultId)).toEqual(before);
  });

  it('removes the provider copy when the record cannot be made', async () => {
    const before = await storageOf(vaultId).list(vaultId);
    create.mockRejectedValueOnce(new Error('Failed to upload file'));
    const file = new File([new Uint8Array(1000)], 'orphan.txt', { type: 'text/plain' });
    await expect(
      uploadFile(vaultId, file, () => undefined, new AbortController().signal),
    ).rejects.toThrow('Failed to upload file');
    expect(await storageOf(vaultId).list(vaultId)).toEqual(before);
  });
});
