// The tests' own content hash matches the vectors of docs/vault-format.md §2 (byte i = i % 251),
// so a server test that agrees with it agrees with the format, not only with the server.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTENT_HASH_BLOCK_BYTES as B } from '@sealvault/protocol';
import { contentHash } from './content-hash.ts';

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

describe('the tests’ content hash', () => {
  it.each(VECTORS)('matches the vector: %s (%i bytes)', (_name, size, hex) => {
    expect(contentHash(data(size))).toBe(hex);
  });

  it('is not the SHA-256 of the whole input once there are two blocks', () => {
    const d = data(B + 1);
    expect(contentHash(d)).not.toBe(createHash('sha256').update(d).digest('hex'));
  });

  it('hashes a view by its own bytes, not its whole buffer', () => {
    const whole = data(B + 10);
    expect(contentHash(whole.subarray(5, 6))).toBe(contentHash(Uint8Array.of(5)));
  });
});
