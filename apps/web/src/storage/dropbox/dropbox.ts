// The Dropbox provider (issue 16; docs/product.md §7 "File-hosting service"): ciphertext blobs in
// the vault's folder of the user's Dropbox, called straight from the browser with the token of
// cloud/connections.ts. Blobs are named by their blob id, which is also their reference. The
// parts: api.ts (calls, Dropbox's errors and token, over cloud/http.ts), upload-session.ts,
// files.ts and folders.ts; this factory only wires them.
import { cloudCapabilities } from '../cloud/http.ts';
import type { HashlessProvider } from '../hashing.ts';
import { createDropboxApi } from './api.ts';
import type { DropboxSettings } from './auth.ts';
import { deleteBlob, getBlob, listBlobs, statBlob } from './files.ts';
import { dropboxQuota, makeFolder, prepareFolder, removeFolder } from './folders.ts';
import { putBlob } from './upload-session.ts';

export { headerJson, texts } from './api.ts';
export { PIECE_BYTES } from './upload-session.ts';

/** Dropbox's limit for an upload session. */
const DROPBOX_MAX_BYTES = 350 * 1000 ** 3;

export function createDropboxProvider(settings: () => DropboxSettings | null): HashlessProvider {
  const api = createDropboxApi(settings);
  return {
    type: 'dropbox',
    capabilities: cloudCapabilities(DROPBOX_MAX_BYTES),
    tapsPieces: true,
    makeFolder: (name) => makeFolder(api, name),
    prepare: (vaultId) => prepareFolder(api, vaultId),
    put: (vaultId, blobId, length, source, opts) =>
      putBlob(api, vaultId, blobId, length, source, opts),
    get: (vaultId, ref, range, signal) => getBlob(api, vaultId, ref, range, signal),
    stat: (vaultId, ref) => statBlob(api, vaultId, ref),
    list: (vaultId) => listBlobs(api, vaultId),
    delete: (vaultId, ref) => deleteBlob(api, vaultId, ref),
    removeContainer: (vaultId) => removeFolder(api, vaultId),
    quota: () => dropboxQuota(api),
  };
}
