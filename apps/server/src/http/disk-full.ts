// What a write refused for want of disk space looks like, whichever layer met it: SQLite's
// SQLITE_FULL, PostgreSQL's disk_full (53100), a file system's ENOSPC or EDQUOT. The error handler
// (errors.ts) answers such an error with 507 on the upload routes and 503 on every other route,
// code 'storage_full', never a 500 (issue 25); files/storage-guard.ts frees blobs first on a
// deletion that meets one.

/** A write refused for want of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full, ENOSPC. */
export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === 'SQLITE_FULL' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === '53100' ||
    /database or disk is full|no space left on device|disk quota exceeded/i.test(err.message)
  );
}

/**
 * SQLite's I/O errors (SQLITE_IOERR and its extended codes: a failed write, fsync or growth of the
 * shared-memory file). SQLite reports most writes to a full disk as SQLITE_FULL, but not all of
 * them; errors.ts takes an I/O error for a full disk only while the data dir is nearly full.
 */
export function isSqliteIoError(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_IOERR');
}
