import { describe, expect, it } from 'vitest';
import {
  ciphertextLength,
  fileTooLargeMessage,
  maxCiphertextLength,
  paddedSize,
  plaintextLength,
  trashFilesRequestSchema,
  uploadMetadataSchema,
  vaultFileSchema,
} from './files.ts';

describe('vf1 sizes', () => {
  it('follows 72 + P + 16 * max(1, ceil(P / 2^18))', () => {
    expect(ciphertextLength(0)).toBe(88);
    expect(ciphertextLength(1)).toBe(89);
    expect(ciphertextLength(2 ** 18)).toBe(72 + 2 ** 18 + 16);
    expect(ciphertextLength(2 ** 18 + 1)).toBe(72 + 2 ** 18 + 1 + 32);
  });

  it('inverts every valid length and rejects impossible ones', () => {
    for (const p of [0, 1, 2 ** 18 - 1, 2 ** 18, 2 ** 18 + 1, 5 * 2 ** 18, 2 * 1024 ** 3 + 7]) {
      expect(plaintextLength(ciphertextLength(p))).toBe(p);
    }
    expect(plaintextLength(87)).toBeNull();
    // A second chunk that holds only part of a tag cannot be produced by vf1.
    expect(plaintextLength(72 + 2 ** 18 + 16 + 10)).toBeNull();
  });

  it('pads sizes with Padmé: a few top bits free, never less, at most 12% more, stable', () => {
    expect([0, 1, 2, 3, 1000, 5_000_000].map(paddedSize)).toEqual([0, 1, 2, 3, 1024, 5_111_808]);
    for (let n = 1; n < 5_000_000; n = Math.ceil(n * 1.37) + 1) {
      const p = paddedSize(n);
      expect(p).toBeGreaterThanOrEqual(n);
      expect(p - n).toBeLessThanOrEqual(Math.max(1, 0.12 * n));
      expect(paddedSize(p)).toBe(p);
      expect(paddedSize(n + 1)).toBeGreaterThanOrEqual(p);
    }
  });

  it('allows exactly the vf1 overhead on top of the padded plan limit; -1 has no cap', () => {
    expect(maxCiphertextLength(2)).toBe(72 + 2 * 1024 * 1024 + 16 * 8);
    expect(maxCiphertextLength(3)).toBe(ciphertextLength(paddedSize(3 * 1024 * 1024)));
    expect(maxCiphertextLength(-1)).toBeNull();
  });

  it('formats the spec message with one decimal', () => {
    expect(fileTooLargeMessage(3.25 * 1024 * 1024)).toBe(
      "File size (3.3 MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.",
    );
  });

  it('accepts only the expected upload metadata keys', () => {
    const ok = {
      vaultId: '8d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f',
      fileId: '1d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f',
      checksum: 'a'.repeat(64),
      encMeta: 'AAAA',
      lookup: 'b'.repeat(64),
      wrappedKey: 'AAAA',
      keyRevision: '12',
    };
    expect(uploadMetadataSchema.safeParse(ok).success).toBe(true);
    // [Note: key revision of a write]: required, in decimal digits.
    expect(uploadMetadataSchema.safeParse({ ...ok, keyRevision: undefined }).success).toBe(false);
    for (const bad of ['', '-1', '01', '1.5', 'x', '1'.repeat(16)])
      expect(uploadMetadataSchema.safeParse({ ...ok, keyRevision: bad }).success, bad).toBe(false);
    expect(uploadMetadataSchema.safeParse({ ...ok, filename: 'x.pdf' }).success).toBe(false);
    expect(uploadMetadataSchema.safeParse({ ...ok, encMeta: 'not base64!' }).success).toBe(false);
    expect(uploadMetadataSchema.safeParse({ ...ok, wrappedKey: 'A'.repeat(400) }).success).toBe(
      false,
    );
  });
});

describe('the trash', () => {
  const id = '1d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f';

  it('reads a record without trash times (an older server) as neither trashed nor purged', () => {
    const record = vaultFileSchema.parse({
      id,
      enc_meta: 'AAAA',
      name_lookup: 'b'.repeat(64),
      wrapped_key: 'AAAA',
      ciphertext_size: 88,
      checksum: 'a'.repeat(64),
      checksum_algorithm: 'content-hash-4m',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect([record.trashed_at, record.purged_at]).toEqual([null, null]);
  });

  it('takes 1 to 1000 file ids and the flag, nothing else', () => {
    expect(trashFilesRequestSchema.safeParse({ ids: [id], trashed: false }).success).toBe(true);
    for (const bad of [
      { trashed: true },
      { ids: [id] },
      { ids: [], trashed: true },
      { ids: ['x'], trashed: true },
      { ids: Array.from({ length: 1001 }, () => id), trashed: true },
      { ids: [id], trashed: true, key_revision: 0 },
    ])
      expect(trashFilesRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
