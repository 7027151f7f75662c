import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  characterSets,
  DEFAULT_PASSPHRASE_OPTIONS,
  DEFAULT_PASSWORD_OPTIONS,
  generatePassphrase,
  generatePassword,
  GENERATOR_ALPHABET,
  loadWordList,
  passphraseEntropy,
  passwordEntropy,
  passwordOptionsError,
  randomIndex,
  type PasswordOptions,
  type RandomBytes,
} from './generator.ts';

const opts = (o: Partial<PasswordOptions>): PasswordOptions => ({
  ...DEFAULT_PASSWORD_OPTIONS,
  ...o,
});

/** Hands out the given bytes in order, then fails: a test sees exactly what was drawn. */
function scripted(bytes: number[]): RandomBytes & { left: () => number } {
  let i = 0;
  const fill: RandomBytes = (buf) => {
    for (let j = 0; j < buf.length; j++) {
      if (i >= bytes.length) throw new Error('random source exhausted');
      buf[j] = bytes[i++]!;
    }
  };
  return Object.assign(fill, { left: () => bytes.length - i });
}

describe('generatePassword', () => {
  it('keeps the spec default: 16 characters of letters, digits and !@#$%^&*', () => {
    const sorted = (t: string) => [...t].sort().join('');
    expect(sorted(characterSets(DEFAULT_PASSWORD_OPTIONS).join(''))).toBe(
      sorted(GENERATOR_ALPHABET),
    );
    for (let i = 0; i < 20; i++) {
      const pw = generatePassword();
      expect(pw).toHaveLength(16);
      expect(pw).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    }
  });

  it('uses only the chosen sets and includes one of each', () => {
    for (let i = 0; i < 50; i++) {
      const pw = generatePassword(opts({ length: 4, symbols: false }));
      expect(pw).toMatch(/^[A-Za-z0-9]{4}$/);
      expect(pw).toMatch(/[a-z]/);
      expect(pw).toMatch(/[A-Z]/);
      expect(pw).toMatch(/[0-9]/);
      expect(
        generatePassword(opts({ length: 30, lower: false, upper: false, symbols: false })),
      ).toMatch(/^\d{30}$/);
    }
    expect(generatePassword(opts({ length: 128 }))).toHaveLength(128);
  });

  it('leaves out I, l, O, 0 and 1 when asked', () => {
    expect(characterSets(opts({ avoidLookAlikes: true })).join('')).not.toMatch(/[IlO01]/);
    for (let i = 0; i < 20; i++) {
      expect(generatePassword(opts({ length: 100, avoidLookAlikes: true }))).not.toMatch(/[IlO01]/);
    }
  });

  it('throws a whole draw away when it misses a chosen set, and rejects bytes past the unbiased limit', () => {
    // Lower case and digits: 36 characters, bytes >= 252 (7 × 36) rejected; 8 bytes a draw.
    // First draw: 'abcd' has no digit → thrown away. Second: 255 rejected, then '0', 'a', '1', 'b'.
    const random = scripted([0, 1, 2, 3, 9, 9, 9, 9, 255, 26, 0, 27, 1, 9, 9, 9]);
    const pw = generatePassword(opts({ length: 4, upper: false, symbols: false }), random);
    expect(random.left()).toBe(0);
    expect(pw).toBe('0a1b');
  });

  it('refuses impossible options with a message', () => {
    expect(passwordOptionsError(opts({ length: 3 }))).toMatch(/between 4 and 128/);
    expect(passwordOptionsError(opts({ length: 129 }))).toMatch(/between 4 and 128/);
    expect(passwordOptionsError(opts({ length: 10.5 }))).toMatch(/between/);
    expect(
      passwordOptionsError(opts({ lower: false, upper: false, digits: false, symbols: false })),
    ).toMatch(/at least one/);
    expect(passwordOptionsError(DEFAULT_PASSWORD_OPTIONS)).toBeNull();
    expect(() =>
      generatePassword(opts({ digits: false, lower: false, upper: false, symbols: false })),
    ).toThrow(RangeError);
  });
});

