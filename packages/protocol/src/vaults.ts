// Vault API schemas (docs/product.md §3 vaults, vault-format.md §1). The server sees what a user sees while a
// vault is locked (name, description, type, provider, counts, ciphertext sizes, dates) plus the
// wrapped key slots, which it stores and returns without being able to open them.
import { z } from 'zod';

export const vaultIdSchema = z.uuid();

export const vaultTypeSchema = z.enum(['files', 'secrets']);
export type VaultType = z.infer<typeof vaultTypeSchema>;

/** 'server' is this product's own encrypted storage (architecture.md, Storage providers). */
export const providerTypeSchema = z.enum(['server', 'local', 'googledrive', 'dropbox', 'onedrive']);
export type ProviderType = z.infer<typeof providerTypeSchema>;

const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** 32 bytes of padded base64 (the padding bits zero): a commit or a passkey slot's auth. */
const base64of32 = z
  .string()
  .regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, 'must be 32 bytes of base64');

/** The fields only a passkey slot has (vault-format.md, "Passkey slots"). */
const PASSKEY_FIELDS = ['credentialId', 'name', 'publicKey', 'sealed', 'auth', 'escrow'] as const;

/** At most this many passkey slots in a vault's key (within its 8 slots). */
export const MAX_PASSKEY_SLOTS = 5;
export const PASSKEY_SLOTS_MESSAGE = 'A vault has at most five passkeys, each credential once';

/**
 * One key slot: the vault master key wrapped under a key derived from a password, a recovery
 * key or a passkey's PRF output. The KDF parameters and salt are authenticated inside the slot
 * (AAD), so the server cannot lower them without unlock failing; it only stores them.
 */
export const keySlotSchema = z
  .object({
    id: z.string().min(1).max(64),
    kind: z.enum(['password', 'recovery', 'passkey']),
    kdf: z.discriminatedUnion('alg', [
      z.object({
        alg: z.literal('argon2id'),
        m: z.number().int().positive(),
        t: z.number().int().positive(),
        p: z.number().int().positive(),
      }),
      z.object({ alg: z.literal('pbkdf2-sha256'), iterations: z.number().int().positive() }),
      /** Recovery slots: the secret is 32 random bytes, so there is no password hashing. */
      z.object({ alg: z.literal('none') }),
      /** Passkey slots: HKDF over the WebAuthn PRF output, no password hashing. */
      z.object({ alg: z.literal('prf-hkdf-sha256') }),
    ]),
    salt: base64(64),
    wrapped: base64(512),
    /**
     * HMAC-SHA256 key commitment over the slot (ADR 0007, "Committed key slots"): 32 bytes,
     * base64. Absent on legacy slots, which open only while the vault has no manifest; required
     * on a passkey slot.
     */
    commit: base64of32.optional(),
    // Passkey slots only (issue 30). The server learns the credential id and the label.
    /** The WebAuthn credential id, base64url without padding (at most 1023 bytes). */
    credentialId: z
      .string()
      .min(2)
      .max(1364)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
      .optional(),
    /** The user's label for the passkey, kept in plain text. */
    name: z.string().min(1).max(64).optional(),
    /** The slot's P-256 public key (65 bytes). */
    publicKey: base64(88).optional(),
    /** The private key and auth key sealed under the passkey's KEK (92 bytes). */
    sealed: base64(124).optional(),
    auth: base64of32.optional(),
    /** The auth key under the vault's K_wrap (60 bytes), for rotations. */
    escrow: base64(80).optional(),
  })
  .refine(
    (s) =>
      s.kind === 'passkey'
        ? s.kdf.alg === 'prf-hkdf-sha256' &&
          s.commit !== undefined &&
          PASSKEY_FIELDS.every((f) => s[f] !== undefined)
        : s.kdf.alg !== 'prf-hkdf-sha256' && PASSKEY_FIELDS.every((f) => s[f] === undefined),
    'A passkey slot has the passkey fields and a commit; other slots have none of them',
  );
export type KeySlot = z.infer<typeof keySlotSchema>;

/** ADR 0007: a key holding a second slot of either kind is refused, by the server and the client. */
export const ONE_SLOT_PER_KIND_MESSAGE =
  'A vault has at most one password slot and one recovery slot';

