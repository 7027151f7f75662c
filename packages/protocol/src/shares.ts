// Share links (issue 29): a file, a secret or a typed text handed to anyone as
// `PUBLIC_URL/s/<id>#<key>`. The browser draws the id and the key, encrypts everything under keys
// derived from the key (and the password, if any) and sends the server only ciphertext and the
// SHA-256 of an access token derived from the key. The server never learns the key, the
// password, a name, the note or the content; it keeps the ciphertext, counts opens and forgets
// the data when the link expires or is used up (docs/product.md §7, "Share links").
import { z } from 'zod';
import { plaintextLength, wrappedKeySchema } from './files.ts';
import { vaultIdSchema } from './vaults.ts';

/** How long a link lives, by the owner's choice (seconds). */
export const SHARE_EXPIRIES = { '1h': 3600, '1d': 86400, '7d': 604800, '30d': 2592000 } as const;
export const shareExpirySchema = z.enum(['1h', '1d', '7d', '30d']);
export type ShareExpiry = z.infer<typeof shareExpirySchema>;

/** At most this many opens may be asked of one link. */
export const SHARE_MAX_OPENS = 1000;
/** How long the download token an open of a file link gives is good for (seconds). */
export const SHARE_DOWNLOAD_SECONDS = 600;
/**
 * A file link's content may come in parts, each a PUT with `Content-Range: bytes a-b/total`, in
 * order; the browser sends parts of this size (a browser cannot stream one request body over
 * HTTP/1.1, so one PUT would hold the whole copy in memory). The server takes parts up to
 * SHARE_PART_MAX_BYTES.
 */
export const SHARE_PART_BYTES = 16 * 1024 * 1024;
export const SHARE_PART_MAX_BYTES = 64 * 1024 * 1024;
/** `bytes a-b/total` of a content part's Content-Range header. */
export const shareContentRangeSchema = z
  .string()
  .regex(/^bytes \d{1,15}-\d{1,15}\/\d{1,15}$/)
  .transform((v) => {
    const [a, b, total] = v.slice(6).split(/[-/]/).map(Number) as [number, number, number];
    return { start: a, end: b, total };
  })
  .refine((r) => r.start <= r.end && r.end < r.total, 'The range is not within the content.');

/** The headers of the public routes: the access token, and a file link's download token. */
export const SHARE_ACCESS_HEADER = 'X-Share-Access';
export const SHARE_DOWNLOAD_HEADER = 'X-Share-Download';

/** The link's id: base64url of 16 random bytes, drawn by the browser. */
export const shareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a share link id');
/** The access token: base64url of 32 bytes derived from the link's key (never its key). */
export const shareAccessTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes of base64url');
/** SHA-256 of the access token's 32 bytes, lowercase hex. */
export const shareAccessHashSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

export const shareKindSchema = z.enum(['file', 'secret', 'text']);
export type ShareKind = z.infer<typeof shareKindSchema>;

const base64 = (maxBytes: number) =>
  z
    .string()
    .min(4)
    .max(Math.ceil(maxBytes / 3) * 4)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64');

/** The note to the recipient and the link's metadata, encrypted: at most 4 KiB each. */
export const shareNoteSchema = base64(4096);
export const shareMetaSchema = base64(4096);
/** The content of a secret or text link, encrypted: at most 96 KiB. */
export const SHARE_PAYLOAD_MAX_BYTES = 96 * 1024;
export const sharePayloadSchema = base64(SHARE_PAYLOAD_MAX_BYTES);
/** The link's key encrypted under the vault's key, for its owner to copy the link again. */
export const shareOwnerKeySchema = base64(1024);

/**
 * A password link's Argon2id parameters, opaque to the server but for their bounds: the floors
 * and caps vault key slots have ([Note: KDF caps] in packages/crypto/src/kdf.ts: 19 to 256 MiB,
 * 2 to 4 passes, 1 to 4 lanes), so a hostile record cannot freeze the recipient's browser.
 */
export const shareKdfSchema = z.strictObject({
  salt: z.string().regex(/^[A-Za-z0-9+/]{21}[AQgw]==$/, 'must be 16 bytes of base64'),
  memory_kib: z
    .number()
    .int()
    .min(19 * 1024)
    .max(256 * 1024),
  iterations: z.number().int().min(2).max(4),
  parallelism: z.number().int().min(1).max(4),
});
export type ShareKdf = z.infer<typeof shareKdfSchema>;

/** A file link's ciphertext length: a vf1 ciphertext's (plaintextLength is not null). */
export const shareCiphertextSizeSchema = z
  .number()
  .int()
  .refine((n) => plaintextLength(n) !== null, 'must be the length of a vf1 ciphertext');

const common = {
  id: shareIdSchema,
  access_hash: shareAccessHashSchema,
  kdf: shareKdfSchema.nullish(),
  enc_note: shareNoteSchema.nullish(),
  enc_meta: shareMetaSchema,
  owner_key: shareOwnerKeySchema.nullish(),
  expires_in: shareExpirySchema,
  max_opens: z.number().int().min(1).max(SHARE_MAX_OPENS).nullable(),
};

