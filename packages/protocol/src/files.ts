// File records and uploads (spec §3 vault_files, §5 files; vault-format.md §2 and §3). The server
// stores ciphertext, its SHA-256, the wrapped file key, the encrypted metadata (name, MIME type and
// plaintext size live inside encMeta) and an HMAC look-up that keeps names unique per vault. All of
// it is opaque to the server.
import { z } from 'zod';
import { UNLIMITED } from './plans.ts';

export const fileIdSchema = z.uuid();

const base64 = (maxBytes: number) =>
  z
    .string()
    .min(4)
    .max(Math.ceil(maxBytes / 3) * 4)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64');
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

/** vf1 encMeta: nonce12 | AES-256-GCM(K_meta, padded JSON), base64, at most 4 KiB. */
export const encMetaSchema = base64(4096);
/** vf1 lookup: HMAC-SHA256(K_look, parentId | 0x00 | NFC(name)), lowercase hex. */
export const nameLookupSchema = hex64;
/** vf1 encFK: nonce12 | AES-256-GCM(K_wrap, FK), base64, at most 256 bytes. */
export const wrappedKeySchema = base64(256);
/** SHA-256 of the whole ciphertext (spec: the file checksum), lowercase hex. */
export const checksumSchema = hex64;

// ---- vf1 ciphertext sizes (vault-format.md §2) ----
export const VF1_HEADER_BYTES = 72;
export const VF1_CHUNK_BYTES = 2 ** 18;
export const VF1_TAG_BYTES = 16;
const SEALED_CHUNK = VF1_CHUNK_BYTES + VF1_TAG_BYTES;

/** Ciphertext length for a plaintext of `plain` bytes: 72 + P + 16 * max(1, ceil(P / 2^18)). */
export const ciphertextLength = (plain: number): number =>
  VF1_HEADER_BYTES + plain + VF1_TAG_BYTES * Math.max(1, Math.ceil(plain / VF1_CHUNK_BYTES));

/** The plaintext length a vf1 ciphertext of `cipher` bytes holds, or null if no plaintext fits. */
export function plaintextLength(cipher: number): number | null {
  if (!Number.isSafeInteger(cipher) || cipher < VF1_HEADER_BYTES + VF1_TAG_BYTES) return null;
  const chunks = Math.ceil((cipher - VF1_HEADER_BYTES) / SEALED_CHUNK);
  const plain = cipher - VF1_HEADER_BYTES - VF1_TAG_BYTES * chunks;
  return ciphertextLength(plain) === cipher ? plain : null;
}

const MiB = 1024 * 1024;

/** Largest ciphertext allowed for a plan's max_file_size_mb (MiB of plaintext); null = no cap. */
export const maxCiphertextLength = (maxFileSizeMb: number): number | null =>
  maxFileSizeMb === UNLIMITED ? null : ciphertextLength(maxFileSizeMb * MiB);

/** Spec §8 (Files): the message when a file is over the plan's size limit. */
export const fileTooLargeMessage = (bytes: number): string =>
  `File size (${(bytes / MiB).toFixed(1)} MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.`;

// ---- records ----
export const vaultFileSchema = z.object({
  id: fileIdSchema,
  enc_meta: z.string(),
  name_lookup: z.string(),
  wrapped_key: z.string(),
  /** Bytes of ciphertext (header, chunks and tags). */
  ciphertext_size: z.number().int().nonnegative(),
  checksum: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type VaultFile = z.infer<typeof vaultFileSchema>;

export const filesResponseSchema = z.object({ files: z.array(vaultFileSchema) });
export const fileResponseSchema = z.object({ file: vaultFileSchema });

/** Rename: the client re-encrypts the metadata with the new name and sends the new look-up. */
export const renameFileRequestSchema = z.object({
  enc_meta: encMetaSchema,
  name_lookup: nameLookupSchema,
});
export type RenameFileRequest = z.infer<typeof renameFileRequestSchema>;

// ---- uploads (tus 1.0, https://tus.io/protocols/resumable-upload) ----
/** The tus endpoint: POST creates an upload, PATCH/HEAD/DELETE act on `${UPLOADS_PATH}/<id>`. */
export const UPLOADS_PATH = '/api/uploads';

/**
 * The Upload-Metadata of a tus creation request. Exactly these keys: anything else (a file name,
 * a MIME type) is refused, so plaintext cannot reach the server by accident.
 */
export const uploadMetadataSchema = z.strictObject({
  vaultId: z.uuid(),
  /** Chosen by the client: it is bound into the vf1 header, so it exists before the upload. */
  fileId: fileIdSchema,
  checksum: checksumSchema,
  encMeta: encMetaSchema,
  lookup: nameLookupSchema,
  wrappedKey: wrappedKeySchema,
});
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;
