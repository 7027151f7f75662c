// Our server as a storage provider, in Chromium against the real server (started by
// contract.setup.ts, reached through the test page's origin): the provider contract, and the
// upload of pieces sealed as Blobs.
import { describe, expect, inject, it } from 'vitest';
import { ciphertextLength } from '@sealvault/protocol';
import {
  blockDigest,
  contentHash,
  contentHashOfDigests,
  type SealedPiece,
} from '@sealvault/crypto';
import { StorageError } from '../provider.ts';
import { providerContract } from '../contract.testkit.ts';
import { createServerProvider } from './tus.ts';

const { cookie, vaults } = inject('serverContract');
for (const c of cookie.split('; ')) document.cookie = `${c}; path=/`;

const hex = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
const base64 = (n: number) =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))));

let next = 0;
providerContract('server (tus + Range)', () => {
  const vaultId = vaults[next++];
  if (!vaultId) throw new Error('the setup made too few vaults');
  return Promise.resolve({
    provider: createServerProvider({ contentHash: contentHashOfDigests }),
    vaultId,
    blobId: () => crypto.randomUUID(),
    // The server takes only lengths a vf1 ciphertext can have.
    size: (n) => ciphertextLength(n),
    // Opaque to the server: the file record's encrypted metadata, name look-up and wrapped key.
    putOptions: () => ({
      record: { encMeta: base64(140), lookup: hex(32), wrappedKey: base64(60), keyRevision: '0' },
    }),
  });
});

// [Note: sealed pieces as Blobs]: the pieces a crypto Worker sealed, sent as Blob PATCH bodies.
describe('server provider: pieces handed over as Blobs', () => {
  const provider = createServerProvider({ contentHash: contentHashOfDigests });
  const record = () => ({
    record: { encMeta: base64(140), lookup: hex(32), wrappedKey: base64(60), keyRevision: '0' },
  });
  const B = 4 * 2 ** 20;
  function randomBytes(n: number) {
    const out = new Uint8Array(n);
    for (let at = 0; at < n; at += 65_536) crypto.getRandomValues(out.subarray(at, at + 65_536));
    return out;
  }
  /** `data` cut into 4 MiB Blob pieces with their SHA-256, as encryptFilePieces answers them. */
  function piecesOf(data: Uint8Array<ArrayBuffer>, cut = (n: number) => n) {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (let at = 0; at < data.length; at += B) parts.push(data.subarray(at, at + B));
    return new ReadableStream<SealedPiece>({
      async start(c) {
        for (const [i, p] of parts.entries()) {
          const bytes = p.subarray(0, i === parts.length - 1 ? cut(p.length) : p.length);
          c.enqueue({ blob: new Blob([bytes]), digest: await blockDigest(bytes.slice()) });
        }
        c.close();
      },
    });
  }
  const vaultId = vaults[7]!;

  it('stores them, answers the content hash and the record, and reads back the same bytes', async () => {
    const data = randomBytes(ciphertextLength(9 * 2 ** 20 + 5));
    const id = crypto.randomUUID();
    const sent: number[] = [];
    const stored = await provider.putPieces!(vaultId, id, data.length, piecesOf(data), {
      ...record(),
      onProgress: (n) => sent.push(n),
    });
    expect(stored).toMatchObject({ ref: id, size: data.length });
    expect(stored.contentHash).toBe(await contentHash(data));
    expect(stored.record?.checksum).toBe(stored.contentHash);
    expect(sent.at(-1)).toBe(data.length);
    const back = new Uint8Array(await new Response(await provider.get(vaultId, id)).arrayBuffer());
    expect(back.length).toBe(data.length);
    expect(back.every((b, i) => b === data[i])).toBe(true);
    await provider.delete(vaultId, id);
  });

  it('fails a piece shorter than declared and leaves nothing behind', async () => {
    const data = randomBytes(ciphertextLength(5 * 2 ** 20));
    const id = crypto.randomUUID();
    const put = provider.putPieces!(
      vaultId,
      id,
      data.length,
      piecesOf(data, (n) => n - 1),
      record(),
    );
    await expect(put).rejects.toBeInstanceOf(StorageError);
    expect(await provider.stat(vaultId, id)).toBeNull();
  });
});
