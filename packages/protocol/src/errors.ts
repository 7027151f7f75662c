// The one error shape every API answer uses: `{ error: { code, message } }` (docs/conventions.md).
import { z } from 'zod';

export const errorCodeSchema = z.enum([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'limit_reached',
  /** The server's disk is (nearly) full (507): uploads pause, a deletion could not finish. */
  'storage_full',
  /** A record write named a key revision the vault no longer has ([Note: key revision of a write]). */
  'stale_key',
  /** A secrets vault kept in its provider takes no item on the server (ADR 0008). */
  'secrets_in_provider',
  /** The server's copies of a vault's items are deleted only once they moved (ADR 0008). */
  'not_moved',
  /** Issue 27, moving a vault: the target is where the vault already is. */
  'same_provider',
  /** Issue 27: the vault has no recorded move. */
  'no_move',
  /** Issue 27: a copy on the target does not match the original (content hash or size). */
  'copy_mismatch',
  /** Issue 27: the switch found items not yet copied and verified on the target. */
  'not_verified',
  /** Issue 27: a write meant for the provider the vault was moved away from. */
  'vault_moved',
  'internal',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const errorBodySchema = z.object({
  error: z.object({ code: errorCodeSchema, message: z.string() }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
