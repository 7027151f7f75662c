import { describe, expect, it } from 'vitest';
import { chunkNonce } from './chunk.ts';

/** The nonce as vault-format.md §2 defines it: uint88 big-endian index, then the final flag. */
function reference(index: number, final: boolean): Uint8Array {
  const nonce = new Uint8Array(12);
  new DataView(nonce.buffer).setBigUint64(3, BigInt(index));
  nonce[11] = final ? 1 : 0;
  return nonce;
}

describe('chunkNonce', () => {
  it('is the big-endian index and the final flag, up to the largest safe index', () => {
    for (const index of [0, 1, 255, 256, 65_535, 2 ** 32 - 1, 2 ** 32 + 5, 2 ** 53 - 1]) {
      for (const final of [false, true]) {
        expect(chunkNonce(index, final)).toEqual(reference(index, final));
      }
    }
  });
  it('refuses a negative, fractional or unsafe index', () => {
    for (const index of [-1, 1.5, 2 ** 53]) expect(() => chunkNonce(index, false)).toThrow();
  });
});
