// Moving a vault to another storage provider (issue 27): a verified copy of its ciphertext, then
// one switch. The browser copies each file blob or secrets segment to the target, checks it there
// and records it here as a MoveItem; the server keeps the move's state (for "continue" and for
// another device) and switches the vault, with its next manifest, in one transaction once every
// item is verified. The server never sees a provider token nor a byte of a cloud-held file; a
// file moving to our own server comes up through tus in move mode (`move_file_id`, files.ts).
import { z } from 'zod';
import {
  hex64Schema,
  MANIFEST_MAX_ENTRIES,
  manifestSchema,
  putManifestRequestSchema,
} from './manifest.ts';
import { createSecretRequestSchema } from './secrets.ts';
import { providerTypeSchema, vaultSchema, type ProviderType } from './vaults.ts';

/** Lowercase UUID text, as the manifest names files and segments. */
const lowerUuid = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'must be a lowercase UUID',
  );

export const moveItemKindSchema = z.enum(['file', 'segment']);
export type MoveItemKind = z.infer<typeof moveItemKindSchema>;

/** One verified copy on the move's target. */
export const moveItemSchema = z.strictObject({
  /** The file's id, or the segment's id (ADR 0008). */
  id: lowerUuid,
  kind: moveItemKindSchema,
  /** The copy's reference on the target: the provider's reference, or our blob key. */
  ref: z.string().min(1).max(1024),
  /**
   * A file: the content hash its record holds (vault_files.checksum, 64 hex). A segment: the
   * SHA-256 of its bytes, as the manifest pins it.
   */
  checksum: hex64Schema,
  /** Bytes of the copy. */
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
});
export type MoveItem = z.infer<typeof moveItemSchema>;

export const vaultMoveSchema = z.object({
  vault_id: z.uuid(),
  source_provider: providerTypeSchema,
  target_provider: providerTypeSchema,
  /** The target's folder (a cloud provider's folder id or path); null for server and local. */
  target_folder: z.string().nullable(),
  /** Whether the browser deletes the source copies after the switch. */
  delete_source: z.boolean(),
  started_at: z.string(),
  updated_at: z.string(),
  items: z.array(moveItemSchema),
});
export type VaultMove = z.infer<typeof vaultMoveSchema>;

/** GET /api/vaults/:id/move: the recorded move, or null. */
export const moveResponseSchema = z.object({ move: vaultMoveSchema.nullable() });
export type MoveResponse = z.infer<typeof moveResponseSchema>;

/**
 * PUT /api/vaults/:id/move: starts a move, or continues the recorded one when the target and its
 * folder are the same (its items are kept; delete_source is updated). A recorded move to another
 * target is replaced, and its items are answered as `leftovers` for the browser to remove from
 * that provider (the server removes those on itself).
 */
export const startMoveRequestSchema = z.strictObject({
  target_provider: providerTypeSchema,
  target_folder: z.string().trim().min(1).max(1024).nullable(),
  delete_source: z.boolean(),
});
export type StartMoveRequest = z.infer<typeof startMoveRequestSchema>;

export const startMoveResponseSchema = z.object({
  move: vaultMoveSchema,
  leftovers: z.array(moveItemSchema),
});
export type StartMoveResponse = z.infer<typeof startMoveResponseSchema>;

/** At most this many items in one POST /api/vaults/:id/move/items. */
export const MOVE_ITEMS_MAX = 1000;

/** POST /api/vaults/:id/move/items: verified copies, recorded all or none. */
export const addMoveItemsRequestSchema = z.strictObject({
  items: z
    .array(moveItemSchema)
    .min(1)
    .max(MOVE_ITEMS_MAX)
    .refine(
      (items) => new Set(items.map((i) => i.id)).size === items.length,
      'an id appears twice',
    ),
});
export type AddMoveItemsRequest = z.infer<typeof addMoveItemsRequestSchema>;

/** A secret as a secrets vault moving to our server hands it over: the segment's record. */
export const movedSecretSchema = z.strictObject({
  id: lowerUuid,
  revision: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  data: createSecretRequestSchema.shape.data,
  created_at: z.string().min(1).max(64),
  updated_at: z.string().min(1).max(64),
});
export type MovedSecret = z.infer<typeof movedSecretSchema>;

/**
 * POST /api/vaults/:id/move/switch: the next manifest (naming the target provider and folder),
 * written by compare-and-swap as PUT /manifest writes it, with the switch in one transaction.
 * `secrets`: a secrets vault moving to our server hands over its items (exactly the manifest's
 * `secrets` entries, at their revisions).
 */
export const switchMoveRequestSchema = z
  .object({
    expected_version: putManifestRequestSchema.shape.expected_version,
    manifest: manifestSchema,
    secrets: z.array(movedSecretSchema).max(MANIFEST_MAX_ENTRIES).optional(),
  })
  .refine((i) => i.manifest.version === i.expected_version + 1, {
    message: 'must be the expected version + 1',
    path: ['manifest', 'version'],
  });
export type SwitchMoveRequest = z.infer<typeof switchMoveRequestSchema>;

/** A source copy the browser may delete after the switch (files: the old reference). */
export const oldCopySchema = z.object({
  id: z.string(),
  kind: moveItemKindSchema,
  ref: z.string(),
});
export type OldCopy = z.infer<typeof oldCopySchema>;

export const switchMoveResponseSchema = z.object({
  vault: vaultSchema,
  manifest: manifestSchema,
  /** The source copies, for the browser to delete when delete_source (ours: server-held ones are scheduled for deletion by the server). */
  old: z.array(oldCopySchema),
  /**
   * Copies on the target that no longer belong to the vault (a file deleted during the move): the
   * browser removes them from the target (the server removes its own).
   */
  unused: z.array(moveItemSchema),
});
export type SwitchMoveResponse = z.infer<typeof switchMoveResponseSchema>;

/** DELETE /api/vaults/:id/move: what was copied, for the browser to remove from the target. */
export const cancelMoveResponseSchema = z.object({ items: z.array(moveItemSchema) });
export type CancelMoveResponse = z.infer<typeof cancelMoveResponseSchema>;

/** The name a user knows a provider by, for the move's texts. */
export const PROVIDER_DISPLAY_NAMES: Record<ProviderType, string> = {
  server: 'SealVault storage',
  local: 'This browser',
  googledrive: 'Google Drive',
  dropbox: 'Dropbox',
  onedrive: 'OneDrive',
};

/** 409 `not_verified` (ours): files or segments not yet copied and verified on the target. */
export const moveNotVerifiedMessage = (missing: number): string =>
  missing === 1
    ? 'One item of this vault is not yet copied and verified on the new provider. The move copies it and tries again.'
    : `${missing} items of this vault are not yet copied and verified on the new provider. The move copies them and tries again.`;

/** 409 `vault_moved` (ours): a write meant for the provider the vault has left. */
export const vaultMovedMessage = (provider: ProviderType): string =>
  `This vault was moved to ${PROVIDER_DISPLAY_NAMES[provider]} on another device. Reload the page to use it there.`;
