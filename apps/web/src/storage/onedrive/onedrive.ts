// The OneDrive provider (issue 26): ciphertext blobs in the vault's folder inside the app's folder
// of the user's OneDrive (storage_folder, the folder's item id), called straight from the browser
// (Microsoft Graph v1.0) with the token of cloud/connections.ts. Blobs are named by their blob id,
// which is also their reference. The parts: auth.ts (sign-in and tokens), api.ts (calls and
// Graph's errors, over cloud/http.ts), upload-session.ts (puts, checked against quickxor.ts),
// files.ts and folders.ts; this factory only wires them.
import { cloudCapabilities } from '../cloud/http.ts';
import type { HashlessProvider } from '../hashing.ts';
import { createOneDriveApi } from './api.ts';
import type { OneDriveSettings } from './auth.ts';
import { deleteBlob, getBlob, listBlobs, statBlob, type OneDriveFiles } from './files.ts';
import { makeFolder, oneDriveQuota, prepareFolder, removeFolder } from './folders.ts';
import { ONEDRIVE_MAX_BYTES, putBlob } from './upload-session.ts';

export { texts } from './api.ts';
export { FRAGMENT_BYTES, FRAGMENT_UNIT } from './upload-session.ts';

export function createOneDriveProvider(
  settings: () => OneDriveSettings | null,
  /** For tests: a children listing's page size (Graph's largest, 1000, otherwise). */
  options: { pageSize?: number } = {},
): HashlessProvider {
  const api = createOneDriveApi(settings);
  const od: OneDriveFiles = { api, pageSize: options.pageSize ?? 1000, downloads: new Map() };
  return {
    type: 'onedrive',
    capabilities: cloudCapabilities(ONEDRIVE_MAX_BYTES),
    makeFolder: (name) => makeFolder(api, name),
    prepare: (vaultId) => prepareFolder(api, vaultId),
    put: (vaultId, blobId, length, source, opts) =>
      putBlob(api, vaultId, blobId, length, source, opts),
    get: (vaultId, ref, range, signal) => getBlob(od, vaultId, ref, range, signal),
    stat: (vaultId, ref) => statBlob(od, vaultId, ref),
    list: (vaultId) => listBlobs(od, vaultId),
    delete: (vaultId, ref) => deleteBlob(od, vaultId, ref),
    removeContainer: (vaultId) => removeFolder(api, vaultId),
    quota: () => oneDriveQuota(api),
  };
}
