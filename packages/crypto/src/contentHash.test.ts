// The content-hash vectors of docs/vault-format.md §2 (run in Node and, by the browser tier, in
// Chromium): input byte i = i mod 251.
import { describe, expect, it } from 'vitest';
import { toHex } from './bytes.ts';
import {
  blockDigest,
  CONTENT_HASH_BLOCK_BYTES as B,
  contentHash,
  contentHashOfDigests,
} from './contentHash.ts';
import { sha256 } from './primitives.ts';

const data = (n: number) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 251;
  return out;
};

const VECTORS: [string, number, string][] = [
  ['empty', 0, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['one byte', 1, '1406e05881e299367766d313e26c05564ec91bf721d31726bd6e46e60689539a'],
  ['one block', B, 'b9654428408015906b44a00935b70af33830aa344b780b0eabd535a133150d04'],
  ['one block + 1 byte', B + 1, '4a6cc0a344febaa07772e7c974834b2fb1d24594d4ba15f27c97a54699709f44'],
  ['three blocks', 3 * B, '664ecb456d20e76f56989ffe2da61db8101c01a954281050d0ef17a34d672a64'],
];

describe('content hash', () => {
  it('is 4 MiB blocks', () => {
    expect(B).toBe(4_194_304);
  });

  for (const [name, size, hex] of VECTORS) {
    it(`matches the vector: ${name} (${size} bytes)`, async () => {
      expect(await contentHash(data(size))).toBe(hex);
    });
  }

  it('is SHA-256 over the concatenated block digests, not over the data', async () => {
    const d = data(B + 1);
    const digests = [await blockDigest(d.subarray(0, B)), await blockDigest(d.subarray(B))];
    expect(await contentHashOfDigests(digests)).toBe(VECTORS[3]![2]);
    expect(await contentHash(d)).not.toBe(toHex(await sha256(d)));
  });

  it('refuses a block over 4 MiB', () => {
    expect(() => blockDigest(new Uint8Array(B + 1))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
