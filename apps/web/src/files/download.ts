// Downloading and decrypting a file (spec §4, §5; architecture.md, Web). The ciphertext is
// streamed from the server and decrypted in the Worker chunk by chunk. Small files become a Blob;
// larger ones are streamed to disk through the File System Access API where the browser has it.
import { asFileId } from '@sealvault/crypto';
import { filesApi } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../crypto/vaultKeys.ts';
import type { FileEntry } from './model.ts';

/** Files under this size are saved through an in-memory Blob. */
export const BLOB_DOWNLOAD_LIMIT = 50 * 1024 * 1024;

/** The plaintext of a file, decrypted as it streams in. */
export async function decryptedStream(
  vaultId: string,
  file: FileEntry,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const session = sessionOf(vaultId);
  const res = await filesApi.content(vaultId, file.id, undefined, signal);
  if (!res.body) throw new Error('Failed to load file content.');
  return cryptoClient().decryptFileStream(session, asFileId(file.id), file.wrappedKey, res.body);
}

/** The whole plaintext as a Blob of the file's MIME type (or `type`). */
export async function decryptToBlob(
  vaultId: string,
  file: FileEntry,
  type = file.mime,
  signal?: AbortSignal,
): Promise<Blob> {
  const stream = await decryptedStream(vaultId, file, signal);
  const bytes = await new Response(stream).arrayBuffer();
  return new Blob([bytes], { type });
}

interface SaveHandle {
  createWritable(): Promise<WritableStream<Uint8Array>>;
}
type SavePicker = (options: { suggestedName: string }) => Promise<SaveHandle>;

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves the decrypted file. Returns false if the user dismissed the save dialog. Errors carry
 * the spec's 'Failed to download file: {error}'.
 */
export async function downloadFile(vaultId: string, file: FileEntry): Promise<boolean> {
  const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  try {
    if (file.size >= BLOB_DOWNLOAD_LIMIT && picker) {
      let handle: SaveHandle;
      try {
        handle = await picker({ suggestedName: file.name });
      } catch {
        return false; // dismissed
      }
      const writable = await handle.createWritable();
      await (await decryptedStream(vaultId, file)).pipeTo(writable);
      return true;
    }
    saveBlob(await decryptToBlob(vaultId, file, 'application/octet-stream'), file.name);
    return true;
  } catch (err) {
    const reason = err instanceof Error && err.message ? err.message : 'Failed to decrypt file';
    throw new Error(`Failed to download file: ${reason}`, { cause: err });
  }
}
