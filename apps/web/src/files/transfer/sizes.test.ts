// The vf1 ciphertext size is computed in two places: the crypto package (which writes the bytes)
// and the protocol (which the server and the plan checks use, without the crypto package). They
// must never disagree, or the server would refuse uploads of some sizes or take wrong lengths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ciphertextSize, plaintextSize } from '@sealvault/crypto';
import { ciphertextLength, plaintextLength } from '@sealvault/protocol';

const CHUNK = 256 * 1024;

describe('the vf1 size formula, in crypto and in protocol', () => {
  it('agrees at the chunk boundaries', () => {
    for (const n of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 4 * 1024 * 1024, 2 ** 30]) {
      expect(ciphertextLength(n)).toBe(ciphertextSize(n));
    }
  });

  it('agrees for any size up to 64 GiB', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 * 2 ** 30 }), (n) => {
        expect(ciphertextLength(n)).toBe(ciphertextSize(n));
      }),
    );
  });

  it('agrees on the plaintext a ciphertext length holds, and on lengths no ciphertext has', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 * 2 ** 30 }), (n) => {
        expect(plaintextLength(n)).toBe(plaintextSize(n));
      }),
    );
    for (const n of [0, 71, 72, 88, 89, ciphertextLength(CHUNK), ciphertextLength(CHUNK) + 1]) {
      expect(plaintextLength(n)).toBe(plaintextSize(n));
    }
  });
});
