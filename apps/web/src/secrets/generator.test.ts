import { describe, expect, it } from 'vitest';
import { generatePassword, GENERATOR_ALPHABET } from './generator.ts';

describe('password generator', () => {
  it('makes 16 characters from letters, digits and !@#$%^&*', () => {
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      expect(p).toHaveLength(16);
      expect(p).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    }
  });

  it('rejects bytes past the last whole multiple of the alphabet size (no modulo bias)', () => {
    // 70 symbols: 256 - 256 % 70 = 210, so bytes 210..255 must be skipped, not folded.
    const bytes = [255, 210, 0, 69, 209];
    let i = 0;
    const p = generatePassword(3, GENERATOR_ALPHABET, (b) => {
      for (let k = 0; k < b.length; k++) b[k] = bytes[i++ % bytes.length]!;
    });
    expect(p).toBe(
      `${GENERATOR_ALPHABET[0]}${GENERATOR_ALPHABET[69]}${GENERATOR_ALPHABET[209 % 70]}`,
    );
  });

  it('uses every symbol of the alphabet with roughly equal frequency', () => {
    const counts = new Map<string, number>();
    const text = Array.from({ length: 700 }, () => generatePassword()).join('');
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(GENERATOR_ALPHABET.length);
    const expected = text.length / GENERATOR_ALPHABET.length;
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.5);
  });
});
