// Branded ids (docs/conventions.md, "Shape"): one cannot be passed for another. Vault, file, item and
// folder ids are UUIDs (they are written into AADs and headers as 16 bytes); session and job ids
// are opaque handles minted inside the crypto service.
import { isUuid } from './bytes.ts';
import { CryptoError } from './errors.ts';

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type VaultId = Brand<string, 'VaultId'>;
export type FileId = Brand<string, 'FileId'>;
export type ItemId = Brand<string, 'ItemId'>;
export type FolderId = Brand<string, 'FolderId'>;
/** A key slot id: any string of 1..64 characters (protocol's keySlotSchema). */
export type SlotId = Brand<string, 'SlotId'>;
/** The handle of an unlocked vault; its keys stay inside the crypto service. */
export type SessionId = Brand<string, 'SessionId'>;
/** The handle of one file encryption or decryption in progress. */
export type JobId = Brand<string, 'JobId'>;

function uuid<T extends string>(id: string): T {
  if (typeof id !== 'string' || !isUuid(id)) throw new CryptoError('INVALID_INPUT');
  return id.toLowerCase() as T;
}

export const asVaultId = (id: string): VaultId => uuid<VaultId>(id);
export const asFileId = (id: string): FileId => uuid<FileId>(id);
export const asItemId = (id: string): ItemId => uuid<ItemId>(id);
export const asFolderId = (id: string): FolderId => uuid<FolderId>(id);
export function asSlotId(id: string): SlotId {
  if (typeof id !== 'string' || id.length < 1 || id.length > 64) {
    throw new CryptoError('INVALID_INPUT');
  }
  return id as SlotId;
}