/**
 * POST /api/shares. A file link carries the file key (wrapped under the link's keys) and the
 * length of the ciphertext it sends next (PUT /api/shares/:id/content); a secret or text link
 * carries its content. A file link's vault is a files vault of the user, a secret link's a
 * secrets vault; a text link has none. Any other field is refused.
 */
export const createShareRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...common,
    kind: z.literal('file'),
    vault_id: vaultIdSchema,
    wrapped_key: wrappedKeySchema,
    ciphertext_size: shareCiphertextSizeSchema,
  }),
  z.strictObject({
    ...common,
    kind: z.literal('secret'),
    vault_id: vaultIdSchema,
    payload: sharePayloadSchema,
  }),
  z.strictObject({ ...common, kind: z.literal('text'), payload: sharePayloadSchema }),
]);
export type CreateShareRequest = z.infer<typeof createShareRequestSchema>;

/** PATCH /api/shares/:id: a new expiry, counted from now. */
export const updateShareRequestSchema = z.strictObject({ expires_in: shareExpirySchema });
export type UpdateShareRequest = z.infer<typeof updateShareRequestSchema>;

/**
 * What a link is now: 'active' while it may be opened, 'expired' past its expiry, 'used-up' once
 * its opens are spent (it stays listed until the sweep removes it, 30 days after its data went).
 */
export const shareStatusSchema = z.enum(['active', 'expired', 'used-up']);
export type ShareStatus = z.infer<typeof shareStatusSchema>;

/** A link as its owner sees it (GET /api/shares): nothing the server could not read anyway. */
export const shareLinkSchema = z.object({
  id: shareIdSchema,
  kind: shareKindSchema,
  vault_id: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  max_opens: z.number().int().nullable(),
  opens: z.number().int().nonnegative(),
  /** Bytes of ciphertext: a file link's file, or a secret or text link's payload. */
  size: z.number().int().nonnegative(),
  /** Null once the sweep deleted the link's data. */
  owner_key: z.string().nullable(),
  status: shareStatusSchema,
  /** A file link whose bytes have all arrived (always true for a secret or text link). */
  complete: z.boolean(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const shareResponseSchema = z.object({ share: shareLinkSchema });
export const sharesResponseSchema = z.object({ shares: z.array(shareLinkSchema) });
export type SharesResponse = z.infer<typeof sharesResponseSchema>;

/** GET /api/s/:id (public): what the recipient's page shows and needs before an open. */
export const shareInfoSchema = z.object({
  kind: shareKindSchema,
  size: z.number().int().nonnegative(),
  /** The owner's display name (their profile's full name), null when they set none. */
  owner_name: z.string().nullable(),
  expires_at: z.string(),
  /** Null: unlimited. */
  opens_left: z.number().int().nonnegative().nullable(),
  kdf: shareKdfSchema.nullable(),
  enc_note: z.string().nullable(),
  enc_meta: z.string(),
  /** A file link's wrapped file key; null for a secret or text link. */
  wrapped_key: z.string().nullable(),
});
export type ShareInfo = z.infer<typeof shareInfoSchema>;

/** POST /api/s/:id/open (public): a secret or text link's content, or a file link's download. */
export const sharePayloadResponseSchema = z.object({ payload: z.string() });
export const shareDownloadResponseSchema = z.object({
  /** For X-Share-Download on GET /api/s/:id/content, good for `expires_in` seconds. */
  download: z.string(),
  expires_in: z.number().int().positive(),
});
export const shareOpenResponseSchema = z.union([
  sharePayloadResponseSchema,
  shareDownloadResponseSchema,
]);
export type ShareOpenResponse = z.infer<typeof shareOpenResponseSchema>;

// ---- messages (ours: the product description gives none for share links) ----
/**
 * The one answer of every public route for a link that cannot be used: a malformed or unknown
 * id, a wrong token, an expired, revoked, used-up or incomplete link, so ids cannot be probed.
 */
export const shareUnavailableMessage =
  'This link is not available. It may have expired, been revoked or used up, or it never existed.';
export const shareLimitMessage = (n: number): string =>
  `Your plan allows ${n} active share links. Revoke one or upgrade.`;
export const shareSizeLimitMessage = (mb: number): string =>
  `Your plan allows ${mb} MB in active share links. Revoke one or upgrade.`;
export const shareStorageQuotaMessage = (mb: number): string =>
  `This link would exceed your plan's storage limit of ${mb} MB. Please delete some files or links, or upgrade your subscription.`;
export const shareMessages = {
  duplicateId: 'A share link with this id already exists.',
  notFound: 'Share link not found',
  fileVaultRequired: 'A file link must come from a files vault.',
  secretsVaultRequired: 'A secret link must come from a secrets vault.',
  dataDeleted: 'This link has expired and its data was deleted. Create a new link instead.',
  contentComplete: 'This link already has its content.',
  contentNotFile: 'Only a file link has content to upload.',
  lengthRequired: 'The content length must be given.',
  wrongLength: (size: number): string => `The content must be exactly ${size} bytes.`,
  badRange: 'The Content-Range header must read "bytes start-end/total", within the content.',
  partTooLarge: (max: number): string => `A part of the content may be at most ${max} bytes.`,
  partOutOfOrder: (next: number): string =>
    `The parts must come in order: the next one starts at byte ${next}.`,
  tooManyRequests: 'Too many requests. Please wait a minute and try again.',
} as const;