/**
 * A vault's key as the server returns it (vaultSchema): any slots. A key with an extra slot is
 * refused by the client at unlock, naming what is wrong (ADR 0007), rather than failing to parse
 * the whole vault record, or the whole list of vaults, here.
 */
export const vaultKeyRecordSchema = z.object({
  format: z.literal('vf1'),
  slots: z.array(keySlotSchema).min(1).max(8),
});

/**
 * A vault's key as the server takes it (creation, password change, rotation): one password slot
 * and one recovery slot at most, and at most five passkey slots, each of its own credential.
 */
export const vaultKeySchema = vaultKeyRecordSchema.extend({
  slots: vaultKeyRecordSchema.shape.slots
    .refine(
      (slots) =>
        slots.filter((s) => s.kind === 'password').length <= 1 &&
        slots.filter((s) => s.kind === 'recovery').length <= 1,
      ONE_SLOT_PER_KIND_MESSAGE,
    )
    .refine((slots) => {
      const ids = slots.filter((s) => s.kind === 'passkey').map((s) => s.credentialId);
      return ids.length <= MAX_PASSKEY_SLOTS && new Set(ids).size === ids.length;
    }, PASSKEY_SLOTS_MESSAGE),
});
export type VaultKey = z.infer<typeof vaultKeySchema>;

const name = z.string().trim().min(1, 'Name is required').max(100);
const description = z.string().trim().max(500);

export const createVaultRequestSchema = z.object({
  id: vaultIdSchema,
  name,
  description: description.optional(),
  vault_type: vaultTypeSchema,
  provider_type: providerTypeSchema,
  /**
   * A files vault on a cloud provider: its folder in the user's account (a Google Drive folder id
   * or a Dropbox path), made by the browser first. Never a token.
   */
  storage_folder: z.string().trim().min(1).max(1024).optional(),
  key: vaultKeySchema,
});
export type CreateVaultRequest = z.infer<typeof createVaultRequestSchema>;

export const updateVaultRequestSchema = z
  .object({
    name: name.optional(),
    description: description.optional(),
    /** Recorded once, for a cloud vault that has none (ADR 0008: a secrets vault made before). */
    storage_folder: z.string().trim().min(1).max(1024).optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.description !== undefined || v.storage_folder !== undefined,
    'Nothing to update',
  );

/**
 * [Note: key revision of a write] The vault's key revision (`Vault.key_revision`) that a record was
 * encrypted under, named by every record write (secret create, update and import; file record,
 * rename and the tus creation metadata). The server refuses a revision that is not the vault's
 * current one with 409 `stale_key`, in the transaction a rotation locks (ADR 0007): ciphertext
 * under a retired key would be lost once the writing device locks.
 */
export const keyRevisionSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The 409 `stale_key` message (ours): the record was made under keys the vault no longer has. */
export const STALE_KEY_MESSAGE =
  "This vault's keys were changed on another device, so this change was not saved. Unlock the vault with its current password, then try again.";

/**
 * Password change, a passkey added or removed: replace the slots, compare-and-swap on the key
 * revision.
 */
export const replaceVaultKeyRequestSchema = z.object({
  expected_revision: z.number().int().nonnegative(),
  key: vaultKeySchema,
});
export type ReplaceVaultKeyRequest = z.infer<typeof replaceVaultKeyRequestSchema>;

export const vaultSchema = z.object({
  id: vaultIdSchema,
  name: z.string(),
  description: z.string().nullable(),
  vault_type: vaultTypeSchema,
  provider_type: providerTypeSchema,
  /** The cloud provider's folder of a files vault; null otherwise. */
  storage_folder: z.string().nullable(),
  is_hidden: z.boolean(),
  last_accessed: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  file_count: z.number().int().nonnegative(),
  secrets_count: z.number().int().nonnegative(),
  /** Bytes of ciphertext stored for this vault. */
  total_size: z.number().int().nonnegative(),
  key: vaultKeyRecordSchema,
  key_revision: z.number().int().nonnegative(),
  /** Over the Free plan's allowance after a trial lapsed: it reads but cannot change (trials.ts). */
  read_only: z.boolean().optional(),
});
export type Vault = z.infer<typeof vaultSchema>;

export const vaultsResponseSchema = z.object({ vaults: z.array(vaultSchema) });
export const vaultResponseSchema = z.object({ vault: vaultSchema });
