// The Google Drive provider (issue 16; docs/product.md §7 "Cloud drive service"): ciphertext blobs
// in the vault's folder of the user's Drive (storage_folder, a folder id), called straight from
// the browser (Drive v3 REST) with the token of cloud/connections.ts. With the drive.file scope
// the app sees only what it made. The parts: api.ts (calls and Google's errors, over
// cloud/http.ts), files.ts (blobs by name), upload.ts and session.ts (puts), folders.ts.
import { cloudCapabilities } from '../cloud/http.ts';
import type { HashlessProvider } from '../hashing.ts';
import type { DriveSettings } from './auth.ts';
import { texts } from './api.ts';
import { driveContext } from './context.ts';
import { deleteBlob, getBlob, listBlobs, statBlob } from './files.ts';
import { driveQuota, makeFolder, prepareFolder, removeFolder } from './folders.ts';
import { DRIVE_MAX_BYTES, putBlob } from './upload.ts';
import { StorageError } from '../provider.ts';
import { msg } from '../../i18n/i18n.ts';

export { texts };
export { CHUNK_BYTES, MULTIPART_MAX } from './upload.ts';

export function createDriveProvider(
  settings: () => DriveSettings | null,
  /** For tests: files.list's page size (Drive's largest, 1000, as the spec says, otherwise). */
  options: { pageSize?: number } = {},
): HashlessProvider {
  const cfg = (): DriveSettings => {
    const s = settings();
    if (!s)
      throw new StorageError('unavailable', msg('Google Drive is not set up on this server.'));
    return s;
  };
  const ctx = driveContext(cfg, options.pageSize ?? 1000);
  return {
    type: 'googledrive',
    capabilities: cloudCapabilities(DRIVE_MAX_BYTES),
    makeFolder: (name) => makeFolder(ctx, name),
    prepare: (vaultId) => prepareFolder(ctx, vaultId),
    put: (vaultId, blobId, length, source, opts) =>
      putBlob(ctx, vaultId, blobId, length, source, opts),
    get: (vaultId, ref, range, signal) => getBlob(ctx, vaultId, ref, range, signal),
    stat: (vaultId, ref) => statBlob(ctx, vaultId, ref),
    list: (vaultId) => listBlobs(ctx, vaultId),
    delete: (vaultId, ref) => deleteBlob(ctx, vaultId, ref),
    removeContainer: (vaultId) => removeFolder(ctx, vaultId),
    quota: () => driveQuota(ctx),
  };
}
