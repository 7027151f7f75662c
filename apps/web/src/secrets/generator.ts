// The password generator (docs/product.md §5: 16 characters of letters, digits and !@#$%^&*). Characters are
// drawn with crypto.getRandomValues by rejection sampling, so every character is equally likely
// (no modulo bias).
export const GENERATOR_ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';
export const GENERATED_LENGTH = 16;

export function generatePassword(
  length = GENERATED_LENGTH,
  alphabet = GENERATOR_ALPHABET,
  random: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => void crypto.getRandomValues(b),
): string {
  // Accept a byte only below the largest multiple of the alphabet size; reject the rest.
  const limit = 256 - (256 % alphabet.length);
  const out: string[] = [];
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    random(buf);
    for (const byte of buf) {
      if (byte < limit) out.push(alphabet[byte % alphabet.length]!);
      if (out.length === length) break;
    }
  }
  return out.join('');
}
