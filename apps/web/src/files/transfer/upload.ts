// Uploading one file (docs/product.md §4 Upload; architecture.md, Web). The file's metadata is encrypted,
// then the plaintext is read and encrypted in a crypto Worker chunk by chunk while the vault's storage
// provider stores the ciphertext (apps/web/src/storage): memory stays flat at any file size.
// Our server makes the file's record itself when the last byte is in; for any other provider the
// record (metadata, the provider's reference, the content hash) is sent once the provider holds
// the whole ciphertext, and the provider's copy is removed if the record cannot be made.
import {
  asFileId,
  asFolderId,
  ciphertextSize,
  FOLDER_MIME,
  type FileId,
  type SessionId,
} from '@sealvault/crypto';
import { filesApi, paddedSize } from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { sessionOf } from '../../vaults/sessionContext.tsx';
import { storageOf } from '../../storage/providers.ts';
import type { PutOptions, StorageProvider } from '../../storage/provider.ts';
import { withCurrentKey } from '../../vaults/manifest/keyRevision.ts';
import { commitFile } from '../../vaults/manifest/vaultManifest.ts';
import { mimeOf } from '../model.ts';

/**
 * Encrypts and uploads `file` into the vault's root or the folder `place` names, under its own
 * name or the one `place` gives ("Keep both" gives a numbered one). `onProgress` gets the fraction sent (0..1); `onRetrying(true)` says
 * a request failed and is being retried, `onRetrying(false)` that bytes flow again. Resolves when
 * the file is stored and recorded; rejects with a user-facing message. `signal` cancels it
 * (nothing of the file is left behind).
 */
export function uploadFile(
  vaultId: string,
  file: File,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
  onRetrying: (retrying: boolean) => void = () => undefined,
  place: Placement = {},
): Promise<string> {
  // [Note: key revision of a write] in vaults/manifest/keyRevision.ts: refused under a retired
  // key, the whole upload runs again (the file is read anew) once the new revision is known.
  return withCurrentKey(vaultId, (keyRevision) =>
    uploadOnce(vaultId, file, place, keyRevision, onProgress, signal, onRetrying),
  );
}

/** Where a file goes and under what name: its own name at the root unless told otherwise. */
export interface Placement {
  name?: string;
  /** The folder's id; null or absent: the vault's root. */
  folder?: string | null;
  /** The MIME type to record instead of the file's (a folder's record). */
  mime?: string;
  /** The file this is the thumbnail of (thumbnails.ts); its look-up is under that file. */
  thumbnailOf?: string;
  /** The new record's id, when chosen before (a replaced file's older version names it). */
  id?: string;
}

/**
 * Makes a folder named `name` in `parent` (null: the root): a record of no content with the
 * folder MIME type and its parent inside its encrypted metadata (docs/vault-format.md
 * "Folders"). It is stored like an empty file, so the server and the provider cannot tell the
 * two apart. Resolves with the folder's id.
 */
export async function createFolder(
  vaultId: string,
  name: string,
  parent: string | null,
  signal: AbortSignal = new AbortController().signal,
): Promise<string> {
  return withCurrentKey(vaultId, (keyRevision) =>
    uploadOnce(
      vaultId,
      new File([], name, { lastModified: Date.now() }),
      { name, folder: parent, mime: FOLDER_MIME },
      keyRevision,
      () => undefined,
      signal,
      () => undefined,
    ),
  );
}

async function uploadOnce(
  vaultId: string,
  file: File,
  place: Placement,
  keyRevision: number,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
  onRetrying: (retrying: boolean) => void,
): Promise<string> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const fileId = place.id ?? globalThis.crypto.randomUUID();
  const id = asFileId(fileId);
  const name = place.name ?? file.name;
  const folder = place.folder ?? null;
  // Names are unique per folder; a thumbnail's under the file it shows (vault-format.md).
  const lookupIn = place.thumbnailOf ?? folder;
  const [encMeta, lookup] = await Promise.all([
    crypto.encryptMeta(session, id, null, {
      name,
      mime: place.mime ?? mimeOf(file),
      size: file.size,
      modified: file.lastModified,
      ...(folder ? { folder } : {}),
      ...(place.thumbnailOf ? { thumbnailOf: place.thumbnailOf } : {}),
    }),
    crypto.lookupName(session, lookupIn ? asFolderId(lookupIn) : null, name),
  ]);
  signal.throwIfAborted();
  // Padded with zeros to paddedSize (Padmé): the stored size hides the exact one. The crypto
  // Worker reads the file itself ([Note: files read in the Worker] in packages/crypto).
  const padded = paddedSize(file.size);
  const length = ciphertextSize(padded);
  const storage = storageOf(vaultId);
  const sealed = await sealFor(storage, session, id, file, padded, length);
  const options = {
    signal,
    onRetrying,
    onProgress: (sent: number) => onProgress(length ? sent / length : 1),
  };
  try {
    await storage.prepare(vaultId);
    // What our server records with the bytes; other providers keep no records and ignore it.
    const record = {
      encMeta,
      lookup,
      wrappedKey: sealed.wrappedKey,
      keyRevision: String(keyRevision),
    };
    const stored = await sealed.send(vaultId, fileId, { ...options, record });
    // A provider that made no record: this server records the file after the provider holds it,
    // with the provider's reference and the content hash; the provider's copy goes if it cannot.
    const made =
      stored.record ??
      (
        await filesApi
          .create(vaultId, {
            id: fileId,
            enc_meta: encMeta,
            name_lookup: lookup,
            wrapped_key: sealed.wrappedKey,
            ciphertext_size: stored.size,
            checksum: stored.contentHash,
            storage_ref: stored.ref,
            key_revision: keyRevision,
            // Refused (409 vault_moved) if the vault moved elsewhere meanwhile (issue 27).
            provider_type: storage.type,
          })
          .catch(async (err: unknown) => {
            await storage.delete(vaultId, stored.ref).catch(() => undefined);
            throw err;
          })
      ).file;
    // Pinned in the next manifest as sent, with the checksum recorded (ADR 0007).
    await commitFile(vaultId, session, fileId, {
      ...made,
      enc_meta: encMeta,
      name_lookup: lookup,
      wrapped_key: sealed.wrappedKey,
      ciphertext_size: length,
    });
    return fileId;
  } catch (err) {
    signal.throwIfAborted();
    throw err;
  }
}

/**
 * Starts sealing `file` in the crypto Worker for `storage`: our server takes the pieces as Blobs
 * the Worker made and digested ([Note: sealed pieces as Blobs] in packages/crypto), any other
 * provider the ciphertext's bytes. `send` stores them, `length` bytes in all.
 */
async function sealFor(
  storage: StorageProvider,
  session: SessionId,
  id: FileId,
  file: File,
  padded: number,
  length: number,
) {
  const crypto = cryptoClient();
  if (storage.putPieces) {
    const putPieces = storage.putPieces.bind(storage);
    const enc = await crypto.encryptFilePieces(session, id, file, padded);
    const send = (vaultId: string, blobId: string, options: PutOptions) =>
      putPieces(vaultId, blobId, length, enc.ciphertext, options);
    return { wrappedKey: enc.wrappedKey, send };
  }
  const enc = await crypto.encryptFile(session, id, file, padded);
  const send = (vaultId: string, blobId: string, options: PutOptions) =>
    storage.put(vaultId, blobId, length, enc.ciphertext, options);
  return { wrappedKey: enc.wrappedKey, send };
}
