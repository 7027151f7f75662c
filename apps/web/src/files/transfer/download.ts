// Downloading and decrypting a file (docs/product.md §4, §5; architecture.md, Web). The ciphertext is
// streamed from the vault's storage provider and decrypted in the Worker chunk by chunk. Small files become a Blob;
// larger ones are streamed to disk through the File System Access API where the browser has it,
// otherwise through the media Service Worker as an attachment (mediaStream.ts); a Blob is the
// last resort only where neither exists. zip.ts saves several files as one ZIP the same ways.
import { asFileId, CryptoError } from '@sealvault/crypto';
import { messageForUser, messages } from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { sessionOf } from '../../vaults/sessionContext.tsx';
import { storageOf } from '../../storage/providers.ts';
import { StorageError } from '../../storage/provider.ts';
import { openMediaUrl, type MediaUrl } from './mediaStream.ts';
import type { FileEntry } from '../model.ts';
import { countingStream, percentReporter } from '../progress.ts';
import { i18n, msg } from '../../i18n/i18n.ts';
import { trimStream } from './padding.ts';

const NOT_FOUND = msg('File data not found');
const LOAD_FAILED = msg('Failed to load file content.');
/** A download the crypto Worker could not write to the chosen file (CryptoError WRITE_FAILED). */
const WRITE_FAILED = msg('The file could not be saved.');

/** Files under this size are saved through an in-memory Blob. */
export const BLOB_DOWNLOAD_LIMIT = 50 * 1024 * 1024;

/**
 * The plaintext of a file, decrypted as it streams in, without its padding. Where the storage
 * has a URL for it (our server), the crypto Worker fetches and decrypts it itself and the page
 * only receives the plaintext ([Note: fetched downloads] in packages/crypto/src/fetched.ts).
 */
export async function decryptedStream(
  vaultId: string,
  file: FileEntry,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const session = sessionOf(vaultId);
  const storage = storageOf(vaultId);
  const url = storage.contentUrl?.(vaultId, file.ref);
  const plain = url
    ? await cryptoClient()
        .decryptFetched(session, asFileId(file.id), file.wrappedKey, url, signal)
        .catch((err: unknown) => {
          throw storageErrorOf(err);
        })
    : cryptoClient().decryptFileStream(
        session,
        asFileId(file.id),
        file.wrappedKey,
        await storage.get(vaultId, file.ref, undefined, signal),
      );
  return plain.pipeThrough(trimStream(file.size)); // the padding after the file's true size
}

/**
 * Where the storage has a URL for the file (our server), how the crypto Worker fetches, decrypts
 * and writes it to a file handle itself ([Note: downloads written in the Worker] in
 * packages/crypto/src/fetched.ts): the page only shows the progress. Undefined elsewhere.
 */
function writerInWorker(
  vaultId: string,
  file: FileEntry,
  onPercent: (percent: number) => void,
  signal?: AbortSignal,
): ((handle: FileSystemFileHandle) => Promise<void>) | undefined {
  const url = storageOf(vaultId).contentUrl?.(vaultId, file.ref);
  if (!url) return undefined;
  return async (handle) => {
    const progress = percentReporter(file.size, onPercent);
    await cryptoClient()
      .decryptFetchedTo(
        sessionOf(vaultId),
        asFileId(file.id),
        file.wrappedKey,
        url,
        handle,
        file.size,
        progress.bytes,
        signal,
      )
      .catch((err: unknown) => {
        throw storageErrorOf(err);
      });
    progress.done();
  };
}

/** The storage's errors for a fetch that failed in the Worker, as `get` would have thrown them. */
function storageErrorOf(err: unknown): unknown {
  if (!(err instanceof CryptoError)) return err;
  if (err.code === 'NOT_FOUND') return new StorageError('not_found', NOT_FOUND, { cause: err });
  if (err.code === 'FETCH_FAILED') return new StorageError('failed', LOAD_FAILED, { cause: err });
  if (err.code === 'WRITE_FAILED') return new StorageError('failed', WRITE_FAILED, { cause: err });
  return err;
}

/** The whole plaintext as a Blob of the file's MIME type (or `type`). */
export async function decryptToBlob(
  vaultId: string,
  file: FileEntry,
  type = file.mime,
  signal?: AbortSignal,
  onPercent?: (percent: number) => void,
): Promise<Blob> {
  const plain = await decryptedStream(vaultId, file, signal);
  return blobOf(onPercent ? plain.pipeThrough(countingStream(file.size, onPercent)) : plain, type);
}

/** A stream read whole into a Blob of `type`. */
export async function blobOf(stream: ReadableStream<Uint8Array>, type: string): Promise<Blob> {
  // Read here rather than through Response.blob(), which would turn a decryption error into a
  // bare network error; the Blob takes the pieces as they are.
  const reader = stream.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Blob(parts, { type });
    parts.push(value as Uint8Array<ArrayBuffer>);
  }
}