describe('passwordEntropy', () => {
  it('counts the passwords exactly: one set is length × log2(size)', () => {
    expect(
      passwordEntropy(opts({ length: 10, lower: false, upper: false, symbols: false })),
    ).toBeCloseTo(10 * Math.log2(10), 10);
  });

  it('subtracts the passwords missing a set', () => {
    // Lower case and digits, length 4: 36⁴ − 26⁴ − 10⁴ (no digit, no letter) = 1,212,640.
    expect(passwordEntropy(opts({ length: 4, upper: false, symbols: false }))).toBeCloseTo(
      Math.log2(1_212_640),
      10,
    );
    // The default: a little under 16 × log2(70) ≈ 98.07 bits.
    const bits = passwordEntropy(DEFAULT_PASSWORD_OPTIONS);
    expect(bits).toBeLessThan(16 * Math.log2(70));
    expect(bits).toBeGreaterThan(97);
    expect(passwordEntropy(opts({ avoidLookAlikes: true }))).toBeLessThan(bits);
    expect(passwordEntropy(opts({ length: 2 }))).toBe(0);
  });
});

describe('randomIndex', () => {
  it('rejects values at or past the largest multiple of n below 2^32', () => {
    // n = 7776: limit = 2^32 − (2^32 mod 7776) = 4294964736 = 0xFFFFF600, itself rejected.
    const random = scripted([0xff, 0xff, 0xf6, 0x00, 0xff, 0xff, 0xf5, 0xff]);
    expect(randomIndex(7776, random)).toBe(7775);
    expect(random.left()).toBe(0);
  });

  it('spreads draws over the whole range', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(randomIndex(6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('the EFF word list', () => {
  it('is the large list: 7,776 distinct, sorted, lower-case words from abacus to zoom', async () => {
    const words = await loadWordList();
    expect(words).toHaveLength(7776);
    expect(new Set(words).size).toBe(7776);
    expect([...words].sort()).toEqual(words);
    expect(words.every((w) => /^[a-z-]{3,9}$/.test(w))).toBe(true);
    expect([words[0], words[1], words[7775]]).toEqual(['abacus', 'abdomen', 'zoom']);
  });

  it('is byte for byte the asset generated from the package (its hash is pinned)', () => {
    const text = fs.readFileSync(new URL('./eff_large_wordlist.txt', import.meta.url));
    expect(createHash('sha256').update(text).digest('hex')).toBe(
      '6d557f0693958fb5e650b68b5bee585eb82cf4da32965505c789e924743bc522',
    );
  });
});

describe('generatePassphrase', () => {
  it('draws the asked number of list words, joined by the separator', async () => {
    const list = new Set(await loadWordList());
    const phrase = await generatePassphrase();
    const words = phrase.split('-');
    expect(words).toHaveLength(DEFAULT_PASSPHRASE_OPTIONS.words);
    for (const w of words) expect(list.has(w)).toBe(true);
    const spaced = await generatePassphrase({
      words: 3,
      separator: ' ',
      capitalize: false,
      number: false,
    });
    expect(spaced.split(' ')).toHaveLength(3);
  });

  it('picks words by index from the random source, capitalises, and appends one digit to one word', async () => {
    // Index 0 (abacus), 1 (abdomen), 7775 (zoom: 7775 = 0x00001E5F), then the word (2) and the digit (7).
    const random = scripted([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x1e, 0x5f, 0, 0, 0, 2, 0, 0, 0, 7]);
    const phrase = await generatePassphrase(
      { words: 3, separator: '.', capitalize: true, number: true },
      random,
    );
    expect(phrase).toBe('Abacus.Abdomen.Zoom7');
  });

  it('refuses too few or too many words', async () => {
    await expect(generatePassphrase({ ...DEFAULT_PASSPHRASE_OPTIONS, words: 2 })).rejects.toThrow(
      RangeError,
    );
    await expect(generatePassphrase({ ...DEFAULT_PASSPHRASE_OPTIONS, words: 21 })).rejects.toThrow(
      /between 3 and 20/,
    );
  });

  it('estimates log2(7776) ≈ 12.925 bits a word, plus the digit and its place', () => {
    expect(passphraseEntropy(DEFAULT_PASSPHRASE_OPTIONS)).toBeCloseTo(6 * Math.log2(7776), 10);
    expect(passphraseEntropy({ ...DEFAULT_PASSPHRASE_OPTIONS, number: true })).toBeCloseTo(
      6 * Math.log2(7776) + Math.log2(60),
      10,
    );
    expect(passphraseEntropy({ ...DEFAULT_PASSPHRASE_OPTIONS, words: 1 })).toBe(0);
  });
});
