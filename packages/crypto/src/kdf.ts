// Password key derivation (vault-format.md §1): Argon2id (default) or PBKDF2-SHA256, with floors
// and caps checked before any work so a hostile record can neither weaken nor freeze the client.
// Passwords are NFC-normalised, then UTF-8 encoded.
import { u32be, utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { argon2id, pbkdf2Sha256, type Bytes } from './primitives.ts';

/** What a slot records about how its KEK was derived (the shape of protocol's keySlotSchema). */
export type KdfParams =
  /** Argon2id v1.3; `m` in KiB, `t` passes, `p` lanes. */
  | { alg: 'argon2id'; m: number; t: number; p: number }
  | { alg: 'pbkdf2-sha256'; iterations: number }
  /** Recovery slots: the secret is 32 random bytes, so no password hashing. */
  | { alg: 'none' }
  /** Passkey slots: HKDF over a WebAuthn PRF output (passkey.ts), no password hashing. */
  | { alg: 'prf-hkdf-sha256' };

/** A named default or explicit parameters. */
export type KdfProfile = 'argon2id' | 'pbkdf2-sha256' | KdfParams;

export const ARGON2ID_DEFAULT = { alg: 'argon2id', m: 64 * 1024, t: 3, p: 1 } as const;
export const PBKDF2_DEFAULT = { alg: 'pbkdf2-sha256', iterations: 600_000 } as const;
/** The floor of vault-format.md §1: m >= 19 MiB, t >= 2 (OWASP's Argon2id minimum). */
export const ARGON2ID_FLOOR = { alg: 'argon2id', m: 19 * 1024, t: 2, p: 1 } as const;

// [Note: KDF caps] The caps are what an honest client ever writes (the defaults above) with a
// margin: 4x the memory, one more pass, 4 lanes; 2 million PBKDF2 iterations (3.3x). They used to
// be the design's outer bounds (1 GiB, t = 10, 16 lanes, 10 million): one hostile slot then cost
// about 21 s of Argon2id and 1 GiB of WebAssembly memory, eight of them about 170 s, during which
// the unlock spins and the crypto Worker does nothing else (docs/vault-format.md, Floors and
// caps). Now one slot costs at most about 2.4 s (256 MiB, t = 4), and an unlock derives once at
// most: a key with more than one password slot is refused before any derivation (slot.ts,
// openVaultKey; ADR 0007).
export const LIMITS = {
  argon2id: { mMin: 19 * 1024, mMax: 256 * 1024, tMin: 2, tMax: 4, pMin: 1, pMax: 4 },
  pbkdf2: { min: 600_000, max: 2_000_000 },
} as const;

const int = (n: unknown, min: number, max: number): boolean =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** True when the parameters are well formed and inside the floors and caps. */
export function kdfParamsAllowed(kdf: unknown): kdf is KdfParams {
  if (typeof kdf !== 'object' || kdf === null) return false;
  const k = kdf as Record<string, unknown>;
  const a = LIMITS.argon2id;
  switch (k.alg) {
    case 'argon2id':
      return int(k.m, a.mMin, a.mMax) && int(k.t, a.tMin, a.tMax) && int(k.p, a.pMin, a.pMax);
    case 'pbkdf2-sha256':
      return int(k.iterations, LIMITS.pbkdf2.min, LIMITS.pbkdf2.max);
    case 'none':
    case 'prf-hkdf-sha256':
      return true;
    default:
      return false;
  }
}

/** Resolves a profile to checked password parameters; throws KDF_PARAMS otherwise. */
export function resolvePasswordKdf(profile: KdfProfile = 'argon2id'): KdfParams {
  if (profile === 'argon2id') return { ...ARGON2ID_DEFAULT };
  if (profile === 'pbkdf2-sha256') return { ...PBKDF2_DEFAULT };
  if (profile.alg === 'none' || profile.alg === 'prf-hkdf-sha256' || !kdfParamsAllowed(profile)) {
    throw new CryptoError('KDF_PARAMS');
  }
  return profile.alg === 'argon2id'
    ? { alg: 'argon2id', m: profile.m, t: profile.t, p: profile.p }
    : { alg: 'pbkdf2-sha256', iterations: profile.iterations };
}

/** The canonical bytes of the parameters inside the slot AAD: alg byte then uint32s. */
export function kdfParamsBytes(kdf: KdfParams): Uint8Array {
  switch (kdf.alg) {
    case 'argon2id':
      return Uint8Array.of(1, ...u32be(kdf.m), ...u32be(kdf.t), ...u32be(kdf.p));
    case 'pbkdf2-sha256':
      return Uint8Array.of(2, ...u32be(kdf.iterations));
    case 'none':
      return Uint8Array.of(0);
    case 'prf-hkdf-sha256':
      return Uint8Array.of(3);
  }
}

export const passwordBytes = (password: string): Bytes => utf8(password.normalize('NFC'));

/**
 * pwKey = KDF(NFC(password), salt16) -> 32 bytes. Refuses parameters outside the limits before
 * doing any work. The caller maps the error (unlock turns every failure into 'Invalid password').
 */
export async function derivePasswordKey(password: string, salt: Bytes, kdf: KdfParams) {
  if (
    !kdfParamsAllowed(kdf) ||
    (kdf.alg !== 'argon2id' && kdf.alg !== 'pbkdf2-sha256') ||
    salt.length !== 16
  ) {
    throw new CryptoError('KDF_PARAMS');
  }
  const pw = passwordBytes(password);
  try {
    return kdf.alg === 'argon2id'
      ? await argon2id(pw, salt, kdf.m, kdf.t, kdf.p)
      : await pbkdf2Sha256(pw, salt, kdf.iterations);
  } finally {
    pw.fill(0);
  }
}