/**
 * A stream read whole into a Blob whose pieces are Blobs of their own as they come: the page does
 * not hold the bytes (the browser's blob store keeps them, on disk past its memory budget), so a
 * file of any size costs the page little memory. `onBytes` gets the bytes read so far.
 */
export async function blobOfPieces(
  stream: ReadableStream<Uint8Array>,
  type: string,
  onBytes: (read: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<Blob> {
  const reader = stream.getReader();
  const parts: Blob[] = [];
  let read = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return new Blob(parts, { type });
      parts.push(new Blob([value as Uint8Array<ArrayBuffer>]));
      read += value.length;
      onBytes(read);
    }
  } finally {
    reader.releaseLock();
  }
}

interface SaveHandle {
  createWritable(): Promise<WritableStream<Uint8Array>>;
}
type SavePicker = (options: { suggestedName: string }) => Promise<SaveHandle>;

/** The File System Access API's save dialog, where the browser has it. */
export function savePicker(): SavePicker | undefined {
  return (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
}

/**
 * Asks where to save `name`, then streams `open()` into that file. False if the dialog was
 * dismissed. An abort of `signal` aborts the writable too: the browser then discards the partial
 * file.
 */
export async function saveWithPicker(
  picker: SavePicker,
  name: string,
  open: () => Promise<ReadableStream<Uint8Array>>,
  signal?: AbortSignal,
  writeInWorker?: (handle: FileSystemFileHandle) => Promise<void>,
): Promise<boolean> {
  let handle: SaveHandle;
  try {
    handle = await picker({ suggestedName: name });
  } catch {
    return false; // dismissed
  }
  // A real file handle can go to a Worker ([Note: downloads written in the Worker]).
  if (writeInWorker && typeof FileSystemFileHandle !== 'undefined') {
    if (handle instanceof FileSystemFileHandle) {
      await writeInWorker(handle);
      return true;
    }
  }
  const writable = await handle.createWritable();
  await (await open()).pipeTo(writable, { signal });
  return true;
}

/** Saves a Blob through a temporary link, as the browser's downloads. */
export function saveBlob(blob: Blob, name: string) {
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
 * Streams the decrypted file to the browser's downloads through the Service Worker: a hidden
 * frame opens the one-time attachment URL, the page decrypts as the download pulls. False where
 * no Service Worker controls the page.
 */
async function saveThroughServiceWorker(vaultId: string, file: FileEntry): Promise<boolean> {
  const media = await openMediaUrl(vaultId, file, { download: true });
  if (!media) return false;
  await saveThroughFrame(media, i18n.t('Download {{name}}', { name: file.name }));
  return true;
}

/** Opens a one-time attachment URL in a hidden frame; settles as `media.finished` does. */
export async function saveThroughFrame(media: MediaUrl, title: string): Promise<void> {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = title;
  frame.src = media.url;
  document.body.append(frame);
  try {
    await media.finished;
  } finally {
    media.dispose();
    // Removing the frame at once could cancel the download's last bytes in some browsers.
    setTimeout(() => frame.remove(), 1000);
  }
}

export interface DownloadOptions {
  /**
   * Called once the bytes start to flow, with the whole percent decrypted so far, or null where
   * the browser's own downloads show the progress (the Service Worker path).
   */
  onProgress?: (percent: number | null) => void;
  /** Cancels the download; a cancelled download resolves false, like a dismissed save dialog. */
  signal?: AbortSignal;
}

/**
 * Saves the decrypted file. Returns false if the user dismissed the save dialog or cancelled.
 * Errors carry the spec's 'Failed to download file: {error}'.
 */
export async function downloadFile(
  vaultId: string,
  file: FileEntry,
  { onProgress, signal }: DownloadOptions = {},
): Promise<boolean> {
  const picker = savePicker();
  const percent = (p: number) => onProgress?.(p);
  try {
    if (file.size >= BLOB_DOWNLOAD_LIMIT && picker) {
      return await saveWithPicker(
        picker,
        file.name,
        async () =>
          (await decryptedStream(vaultId, file, signal)).pipeThrough(
            countingStream(file.size, percent),
          ),
        signal,
        writerInWorker(vaultId, file, percent, signal),
      );
    }
    if (file.size >= BLOB_DOWNLOAD_LIMIT) {
      onProgress?.(null);
      if (await saveThroughServiceWorker(vaultId, file)) return true;
    }
    const blob = await decryptToBlob(vaultId, file, 'application/octet-stream', signal, percent);
    signal?.throwIfAborted();
    saveBlob(blob, file.name);
    return true;
  } catch (err) {
    if (signal?.aborted) return false;
    const reason = messageForUser(err);
    throw new Error(
      reason
        ? i18n.t('Failed to download file: {{reason}}', { reason: i18n.t(reason) })
        : messages.files.downloadFailed,
      { cause: err },
    );
  }
}
