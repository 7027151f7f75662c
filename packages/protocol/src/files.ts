// File records and uploads (docs/product.md §3 vault_files, §5 files; vault-format.md §2 and §3). The server
// stores ciphertext, its content hash, the wrapped file key, the encrypted metadata (name, MIME type and
// plaintext size live inside encMeta) and an HMAC look-up that keeps names unique per vault. All of
// it is opaque to the server.
import { z } from 'zod';
import { UNLIMITED } from './plans.ts';
import { keyRevisionSchema, providerTypeSchema } from './vaults.ts';

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
/**
 * The file checksum of a new upload: the content hash of the ciphertext, lowercase hex
 * ([Note: content hash]). Files uploaded before it carry a SHA-256 of the whole ciphertext.
 */
export const checksumSchema = hex64;

/**
 * [Note: content hash] The ciphertext is cut into blocks of 4 MiB (the last one may be shorter);
 * each block is digested with SHA-256, and the content hash is SHA-256 over the concatenated
 * 32-byte block digests (an empty input has no blocks: SHA-256 of nothing). It is the
 * construction Dropbox publishes as `content_hash`. WebCrypto digests each block natively (it has
 * no incremental SHA-256), and the server checks each block as it arrives (the tus checksum
 * extension, one block per PATCH). docs/vault-format.md has the vectors; ADR 0005 the why.
 */
export const CONTENT_HASH_BLOCK_BYTES = 4 * 1024 * 1024;
/** How a file record's `checksum` was computed: the whole-file SHA-256 of old files, or the content hash. */
export const checksumAlgorithmSchema = z.enum(['sha256', 'content-hash-4m']);
export type ChecksumAlgorithm = z.infer<typeof checksumAlgorithmSchema>;

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

/**
 * The size a file's plaintext is padded to before it is encrypted (Padmé: Nikitin et al., PETS
 * 2019; vault-format.md "File-size padding"): the size rounded up so that only its top
 * floor(log2(floor(log2 n))) + 1 bits are free. At most 12% more bytes (about 1.5% over real
 * files, bench/RESULTS.md), and a stored size says much less about which file it is. The true
 * size is in the encrypted metadata; the padding is zeros that the client drops.
 */
export function paddedSize(plain: number): number {
  if (plain < 2) return plain;
  const e = Math.floor(Math.log2(plain));
  const free = e - (Math.floor(Math.log2(e)) + 1);
  const step = 2 ** free;
  return Math.ceil(plain / step) * step;
}

const MiB = 1024 * 1024;

/**
 * Largest ciphertext allowed for a plan's max_file_size_mb (MiB of plaintext, padded as the
 * client pads it); null = no cap.
 */
export const maxCiphertextLength = (maxFileSizeMb: number): number | null =>
  maxFileSizeMb === UNLIMITED ? null : ciphertextLength(paddedSize(maxFileSizeMb * MiB));

/** Spec §8 (Files): the message when a file is over the plan's size limit. */
export const fileTooLargeMessage = (bytes: number): string =>
  `File size (${(bytes / MiB).toFixed(1)} MB) exceeds your plan's limit. Please upgrade your subscription or choose a smaller file.`;

/** The message when an upload would take the user's files past the plan's storage quota (413). */
export const storageQuotaMessage = (maxStorageMb: number): string =>
  `This upload would exceed your plan's storage limit of ${maxStorageMb} MB. Please delete some files or upgrade your subscription.`;

/** The message when a user already has the most unfinished uploads the server keeps (429). */
export const tooManyUploadsMessage = (max: number): string =>
  `You have ${max} unfinished uploads. Please wait for them to finish or cancel some before starting another.`;

/** The message when the server's disk is nearly full: uploads pause, everything else works (507). */
export const serverStorageFullMessage =
  'The server is running out of storage space, so uploads are paused. Please try again later.';

// ---- records ----
export const vaultFileSchema = z.object({
  id: fileIdSchema,
  enc_meta: z.string(),
  name_lookup: z.string(),
  wrapped_key: z.string(),
  /** Bytes of ciphertext (header, chunks and tags). */
  ciphertext_size: z.number().int().nonnegative(),
  checksum: z.string(),
  checksum_algorithm: checksumAlgorithmSchema,
  /**
   * Where the vault's storage provider keeps the ciphertext (the spec's `storage_path`), for a
   * vault whose provider is not our server; null for a file stored on this server.
   */
  storage_ref: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * When the browser moved the record to the trash (ISO-8601), null when it is not there
   * ([Note: trash] below). The only thing the server knows of the trash.
   */
  trashed_at: z.string().nullable().default(null),
  /**
   * When the server's trash purge deleted the file's data for good (ISO-8601), null until then.
   * A purged record stays until the browser deletes it; its content answers 410.
   */
  purged_at: z.string().nullable().default(null),
});
export type VaultFile = z.infer<typeof vaultFileSchema>;

/**
 * POST /api/vaults/:vaultId/files: the record of a file whose ciphertext the vault's storage
 * provider (not our server) already holds. The server never sees those bytes: it keeps the
 * provider's reference and the content hash, so that the provider's copy can be checked.
 */
