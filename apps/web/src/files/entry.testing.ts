// Test data: a decrypted file entry with everything a test does not care about filled in.
import type { FileEntry } from './model.ts';

/** The state of an entry that is not in the trash and not an older version. */
export const fresh = {
  trashed: null,
  trashedFrom: [],
  versionOf: null,
  server: { trashed: false, purged: false },
} satisfies Partial<FileEntry>;

/** A plain text file of 10 bytes at the root, named by its id, with `over` applied. */
export const fileEntry = (id: string, over: Partial<FileEntry> = {}): FileEntry => ({
  id,
  name: id,
  mime: 'text/plain',
  size: 10,
  createdAt: '2026-11-27T00:00:00Z',
  wrappedKey: 'k',
  ciphertextSize: 98,
  ref: id,
  modified: 0,
  folder: null,
  isFolder: false,
  ...fresh,
  ...over,
});
