// The vault manifest on the wire (docs/adr/0007-vault-manifest-and-committed-slots.md): one per
// vault, MACed and hash-chained by the browser, stored by the server as JSON. The server cannot
// check the MAC (it has no keys): these schemas check the structure, and the server enforces
// compare-and-swap on `version`. Sorting of `files` and `secrets` is the client's check (the MAC
// covers the canonical order); the server only refuses what is malformed.
import { z } from 'zod';
import { providerTypeSchema, vaultKeySchema, vaultSchema, vaultTypeSchema } from './vaults.ts';
import { encMetaSchema, fileIdSchema, nameLookupSchema, wrappedKeySchema } from './files.ts';
import { createSecretRequestSchema, secretIdSchema } from './secrets.ts';

/** The manifest's `format` field. */
export const MANIFEST_FORMAT = 'vf1-manifest';
/** At most this many entries in `files`, and in `secrets` (and items in a rotation request). */
export const MANIFEST_MAX_ENTRIES = 100_000;
/** At most this many segments pinned at once (ADR 0008: a compaction keeps the list short). */
export const MANIFEST_MAX_SEGMENTS = 1_000;

const hex = (digits: number) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${digits}}$`), `must be ${digits} lowercase hex digits`);
/** Lowercase UUID text: the manifest names records as the ADR's canonical form writes them. */
const entryId = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'must be a lowercase UUID',
  );

/** A slot fingerprint, a manifest hash or MAC: SHA-256 / HMAC-SHA256 output, lowercase hex. */
export const hex64Schema = hex(64);
/** An entry digest: the first 16 bytes of a SHA-256, lowercase hex. */
export const entryDigestSchema = hex(32);

export const manifestSchema = z
  .strictObject({
    format: z.literal(MANIFEST_FORMAT),
    version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    /** The hash of the previous version; '' for version 1. */
    prev: z.union([z.literal(''), hex64Schema]),
    /** The vault's own fields; a null description or storage folder is written as ''. */
    vault: z.strictObject({
      name: z.string().min(1).max(100),
      description: z.string().max(500),
      vault_type: vaultTypeSchema,
      provider_type: providerTypeSchema,
      storage_folder: z.string().max(1024),
    }),
    /**
     * Fingerprints of the vault's key slots, ascending, one per slot: at most a password and a
     * recovery slot, each old and new while a password change is between its two manifest writes.
     */
    slots: z
      .array(hex64Schema)
      .min(1)
      .max(4)
      .refine((s) => s.every((fp, i) => i === 0 || s[i - 1]! < fp), 'must be sorted and unique'),
    /** [file id, entry digest] per file. */
    files: z.array(z.tuple([entryId, entryDigestSchema])).max(MANIFEST_MAX_ENTRIES),
    /** [secret id, revision, entry digest] per secret. */
    secrets: z
      .array(
        z.tuple([entryId, z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), entryDigestSchema]),
      )
      .max(MANIFEST_MAX_ENTRIES),
    /**
     * ADR 0008: [segment id, SHA-256 of its bytes] of a secrets vault whose items live in its
     * storage provider, oldest first; absent when its items are on the server.
     */
    segments: z
      .array(z.tuple([entryId, hex64Schema]))
      .max(MANIFEST_MAX_SEGMENTS)
      .refine((g) => new Set(g.map(([id]) => id)).size === g.length, 'a segment appears twice')
      .optional(),
    mac: hex64Schema,
  })
  .refine((m) => (m.version === 1) === (m.prev === ''), {
    message: 'prev is empty exactly for version 1',
    path: ['prev'],
  });
export type Manifest = z.infer<typeof manifestSchema>;

/** GET /api/vaults/:id/manifest; null while the vault has none (a vault from before ADR 0007). */
export const manifestResponseSchema = z.object({ manifest: manifestSchema.nullable() });
export type ManifestResponse = z.infer<typeof manifestResponseSchema>;

const NEXT_VERSION = {
  message: 'must be the expected version + 1',
  path: ['manifest', 'version'],
};

/**
 * PUT /api/vaults/:id/manifest: compare-and-swap on the stored version (0 when there is none).
 * The new manifest's version is the expected one + 1.
 */
export const putManifestRequestSchema = z
  .object({
    expected_version: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    manifest: manifestSchema,
  })
  .refine((i) => i.manifest.version === i.expected_version + 1, NEXT_VERSION);
export type PutManifestRequest = z.infer<typeof putManifestRequestSchema>;

/** The 409 answer of a manifest write or a rotation that lost a race: the stored manifest. */
export const manifestConflictSchema = z.object({
  error: z.object({ code: z.literal('conflict'), message: z.string() }),
  current: manifestSchema.nullable(),
});
export type ManifestConflict = z.infer<typeof manifestConflictSchema>;

/** The message of a manifest write whose expected version is not the stored one (ours). */
export const MANIFEST_CONFLICT_MESSAGE =
  'The vault was changed on another device. Its newer version is shown.';
/** The message of a rotation that met a changed vault (ours). */
export const ROTATION_CONFLICT_MESSAGE =
  'The vault changed while its keys were being rotated. Please try again.';

/** One file of a rotation: its key re-wrapped, its metadata and name look-up under the new keys. */
export const rotatedFileSchema = z.strictObject({
  id: fileIdSchema,
  wrapped_key: wrappedKeySchema,
  enc_meta: encMetaSchema,
  name_lookup: nameLookupSchema,
});
export type RotatedFile = z.infer<typeof rotatedFileSchema>;

/** One secret of a rotation: re-encrypted under the new keys at its current revision. */
export const rotatedSecretSchema = z.strictObject({
  id: secretIdSchema,
  revision: z.number().int().positive(),
  data: createSecretRequestSchema.shape.data,
});
export type RotatedSecret = z.infer<typeof rotatedSecretSchema>;

/**
 * POST /api/vaults/:id/rotate: the whole vault under a new master key, applied in one transaction
 * (ADR 0007, "Key rotation"). `files` and `secrets` must name exactly the vault's records (each
 * secret at its stored revision); the key and the manifest compare-and-swap on their revision and
 * version.
 */
export const rotateVaultRequestSchema = z
  .object({
    expected_key_revision: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    expected_manifest_version: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    key: vaultKeySchema,
    manifest: manifestSchema,
    files: z.array(rotatedFileSchema).max(MANIFEST_MAX_ENTRIES),
    secrets: z.array(rotatedSecretSchema).max(MANIFEST_MAX_ENTRIES),
  })
  .refine((i) => i.manifest.version === i.expected_manifest_version + 1, NEXT_VERSION);
export type RotateVaultRequest = z.infer<typeof rotateVaultRequestSchema>;

/** The answer of a rotation: the vault with its new key (key_revision + 1) and the new manifest. */
export const rotateVaultResponseSchema = z.object({
  vault: vaultSchema,
  manifest: manifestSchema,
});
export type RotateVaultResponse = z.infer<typeof rotateVaultResponseSchema>;