export const createFileRecordRequestSchema = z.strictObject({
  id: fileIdSchema,
  enc_meta: encMetaSchema,
  name_lookup: nameLookupSchema,
  wrapped_key: wrappedKeySchema,
  /** Must be the length of a vf1 ciphertext (plaintextLength() is not null). */
  ciphertext_size: z
    .number()
    .int()
    .min(VF1_HEADER_BYTES + VF1_TAG_BYTES)
    .max(Number.MAX_SAFE_INTEGER),
  /** The content hash of the ciphertext ([Note: content hash]). */
  checksum: checksumSchema,
  /** The provider's own reference to the blob. */
  storage_ref: z.string().min(1).max(1024),
  /** [Note: key revision of a write] in vaults.ts: the file key is wrapped under it. */
  key_revision: keyRevisionSchema,
  /**
   * The provider the browser wrote the ciphertext to (issue 27). When given and the vault has
   * moved to another provider meanwhile, the record is refused with 409 `vault_moved` (moves.ts).
   */
  provider_type: providerTypeSchema.optional(),
});
export type CreateFileRecordRequest = z.infer<typeof createFileRecordRequestSchema>;

export const filesResponseSchema = z.object({ files: z.array(vaultFileSchema) });
export const fileResponseSchema = z.object({ file: vaultFileSchema });

/** Rename: the client re-encrypts the metadata with the new name and sends the new look-up. */
export const renameFileRequestSchema = z.object({
  enc_meta: encMetaSchema,
  name_lookup: nameLookupSchema,
  /** [Note: key revision of a write] in vaults.ts. */
  key_revision: keyRevisionSchema,
});
export type RenameFileRequest = z.infer<typeof renameFileRequestSchema>;

// ---- trash (issue 28) ----
/**
 * [Note: trash] What is in a file vault's trash is decided by the browser, inside the encrypted
 * metadata; the server learns one plaintext flag per record, `trashed_at`, set and cleared with
 * POST /api/vaults/:vaultId/files/trash (no change to the record itself, no key revision). Its
 * periodic trash purge takes every record trashed TRASH_DAYS days ago: on a vault of our server it
 * deletes the blob, on any other provider it only marks the record, and either way it sets
 * `purged_at`. It never deletes a record: the browser deletes it (and a provider's copy) the next
 * time the vault is open, so the vault's manifest stays its own. A purged record cannot leave the
 * trash (409), its content answers 410, and it no longer counts towards the storage used here.
 */
export const TRASH_DAYS = 30;

/** At most this many records in one POST /api/vaults/:vaultId/files/trash. */
export const TRASH_MAX_IDS = 1000;

/**
 * POST /api/vaults/:vaultId/files/trash: moves the records to the trash (`trashed: true`; a
 * record already there keeps its time) or out of it. All or none: an id that is not a file of the
 * vault is 404, a purged record taken out of the trash is 409 (purgedFileMessage), and nothing
 * changes. Answers the records named, as the server now holds them.
 */
export const trashFilesRequestSchema = z.strictObject({
  ids: z.array(fileIdSchema).min(1).max(TRASH_MAX_IDS),
  trashed: z.boolean(),
});
export type TrashFilesRequest = z.infer<typeof trashFilesRequestSchema>;

/**
 * Ours (issue 28): a record whose data the trash purge deleted: its content (410), or taking it
 * out of the trash (409).
 */
export const purgedFileMessage = 'This file was deleted for good from the trash.';

// ---- uploads (tus 1.0, https://tus.io/protocols/resumable-upload) ----
/** The tus endpoint: POST creates an upload, PATCH/HEAD/DELETE act on `${UPLOADS_PATH}/<id>`. */
export const UPLOADS_PATH = '/api/uploads';
/**
 * The tus checksum extension's header on a PATCH: `sha256 <base64 of the body's SHA-256>`. The app
 * sends one 4 MiB block per PATCH, so it is that block's digest; a body that does not match is
 * refused with 460 and nothing of it is kept.
 */
export const UPLOAD_CHECKSUM_HEADER = 'Upload-Checksum';
/**
 * On the PATCH that completes an upload: the content hash (hex) of the whole ciphertext, when it
 * was not in the creation metadata (a client that encrypts while it uploads learns it at the end).
 */
export const UPLOAD_FINAL_CHECKSUM_HEADER = 'Upload-Final-Checksum';
/**
 * The two 460 answers (the tus checksum extension's "Checksum Mismatch"): a PATCH whose body does
 * not match its Upload-Checksum (nothing of it was kept: send it again), and an upload whose
 * content hash does not match the declared one (the upload is gone: start again).
 */
export const uploadChecksumTexts = {
  blockCorrupted: 'This piece of the upload was corrupted in transit. Send it again.',
  fileMismatch:
    'The uploaded file does not match its checksum (it was corrupted in transit). Please upload it again.',
} as const;

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
  /**
   * [Note: key revision of a write] in vaults.ts, in decimal (tus metadata values are strings):
   * the file key is wrapped under it.
   */
  keyRevision: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be the vault key revision, in decimal digits'),
});
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

/**
 * The Upload-Metadata key of a tus creation in move mode (issue 27, moves.ts): the ciphertext of
 * an existing file of a vault moving to our server. With it come only `vaultId` and, optionally,
 * `checksum` (the file record's); no new record is made: on the last byte the server checks the
 * content hash against the file's record and records the copy as the move's item.
 */
export const MOVE_FILE_ID_METADATA = 'move_file_id';

/** The Upload-Metadata of a tus creation in move mode. Exactly these keys. */
export const moveUploadMetadataSchema = z.strictObject({
  vaultId: z.uuid(),
  [MOVE_FILE_ID_METADATA]: fileIdSchema,
  /** If given, it must be the file record's checksum. */
  checksum: checksumSchema.optional(),
});
export type MoveUploadMetadata = z.infer<typeof moveUploadMetadataSchema>;
