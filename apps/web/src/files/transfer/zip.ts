// Several files saved as one ZIP (issue 28, item 3), streamed to disk and never held whole in
// memory: client-zip writes stored (uncompressed) entries, with ZIP64 records where an entry or
// the archive passes 4 GiB, and reads the next file only once it has written the one before. Each
// file is decrypted as the writer reaches it (decryptedStream, as a single download is), so one
// file's stream is open at a time. Every entry's size is its record's plaintext size, so the
// ZIP's exact length is known before a byte is read (predictLength): the progress of the save
// dialog's path and the Service Worker's Content-Length both rest on it. The save paths are those
// of download.ts, in its order: a Blob under 50 MiB (no dialog, as for one file), else the save
// dialog, else the Service Worker.
import { makeZip, predictLength } from 'client-zip';
import { messageForUser, messages } from '@sealvault/protocol';
import { splitName, type FileEntry } from '../model.ts';
import { countingStream } from '../progress.ts';
import { i18n } from '../../i18n/i18n.ts';
import {
  BLOB_DOWNLOAD_LIMIT,
  blobOf,
  decryptedStream,
  saveBlob,
  savePicker,
  saveThroughFrame,
  saveWithPicker,
} from './download.ts';
import { openStreamDownload } from './mediaStream.ts';

export interface ZipEntry {
  file: FileEntry;
  /** path inside the ZIP, e.g. "notes.txt" or "Folder/a.pdf" */
  path: string;
}

/**
 * Unique paths: a second "a.txt" becomes "a (2).txt" (extension kept), case-insensitively, as
 * Windows and macOS would overwrite one with the other on extraction; strips leading "/" and
 * "..". Every "", "." and ".." segment goes (no entry may climb out of the folder it is
 * extracted to), "\" counts as "/", and a folder and a file never share a name: the later one
 * is numbered, a folder consistently for every file inside it.
 */
export function zipPaths(paths: string[]): string[] {
  const taken = new Set<string>(); // lower-cased paths of the files and folders placed so far
  const folders = new Map<string, string>(); // a folder's path as asked (lower-cased) -> as placed
  const free = (dir: string, base: string, ext: string) => {
    let path = dir + base + ext;
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = `${dir}${base} (${n})${ext}`;
    taken.add(path.toLowerCase());
    return path;
  };
  return paths.map((raw) => {
    const segments = raw.split(/[/\\]/).filter((s) => s !== '' && s !== '.' && s !== '..');
    const name = segments.pop() ?? 'unnamed';
    let dir = '';
    let asked = '';
    for (const segment of segments) {
      asked += `${segment.toLowerCase()}/`;
      let placed = folders.get(asked);
      if (placed === undefined) {
        placed = `${free(dir, segment, '')}/`;
        folders.set(asked, placed);
      }
      dir = placed;
    }
    const [base, ext] = splitName(name);
    return free(dir, base, ext);
  });
}

// ZIP keeps MS-DOS dates, 1980 to 2107 in local time (APPNOTE.TXT 4.4.6); client-zip writes
// whatever it is given, so a date outside wraps into nonsense.
const DOS_FIRST = new Date(1980, 0, 1).getTime();
const DOS_LAST = new Date(2107, 11, 31, 23, 59, 58).getTime();

function modifiedOf(file: FileEntry): Date {
  const ms = Number.isFinite(file.modified) ? file.modified : Date.parse(file.createdAt);
  return new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, DOS_FIRST), DOS_LAST) : DOS_FIRST);
}

/** What client-zip needs of each entry, in order: its unique path, size and date. */
function zipMeta(entries: ZipEntry[]) {
  const paths = zipPaths(entries.map((e) => e.path));
  return entries.map((e, i) => ({
    name: paths[i]!,
    size: e.file.size,
    lastModified: modifiedOf(e.file),
  }));
}

/** The exact byte length of the ZIP of `entries`, ZIP64 records included; reads no file. */
export function zipLength(entries: ZipEntry[]): number {
  return Number(predictLength(zipMeta(entries)));
}

/** Passes a file's plaintext through, failing unless it is exactly `size` bytes long. */
function exactly(size: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > size) throw new Error(messages.files.zipSizeMismatch);
      controller.enqueue(chunk);
    },
    flush() {
      if (seen !== size) throw new Error(messages.files.zipSizeMismatch);
    },
  });
}

/**
 * The ZIP as a stream. Each file is opened only when client-zip asks for its entry, that is
 * once the one before is written; cancelling the ZIP ends the generator, whose `finally`
 * aborts the file being read. An abort of `signal` errors the stream whoever reads it.
 */
function zipStream(
  vaultId: string,
  entries: ZipEntry[],
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const meta = zipMeta(entries);
  const ctrl = new AbortController();
  const reading = signal ? AbortSignal.any([signal, ctrl.signal]) : ctrl.signal;
  async function* inputs() {
    let whole = false;
    try {
      for (const [i, entry] of entries.entries()) {
        const plain = await decryptedStream(vaultId, entry.file, reading);
        yield { ...meta[i]!, input: plain.pipeThrough(exactly(entry.file.size)) };
      }
      whole = true;
    } finally {
      if (!whole) ctrl.abort();
    }
  }
  const zip = makeZip(inputs());
  return signal ? zip.pipeThrough(new TransformStream(), { signal }) : zip;
}

/**
 * Saves the decrypted files as one ZIP named `zipName`. Same contract as downloadFile in
 * ./download.ts: resolves false when the save dialog is dismissed or `signal` aborts; errors
 * carry 'Failed to download file: {reason}' like downloadFile. onProgress gets whole percent
 * over the ZIP's bytes, or null where the browser's own downloads show progress (Service Worker
 * path).
 */
export async function downloadZip(
  vaultId: string,
  entries: ZipEntry[],
  zipName: string,
  opts: {
    onProgress?: (percent: number | null) => void;
    signal?: AbortSignal;
    /** A ZIP under this many bytes is saved through a Blob, with no dialog (tests lower it). */
    blobBelow?: number;
  } = {},
): Promise<boolean> {
  const { onProgress, signal, blobBelow = BLOB_DOWNLOAD_LIMIT } = opts;
  const percent = (p: number) => onProgress?.(p);
  try {
    const total = zipLength(entries);
    const zip = () => zipStream(vaultId, entries, signal);
    const counted = () => zip().pipeThrough(countingStream(total, percent));
    // Small, as for one file: a Blob, saved at once without a dialog.
    if (total < blobBelow) {
      const blob = await blobOf(counted(), 'application/zip');
      signal?.throwIfAborted();
      saveBlob(blob, zipName);
      return true;
    }
    const picker = savePicker();
    if (picker) {
      return await saveWithPicker(picker, zipName, () => Promise.resolve(counted()), signal);
    }
    // The browser's downloads pull the ZIP and show its progress, of a known length.
    const media = await openStreamDownload(zipName, total, () => Promise.resolve(zip()));
    if (media) {
      onProgress?.(null);
      const finished = untilAborted(media.finished, signal);
      await saveThroughFrame(
        { ...media, finished },
        i18n.t('Download {{name}}', { name: zipName }),
      );
      return true;
    }
    throw new Error(messages.files.zipTooLarge);
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

/** `finished`, or a rejection as soon as `signal` aborts (a download the browser never began). */
function untilAborted(finished: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return finished;
  return Promise.race([
    finished,
    new Promise<never>((_, reject) => {
      const stop = () => reject(new Error('Cancelled')); // downloadZip answers false for it
      if (signal.aborted) stop();
      signal.addEventListener('abort', stop, { once: true });
    }),
  ]);
}
