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
