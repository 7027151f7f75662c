// [Note: data file modes] The database, the blobs, the generated auth secret and the log file hold
// ciphertext, wrapped keys, password hashes and session tokens: they are the owner's alone. Data
// files are created 0600 and directories 0700, by explicit modes where this code creates them
// (db/database.ts, blobs/fs-blob-store.ts, auth/auth.secret.ts, server.ts) and, for files that
// libraries create (the tus store's upload files, SQLite's -wal and -shm), by the process umask
// 077 that main.ts sets before anything else runs.
import fs from 'node:fs';

export const DATA_FILE_MODE = 0o600;
export const DATA_DIR_MODE = 0o700;
/** Masks group and other bits of every file and directory the process creates. */
export const PROCESS_UMASK = 0o077;

/** Sets the mode of an existing file; a missing one, or one another user owns, is left alone. */
export function tightenMode(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw err;
  }
}
