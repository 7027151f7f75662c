// Share links (issue 29, ADR 0012; vault-format.md "Share links"): `PUBLIC_URL/s/<id>#<secret>`.
// The browser draws the link's id (16 bytes) and secret (32 bytes); the secret lives only in the
// URL's fragment. From them:
//
//   token   = HKDF(secret, salt = id, "vf1/share/access")   proves the link to the server, which
//                                                            keeps only SHA-256(token)
//   K_outer = HKDF(secret, salt = id, "vf1/share/outer")    what the page shows before a password
//                                                            (the note)
//   K_inner = HKDF(secret, salt = id, "vf1/share/inner")    the content, without a password
//           = HKDF(secret | P, salt = id, "vf1/share/inner-pw") with one, where
//   P       = Argon2id(NFC(password), salt16, the link's parameters)
//
// Each of K_outer and K_inner is the master key of a vault of its own whose id is the link's id
// written as a UUID: its subkeys (deriveVaultKeys) encrypt records and files exactly as a vault's
// do, so the note, the metadata, a secret's fields and a file's bytes use the vf1 formats as they
// are. A leaked link without its password opens the note only.
import { concat, utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { RandomBytes } from './bytes.ts';
import { kdfParamsAllowed, passwordBytes, resolvePasswordKdf, type KdfParams } from './kdf.ts';
import type { SessionId } from './ids.ts';
import { argon2id, hkdfBytes, sha256, type Bytes } from './primitives.ts';

export const SHARE_ID_BYTES = 16;
export const SHARE_SECRET_BYTES = 32;
export const SHARE_SALT_BYTES = 16;

export const SHARE_LABELS = {
  access: 'vf1/share/access',
  outer: 'vf1/share/outer',
  inner: 'vf1/share/inner',
  innerPassword: 'vf1/share/inner-pw',
} as const;

/** The Argon2id parameters and salt of a password link (what the server keeps for it). */
export interface ShareKdf {
  alg: 'argon2id';
  m: number;
  t: number;
  p: number;
  /** 16 random bytes. */
  salt: Bytes;
}

export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url without padding, of exactly `length` bytes; INVALID_INPUT otherwise. */
export function fromBase64Url(text: string, length: number): Bytes {
  const chars = Math.ceil((length * 4) / 3);
  if (typeof text !== 'string' || text.length !== chars || !/^[A-Za-z0-9_-]*$/.test(text)) {
    throw new CryptoError('INVALID_INPUT');
  }
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  if (out.length !== length || toBase64Url(out) !== text) throw new CryptoError('INVALID_INPUT');
  return out;
}

/** The link's id as a lowercase UUID: the "vault id" its keys are derived for. */
export function shareUuid(id: Bytes): string {
  const h = Array.from(id, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const check = (id: Bytes, secret: Bytes) => {
  if (id.length !== SHARE_ID_BYTES || secret.length !== SHARE_SECRET_BYTES) {
    throw new CryptoError('INVALID_INPUT');
  }
};

/** The access token (32 bytes) a holder of the link shows the server. */
export async function shareAccessToken(id: Bytes, secret: Bytes): Promise<Bytes> {
  check(id, secret);
  return hkdfBytes(secret, id, utf8(SHARE_LABELS.access), 32);
}

/** What the server keeps of the token: SHA-256, lowercase hex. */
export async function shareAccessHash(token: Bytes): Promise<string> {
  return Array.from(await sha256(token), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** K_outer: the note's key, from the link alone. */
export async function shareOuterKey(id: Bytes, secret: Bytes): Promise<Bytes> {
  check(id, secret);
  return hkdfBytes(secret, id, utf8(SHARE_LABELS.outer), 32);
}

/** P: Argon2id of the password under the link's parameters (checked against the caps first). */
export async function sharePasswordKey(password: string, kdf: ShareKdf): Promise<Bytes> {
  const params: KdfParams = { alg: 'argon2id', m: kdf.m, t: kdf.t, p: kdf.p };
  if (kdf.alg !== 'argon2id' || !kdfParamsAllowed(params) || kdf.salt.length !== SHARE_SALT_BYTES) {
    throw new CryptoError('KDF_PARAMS');
  }
  const pw = passwordBytes(password);
  try {
    return await argon2id(pw, kdf.salt, kdf.m, kdf.t, kdf.p);
  } finally {
    pw.fill(0);
  }
}

/** K_inner: the content's key, from the link and, for a password link, P. */
export async function shareInnerKey(id: Bytes, secret: Bytes, passwordKey: Bytes | null) {
  check(id, secret);
  if (passwordKey === null) return hkdfBytes(secret, id, utf8(SHARE_LABELS.inner), 32);
  const ikm = concat(secret, passwordKey);
  try {
    return await hkdfBytes(ikm, id, utf8(SHARE_LABELS.innerPassword), 32);
  } finally {
    ikm.fill(0);
  }
}

/** Argon2id parameters for a password link (m in KiB). */
export interface ShareKdfParams {
  alg: 'argon2id';
  m: number;
  t: number;
  p: number;
}
/** What the server keeps of a password link's derivation: the parameters and the salt (base64url). */
export interface ShareKdfText extends ShareKdfParams {
  salt: string;
}
export interface NewShare {
  /** The link's id (base64url, 22 characters) and secret (base64url, 43 characters). */
  id: string;
  secret: string;
  /** The access token (base64url) and its SHA-256 (hex), which the server keeps. */
  token: string;
  accessHash: string;
  /** The id as a UUID: the file or item id its records are encrypted for. */
  uuid: string;
  kdf: ShareKdfText | null;
  outer: SessionId;
  inner: SessionId;
}

/** A new link's id, secret, token and keys (the service makes sessions of the two keys). */
export async function newShare(
  random: RandomBytes,
  opts: { password?: string; kdf?: 'argon2id' | ShareKdfParams } = {},
): Promise<Omit<NewShare, 'outer' | 'inner'> & { outerKey: Bytes; innerKey: Bytes }> {
  const id = random(SHARE_ID_BYTES);
  const secret = random(SHARE_SECRET_BYTES);
  let kdf: ShareKdfText | null = null;
  let pwKey: Bytes | null = null;
  try {
    if (opts.password !== undefined) {
      const params = resolvePasswordKdf(opts.kdf ?? 'argon2id');
      if (params.alg !== 'argon2id') throw new CryptoError('KDF_PARAMS');
      const salt = random(SHARE_SALT_BYTES);
      pwKey = await sharePasswordKey(opts.password, { ...params, salt });
      kdf = { ...params, salt: toBase64Url(salt) };
    }
    const token = await shareAccessToken(id, secret);
    return {
      id: toBase64Url(id),
      secret: toBase64Url(secret),
      token: toBase64Url(token),
      accessHash: await shareAccessHash(token),
      uuid: shareUuid(id),
      kdf,
      outerKey: await shareOuterKey(id, secret),
      innerKey: await shareInnerKey(id, secret, pwKey),
    };
  } finally {
    pwKey?.fill(0);
    secret.fill(0);
  }
}

/** A link as its recipient has it (id and secret from the URL): its token and outer key. */
export async function openShareKeys(idText: string, secretText: string) {
  const id = fromBase64Url(idText, SHARE_ID_BYTES);
  const secret = fromBase64Url(secretText, SHARE_SECRET_BYTES);
  try {
    return {
      uuid: shareUuid(id),
      token: toBase64Url(await shareAccessToken(id, secret)),
      outerKey: await shareOuterKey(id, secret),
    };
  } finally {
    secret.fill(0);
  }
}

/** A link's inner key: with its password and parameters when it has one. */
export async function openShareContentKey(
  idText: string,
  secretText: string,
  password: { password: string; kdf: ShareKdfText } | null,
) {
  const id = fromBase64Url(idText, SHARE_ID_BYTES);
  const secret = fromBase64Url(secretText, SHARE_SECRET_BYTES);
  let pwKey: Bytes | null = null;
  try {
    if (password) {
      const { salt, ...params } = password.kdf;
      pwKey = await sharePasswordKey(password.password, {
        ...params,
        salt: fromBase64Url(salt, SHARE_SALT_BYTES),
      });
    }
    return { uuid: shareUuid(id), innerKey: await shareInnerKey(id, secret, pwKey) };
  } finally {
    pwKey?.fill(0);
    secret.fill(0);
  }
}
