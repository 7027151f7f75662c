import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';
import { contentHash as testsContentHash } from '../testing/content-hash.ts';
import { ContentHasher, contentHashOfFile } from './content-hash.ts';

const BLOCK = CONTENT_HASH_BLOCK_BYTES;
/** The vectors of [Note: content hash]: byte i = i % 251. */
const vectors: [number, string][] = [
  [0, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  [1, '1406e05881e299367766d313e26c05564ec91bf721d31726bd6e46e60689539a'],
  [BLOCK, 'b9654428408015906b44a00935b70af33830aa344b780b0eabd535a133150d04'],
  [BLOCK + 1, '4a6cc0a344febaa07772e7c974834b2fb1d24594d4ba15f27c97a54699709f44'],
  [3 * BLOCK, '664ecb456d20e76f56989ffe2da61db8101c01a954281050d0ef17a34d672a64'],
];
function pattern(n: number): Buffer {
  const bytes = Buffer.alloc(n);
  for (let i = 0; i < n; i++) bytes[i] = i % 251;
  return bytes;
}
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** Feeds `bytes` in pieces of the given sizes, repeated until everything is in. */
function hashInPieces(bytes: Buffer, sizes: number[]): ContentHasher {
  const hasher = new ContentHasher();
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length] ?? 1;
    hasher.update(bytes.subarray(at, at + n));
    at += n;
  }
  return hasher;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-content-hash-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('content hash', () => {
  it.each(vectors)('matches the vector for %i bytes, however the bytes are cut', (n, hex) => {
    const bytes = pattern(n);
    expect(hashInPieces(bytes, [Math.max(1, n)]).digest()).toBe(hex);
    expect(hashInPieces(bytes, [1_000_003, 7, 65_536]).digest()).toBe(hex);
    expect(hashInPieces(bytes, [BLOCK - 1, 2]).length).toBe(n);
  });

  it.each(vectors)('matches the vector for a stored file of %i bytes', async (n, hex) => {
    const file = path.join(dir, `v${n}`);
    fs.writeFileSync(file, pattern(n));
    expect(await contentHashOfFile(file)).toBe(hex);
  });

  // The tests' own content hash, written apart from the server's (testing/content-hash.ts): a
  // test that agrees with it agrees with the format, not only with the server.
  it.each(vectors)('the tests’ own content hash matches the vector for %i bytes', (n, hex) => {
    expect(testsContentHash(pattern(n))).toBe(hex);
  });

  it('gives the digest of an aligned tail within one block without hashing it again', () => {
    const bytes = pattern(BLOCK + 1000);
    const hasher = new ContentHasher();
    hasher.update(bytes.subarray(0, BLOCK));
    expect(hasher.tailDigest(BLOCK)).toEqual(sha256(bytes.subarray(0, BLOCK)));
    expect(hasher.tailDigest(0)).toEqual(sha256(Buffer.alloc(0)));
    hasher.update(bytes.subarray(BLOCK));
    expect(hasher.tailDigest(1000)).toEqual(sha256(bytes.subarray(BLOCK)));
    expect(() => hasher.tailDigest(500)).toThrow(/block boundary/);
    // Asking does not disturb the running hash.
    expect(hasher.digest()).toBe(hashInPieces(bytes, [777]).digest());
  });

  it('rewinds to a mark, forgetting the bytes hashed after it', () => {
    const bytes = pattern(2 * BLOCK + 5);
    const hasher = new ContentHasher();
    hasher.update(bytes.subarray(0, BLOCK - 10));
    const mark = hasher.mark();
    hasher.update(Buffer.alloc(BLOCK + 100, 0xee)); // a piece that is refused
    hasher.rewind(mark);
    expect(hasher.length).toBe(BLOCK - 10);
    hasher.update(bytes.subarray(BLOCK - 10));
    expect(hasher.digest()).toBe(hashInPieces(bytes, [BLOCK]).digest());
  });
});
