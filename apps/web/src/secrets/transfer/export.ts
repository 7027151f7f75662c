// The exports of a secrets vault (issue 20): the encrypted SealVault export, the default, whose
// format is docs/vault-format.md, "Encrypted export"; and Bitwarden's plain JSON and CSV, for
// moving to another manager. importEncrypted reads our export back: export then import gives
// the same items.
import { z } from 'zod';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  argon2,
  decodeUtf8,
  encodeUtf8,
  fromBase64,
  randomBytes,
  toBase64,
} from './crypto.ts';
import { i18n, msg } from '../../i18n/i18n.ts';
import { ImportError, malformed, type ParseResult } from './errors.ts';
import type { TransferItem } from './model.ts';
import { toBitwardenExport } from './parsers/bitwarden-json.ts';
import { checkSchema } from './read.ts';

export { exportBitwardenCsv } from './parsers/bitwarden-csv.ts';

export const EXPORT_FORMAT = 'sealvault-export';
/** Argon2id at 64 MiB, 3 passes, 1 lane: the export's default (vault-format.md). */
export const EXPORT_KDF = { alg: 'argon2id', m: 65_536, t: 3, p: 1 } as const;
export interface ExportKdf {
  alg: 'argon2id';
  /** Memory in KiB. */
  m: number;
  t: number;
  p: number;
}

const LABEL = msg('SealVault export');
const b64 = (bytes: number) =>
  z.string().refine((s) => fromBase64(s)?.length === bytes, `expected ${bytes} bytes of base64`);
const exportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(1),
  kdf: z.object({
    alg: z.literal('argon2id'),
    m: z.number().int().min(8).max(1_048_576),
    t: z.number().int().min(1).max(16),
    p: z.number().int().min(1).max(16),
  }),
  salt: b64(16),
  nonce: b64(12),
  data: z.string(),
});

const s = z.string();
const customField = z.object({ name: s, value: s, hidden: z.boolean() });
const commonShape = {
  title: s,
  notes: s,
  urls: z.array(s),
  totp: s.optional(),
  customFields: z.array(customField),
  folder: s.optional(),
};
const itemSchema = z.discriminatedUnion('type', [
  z.object({
    ...commonShape,
    type: z.literal('login'),
    login: z.object({ username: s, password: s }),
  }),
  z.object({
    ...commonShape,
    type: z.literal('card'),
    card: z.object({ cardholderName: s, brand: s, number: s, expMonth: s, expYear: s, code: s }),
  }),
  z.object({ ...commonShape, type: z.literal('note') }),
  z.object({
    ...commonShape,
    type: z.literal('identity'),
    identity: z.object({
      title: s,
      firstName: s,
      middleName: s,
      lastName: s,
      company: s,
      email: s,
      phone: s,
      address1: s,
      address2: s,
      address3: s,
      city: s,
      state: s,
      postalCode: s,
      country: s,
      ssn: s,
      username: s,
      passportNumber: s,
      licenseNumber: s,
    }),
  }),
  z.object({
    ...commonShape,
    type: z.literal('ssh'),
    ssh: z.object({ privateKey: s, publicKey: s, fingerprint: s }),
  }),
  z.object({
    ...commonShape,
    type: z.literal('apikey'),
    apikey: z.object({ username: s, key: s }),
  }),
  z.object({ ...commonShape, type: z.literal('text') }),
]);
/** The plaintext of an export: the items as TransferItems (model.ts). */
export const exportPayloadSchema = z.object({ items: z.array(itemSchema) });

/** The associated data binding the header to the ciphertext (vault-format.md). */
const aadOf = (kdf: ExportKdf, salt: string) =>
  encodeUtf8(`${EXPORT_FORMAT}:1:${kdf.alg}:${kdf.m}:${kdf.t}:${kdf.p}:${salt}`);

const keyFor = (password: string, salt: Uint8Array, kdf: ExportKdf) =>
  argon2('argon2id', encodeUtf8(password.normalize('NFC')), salt, kdf.m, kdf.t, kdf.p);

/**
 * The encrypted export of `items` under `password`: JSON text (vault-format.md, "Encrypted
 * export"). `kdf` is for tests; the default is EXPORT_KDF.
 */
export async function exportEncrypted(
  items: readonly TransferItem[],
  password: string,
  kdf: ExportKdf = EXPORT_KDF,
): Promise<string> {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const saltB64 = toBase64(salt);
  const key = await keyFor(password, salt, kdf);
  const payload = encodeUtf8(JSON.stringify({ items }));
  const sealed = await aesGcmEncrypt(key, nonce, payload, aadOf(kdf, saltB64));
  const file = {
    format: EXPORT_FORMAT,
    version: 1,
    kdf: { alg: kdf.alg, m: kdf.m, t: kdf.t, p: kdf.p },
    salt: saltB64,
    nonce: toBase64(nonce),
    data: toBase64(sealed),
  };
  return JSON.stringify(file, null, 2);
}

/** Reads our encrypted export (already parsed from JSON text) with its password. */
export async function importEncrypted(
  data: unknown,
  password: string | undefined,
): Promise<ParseResult> {
  const file = checkSchema(exportSchema, data, LABEL, [], () => undefined);
  if (password === undefined) {
    throw new ImportError(
      'PASSWORD_REQUIRED',
      i18n.t('This SealVault export is password protected.'),
    );
  }
  const sealed = fromBase64(file.data);
  if (!sealed || sealed.length < 16)
    throw malformed(i18n.t('This SealVault export has no readable data.'));
  const salt = fromBase64(file.salt)!;
  const nonce = fromBase64(file.nonce)!;
  const key = await keyFor(password, salt, file.kdf);
  let plain: Uint8Array;
  try {
    plain = await aesGcmDecrypt(key, nonce, sealed, aadOf(file.kdf, file.salt));
  } catch {
    throw new ImportError(
      'WRONG_PASSWORD',
      i18n.t('The password is wrong for this SealVault export, or the file was altered.'),
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(decodeUtf8(plain));
  } catch {
    throw malformed(i18n.t('This SealVault export holds unreadable data.'));
  }
  const { items } = checkSchema(exportPayloadSchema, payload, LABEL, ['items'], (e) =>
    e && typeof e === 'object' ? (e as { title?: unknown }).title : undefined,
  );
  return { format: 'sealvault-export', items, skipped: [] };
}

/**
 * A plain (unencrypted) Bitwarden JSON export of `items`, which Bitwarden imports; what
 * Bitwarden has no place for travels in [Note: sealvault extension] (bitwarden-json.ts).
 */
export function exportBitwardenJson(items: readonly TransferItem[]): string {
  return JSON.stringify(toBitwardenExport(items), null, 2);
}
