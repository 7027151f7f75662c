// Pure logic of the file browser: the decrypted entry, name and extension handling for rename,
// the upload selection and the plan's size check (docs/product.md §4, §5, §9).
import mime from 'mime/lite';
import type { FileMeta } from '@sealvault/crypto';
import { fileTooLargeMessage, isFileSizeAllowed } from '@sealvault/protocol';

/** A file record with its decrypted metadata. */
export interface FileEntry {
  id: string;
  name: string;
  mime: string;
  /** Plaintext bytes. */
  size: number;
  createdAt: string;
  wrappedKey: string;
  ciphertextSize: number;
  /** Where the vault's storage provider keeps the ciphertext. */
  ref: string;
  /** Last modified (ms since the epoch) and plaintext SHA-256, kept for a rename. */
  modified: number;
  sha256?: string;
  /** The folder it is in, as its metadata says (null: the root); folders.ts checks it. */
  folder: string | null;
  /** A folder: a record of no content with the folder MIME type (folders.ts). */
  isFolder: boolean;
  /** Its thumbnail's record, when it has one (thumbnails.ts). */
  thumb?: FileEntry;
  /** Moved to the trash at this time (ms since the epoch), as its metadata says (trash.ts). */
  trashed: number | null;
  /** On a trashed record: the names of the folders it was in, from the root. */
  trashedFrom: readonly string[];
  /** On an older version: the id of the file's current record (versions.ts). */
  versionOf: string | null;
  /** What the server says: the record is flagged as in the trash, and its data is purged. */
  server: { trashed: boolean; purged: boolean };
  /** A file's older versions, newest first (versions.ts); absent or empty when it has none. */
  versions?: readonly FileEntry[];
}

/** The whole metadata of an entry, with `changes` applied (a key set to undefined is dropped). */
export function metaOf(e: FileEntry, changes: Partial<FileMeta> = {}): FileMeta {
  const meta: FileMeta = {
    name: e.name,
    mime: e.mime,
    size: e.size,
    modified: e.modified,
    ...(e.sha256 ? { sha256: e.sha256 } : {}),
    ...(e.folder ? { folder: e.folder } : {}),
    ...(e.trashed !== null ? { trashed: e.trashed } : {}),
    ...(e.trashed !== null && e.trashedFrom.length > 0 ? { trashedFrom: [...e.trashedFrom] } : {}),
    ...(e.versionOf ? { versionOf: e.versionOf } : {}),
  };
  const out: Record<string, unknown> = { ...meta, ...changes };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as unknown as FileMeta;
}

/** The MIME types and extensions the picker accepts (docs/product.md §5: pdf, image, video, audio, text). */
export const PICKER_ACCEPT = 'application/pdf,image/*,video/*,audio/*,text/*,.txt,.md,.csv,.json';

/** Splits "report.final.pdf" into ["report.final", ".pdf"]; dotfiles and no-dot names keep "". */
export function splitName(name: string): [base: string, ext: string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** The new full name for an inline rename, or null when it cancels (empty or unchanged). */
export function renamedName(current: string, editedBase: string): string | null {
  const base = editedBase.trim();
  const [oldBase, ext] = splitName(current);
  if (!base || base === oldBase) return null;
  return `${base}${ext}`;
}

// What kind a file is, for its preview and icon, lives in fileKinds.ts.
export { iconKind, previewKind, type PreviewKind } from './fileKinds.ts';

/** The spec's message when a file is over the plan's limit, or null when it may be uploaded. */
export function sizeProblem(bytes: number, maxFileSizeMb: number | undefined): string | null {
  if (maxFileSizeMb === undefined) return null;
  return isFileSizeAllowed(bytes, maxFileSizeMb) ? null : fileTooLargeMessage(bytes);
}

/** One chosen file in the upload dialog, with the folders it sits in when a folder was chosen. */
export interface Selected {
  key: string;
  file: File;
  /** Folders below the one the upload goes to ([] for a file chosen on its own). */
  dir: string[];
  checked: boolean;
}

/**
 * Adds files to a selection, checked, skipping ones already in it (same folders, name, size and
 * date). A file may come with the folders it sits in (a folder dropped or chosen).
 */
export function addToSelection(
  current: Selected[],
  files: readonly (File | { file: File; dir: string[] })[],
): Selected[] {
  const seen = new Set(current.map((s) => s.key));
  const added: Selected[] = [];
  for (const item of files) {
    const { file, dir } = item instanceof File ? { file: item, dir: [] } : item;
    const key = [...dir, file.name, file.size, file.lastModified].join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    added.push({ key, file, dir, checked: true });
  }
  return [...current, ...added];
}

/** Overall progress in percent over the bytes of all files. */
export function overallPercent(parts: readonly { sent: number; total: number }[]): number {
  const total = parts.reduce((a, p) => a + p.total, 0);
  if (total === 0) return 0;
  const sent = parts.reduce((a, p) => a + Math.min(p.sent, p.total), 0);
  return Math.floor((sent / total) * 100);
}

/**
 * The MIME type to record for a picked file: the browser's, else the standard type of its
 * extension (mime's IANA table), else application/octet-stream.
 */
export function mimeOf(file: { type: string; name: string }): string {
  if (file.type) return file.type;
  const ext = splitName(file.name)[1];
  return (ext && mime.getType(ext.slice(1))) || 'application/octet-stream';
}
