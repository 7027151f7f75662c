// Uploading one file (spec §4 Upload; architecture.md, Web). The file's metadata is encrypted,
// then the plaintext is encrypted in the crypto Workers chunk by chunk while the vault's storage
// provider stores the ciphertext (apps/web/src/storage): memory stays flat at any file size.
import { asFileId, ciphertextSize } from '@sealvault/crypto';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../crypto/vaultKeys.ts';
import { storageOf } from '../storage/providers.ts';
import { mimeOf } from './model.ts';

/**
 * Encrypts and uploads `file` into the vault's root. `onProgress` gets the fraction sent (0..1);
 * `onRetrying(true)` says a request failed and is being retried, `onRetrying(false)` that bytes
 * flow again. Resolves when the file is stored and recorded; rejects with a user-facing message.
 * `signal` cancels it (nothing of the file is left behind).
 */
export async function uploadFile(
  vaultId: string,
  file: File,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
  onRetrying: (retrying: boolean) => void = () => undefined,
): Promise<void> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const fileId = globalThis.crypto.randomUUID();
  const id = asFileId(fileId);
  const [encMeta, lookup] = await Promise.all([
    crypto.encryptMeta(session, id, null, {
      name: file.name,
      mime: mimeOf(file),
      size: file.size,
      modified: file.lastModified,
    }),
    crypto.lookupName(session, null, file.name),
  ]);
  signal.throwIfAborted();
  const enc = await crypto.encryptFileStream(session, id, file.stream());
  const length = ciphertextSize(file.size);
  try {
    await storageOf(vaultId).put(vaultId, fileId, length, enc.ciphertext, {
      record: { encMeta, lookup, wrappedKey: enc.wrappedKey },
      signal,
      onRetrying,
      onProgress: (sent) => onProgress(length ? sent / length : 1),
    });
  } catch (err) {
    signal.throwIfAborted();
    throw err;
  }
}
