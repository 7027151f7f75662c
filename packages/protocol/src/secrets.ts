// Secret records (docs/product.md §3 "Secret"; vault-format.md §3): each secret is one vf1 item, encrypted
// in the browser with its revision in the AAD. The server stores the ciphertext and the revision
// and never sees a title, username, password, url or note.
import { z } from 'zod';
import { keyRevisionSchema } from './vaults.ts';

export const secretIdSchema = z.uuid();

/** nonce12 | AES-256-GCM ciphertext, base64; 64 KiB of ciphertext is plenty for one secret. */
const itemCiphertext = z
  .string()
  .min(40)
  .max(90_000)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** A new secret as an import carries it (the import names its key revision once). */
export const newSecretSchema = z.object({
  id: secretIdSchema,
  /** Always 1 for a new secret: the revision the client bound into the AAD. */
  revision: z.literal(1),
  data: itemCiphertext,
});
export type NewSecret = z.infer<typeof newSecretSchema>;

export const createSecretRequestSchema = newSecretSchema.extend({
  /** [Note: key revision of a write] in vaults.ts. */
  key_revision: keyRevisionSchema,
});
export type CreateSecretRequest = z.infer<typeof createSecretRequestSchema>;

/** Compare-and-swap: applied only if the stored revision is still `expected_revision`. */
export const updateSecretRequestSchema = z.object({
  expected_revision: z.number().int().positive(),
  data: itemCiphertext,
  /** [Note: key revision of a write] in vaults.ts. */
  key_revision: keyRevisionSchema,
});
export type UpdateSecretRequest = z.infer<typeof updateSecretRequestSchema>;

export const secretRecordSchema = z.object({
  id: secretIdSchema,
  revision: z.number().int().positive(),
  data: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SecretRecord = z.infer<typeof secretRecordSchema>;

export const secretsResponseSchema = z.object({ secrets: z.array(secretRecordSchema) });
export const secretResponseSchema = z.object({ secret: secretRecordSchema });

/** The 409 answer to a stale update carries the newer version, so nothing is lost. */
export const secretConflictSchema = z.object({
  error: z.object({ code: z.literal('conflict'), message: z.string() }),
  current: secretRecordSchema,
});

/** DELETE /api/vaults/:id/secrets (ADR 0008): the server's copies of a moved vault's items. */
export const removedSecretsResponseSchema = z.object({ deleted: z.number().int().nonnegative() });

/**
 * The 409 `secrets_in_provider` message (ours): a secrets vault on another provider keeps its
 * items there (ADR 0008), so the server takes no item of it.
 */
export const SECRETS_IN_PROVIDER_MESSAGE =
  'This vault keeps its secrets in its own storage provider, so this server does not store them. Reload the page and try again.';

/** The 409 `not_moved` message (ours): the server's copies are deleted only once the manifest pins segments. */
export const SECRETS_NOT_MOVED_MESSAGE =
  "This vault's secrets are still kept on this server: they were not deleted.";
