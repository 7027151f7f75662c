// Bitwarden's password-protected JSON export, as its clients write it (bitwarden/sdk-internal,
// crates/bitwarden-exporters, encrypted_json.rs): a random 16-byte salt, base64-encoded, whose
// base64 *text* is the KDF salt; key = PBKDF2-SHA256(password, salt, kdfIterations) (kdfType 0)
// or Argon2id(password, SHA-256(salt), kdfMemory MiB, kdfIterations, kdfParallelism) (kdfType 1);
// that key is stretched with HKDF-Expand (RFC 5869 §2.3, SHA-256) into a 32-byte encryption key
// (info "enc") and a 32-byte MAC key (info "mac"). `encKeyValidation_DO_NOT_EDIT` and `data` are
// EncStrings of type 2 (AesCbc256_HmacSha256_B64): "2.<iv>|<ciphertext>|<mac>" in base64, AES-256
// -CBC with PKCS#7 padding and mac = HMAC-SHA256(macKey, iv | ciphertext). `data` is the text of
// an unencrypted export. A wrong password fails the validation string's MAC.
import { z } from 'zod';
import {
  aesCbcDecrypt,
  aesCbcEncrypt,
  argon2,
  decodeUtf8,
  encodeUtf8,
  fromBase64,
  hkdfExpand32,
  hmacSha256,
  hmacSha256Verify,
  pbkdf2Sha256,
  randomBytes,
  sha256,
  toBase64,
  type Bytes,
} from '../crypto.ts';
import { i18n, msg } from '../../../i18n/i18n.ts';
import { ImportError, malformed, type ParseResult } from '../errors.ts';
import { checkSchema, readJson } from '../read.ts';
import { parseBitwardenJson } from './bitwarden-json.ts';

const LABEL = msg('Bitwarden export');

export const bitwardenEncryptedSchema = z.looseObject({
  encrypted: z.literal(true),
  passwordProtected: z.literal(true),
  salt: z.string().min(1),
  kdfType: z.union([z.literal(0), z.literal(1)]),
  kdfIterations: z.number().int().min(1).max(10_000_000),
  kdfMemory: z.number().int().min(1).max(1024).nullish(),
  kdfParallelism: z.number().int().min(1).max(16).nullish(),
  encKeyValidation_DO_NOT_EDIT: z.string(),
  data: z.string(),
});
export type BitwardenKdf =
  | { kdfType: 0; kdfIterations: number }
  | { kdfType: 1; kdfIterations: number; kdfMemory: number; kdfParallelism: number };

interface Keys {
  enc: Bytes;
  mac: Bytes;
}

async function deriveKeys(password: string, salt: string, kdf: BitwardenKdf): Promise<Keys> {
  const pw = encodeUtf8(password);
  const saltBytes = encodeUtf8(salt);
  const key =
    kdf.kdfType === 0
      ? await pbkdf2Sha256(pw, saltBytes, kdf.kdfIterations)
      : await argon2(
          'argon2id',
          pw,
          await sha256(saltBytes),
          kdf.kdfMemory * 1024,
          kdf.kdfIterations,
          kdf.kdfParallelism,
        );
  return { enc: await hkdfExpand32(key, 'enc'), mac: await hkdfExpand32(key, 'mac') };
}

async function encString(keys: Keys, plaintext: string): Promise<string> {
  const iv = randomBytes(16);
  const ct = await aesCbcEncrypt(keys.enc, iv, encodeUtf8(plaintext));
  const mac = await hmacSha256(keys.mac, new Uint8Array([...iv, ...ct]));
  return `2.${toBase64(iv)}|${toBase64(ct)}|${toBase64(mac)}`;
}

/** Decrypts an EncString; undefined when its MAC does not match (a wrong key). */
async function decString(keys: Keys, value: string, what: string): Promise<string | undefined> {
  const m = /^2\.([^|]+)\|([^|]+)\|([^|]+)$/.exec(value);
  const parts = m ? [m[1], m[2], m[3]].map((p) => fromBase64(p ?? '')) : [];
  const [iv, ct, mac] = parts;
  if (!iv || !ct || !mac || iv.length !== 16) {
    throw malformed(
      i18n.t('This Bitwarden export cannot be read: "{{field}}" is not an encrypted string.', {
        field: what,
      }),
    );
  }
  if (!(await hmacSha256Verify(keys.mac, mac, new Uint8Array([...iv, ...ct])))) return undefined;
  return decodeUtf8(await aesCbcDecrypt(keys.enc, iv, ct));
}

export async function parseBitwardenEncrypted(
  data: unknown,
  password: string | undefined,
): Promise<ParseResult> {
  const file = checkSchema(bitwardenEncryptedSchema, data, LABEL, [], () => undefined);
  if (password === undefined) {
    throw new ImportError(
      'PASSWORD_REQUIRED',
      i18n.t('This Bitwarden export is password protected.'),
    );
  }
  const kdf: BitwardenKdf =
    file.kdfType === 0
      ? { kdfType: 0, kdfIterations: file.kdfIterations }
      : {
          kdfType: 1,
          kdfIterations: file.kdfIterations,
          kdfMemory: file.kdfMemory ?? 64,
          kdfParallelism: file.kdfParallelism ?? 4,
        };
  const keys = await deriveKeys(password, file.salt, kdf);
  const check = await decString(keys, file.encKeyValidation_DO_NOT_EDIT, 'encKeyValidation');
  if (check === undefined) {
    throw new ImportError(
      'WRONG_PASSWORD',
      i18n.t('The password is wrong for this Bitwarden export.'),
    );
  }
  const text = await decString(keys, file.data, 'data');
  if (text === undefined)
    throw malformed(i18n.t('This Bitwarden export is damaged: its data fails its check.'));
  const result = parseBitwardenJson(readJson(text, LABEL), LABEL);
  return { ...result, format: 'bitwarden-json-encrypted' };
}

/**
 * A password-protected Bitwarden export of `plainJson` (the text of an unencrypted export), as
 * Bitwarden writes one; Bitwarden's clients import it.
 */
export async function encryptBitwardenJson(
  plainJson: string,
  password: string,
  kdf: BitwardenKdf = { kdfType: 0, kdfIterations: 600_000 },
): Promise<string> {
  const salt = toBase64(randomBytes(16));
  const keys = await deriveKeys(password, salt, kdf);
  const file = {
    encrypted: true,
    passwordProtected: true,
    salt,
    kdfType: kdf.kdfType,
    kdfIterations: kdf.kdfIterations,
    kdfMemory: kdf.kdfType === 1 ? kdf.kdfMemory : null,
    kdfParallelism: kdf.kdfType === 1 ? kdf.kdfParallelism : null,
    encKeyValidation_DO_NOT_EDIT: await encString(keys, globalThis.crypto.randomUUID()),
    data: await encString(keys, plainJson),
  };
  return JSON.stringify(file, null, 2);
}
