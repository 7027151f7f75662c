// Typed client for /api/vaults/:vaultId/files (schemas in files.ts). Uploads go through tus to
// UPLOADS_PATH (tus-js-client in the browser), not through this client.
import { z } from 'zod';
import { apiErrorFrom, requestJson } from './client.ts';
import {
  fileResponseSchema,
  filesResponseSchema,
  type CreateFileRecordRequest,
  type RenameFileRequest,
  type TrashFilesRequest,
} from './files.ts';

const base = (vaultId: string) => `/api/vaults/${encodeURIComponent(vaultId)}/files`;
const one = (vaultId: string, fileId: string) => `${base(vaultId)}/${encodeURIComponent(fileId)}`;

export const filesApi = {
  list: (vaultId: string) => requestJson(filesResponseSchema, base(vaultId)),
  /** One file's record (404 when the vault has no such file). */
  get: (vaultId: string, fileId: string) => requestJson(fileResponseSchema, one(vaultId, fileId)),
  /** Records a file a non-server provider holds (the server never receives its bytes). */
  create: (vaultId: string, input: CreateFileRecordRequest) =>
    requestJson(fileResponseSchema, base(vaultId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }),
  rename: (vaultId: string, fileId: string, input: RenameFileRequest) =>
    requestJson(fileResponseSchema, one(vaultId, fileId), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }),
  /**
   * Moves records to the trash or out of it ([Note: trash] in files.ts), all or none; answers
   * the records named as the server now holds them (their `trashed_at`).
   */
  trash: (vaultId: string, input: TrashFilesRequest) =>
    requestJson(filesResponseSchema, `${base(vaultId)}/trash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }),
  remove: (vaultId: string, fileId: string) =>
    requestJson(z.null(), one(vaultId, fileId), { method: 'DELETE' }),
  /** Where the ciphertext is served (GET, with HTTP Range). */
  contentUrl: (vaultId: string, fileId: string) => `${one(vaultId, fileId)}/content`,
  /**
   * Streams the ciphertext, or the inclusive byte range `[start, end]` of it (206). The body is
   * left unread for the caller to stream; an error answer becomes an ApiError.
   */
  async content(
    vaultId: string,
    fileId: string,
    range?: { start: number; end?: number },
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ''}`;
    const res = await fetch(filesApi.contentUrl(vaultId, fileId), {
      credentials: 'same-origin',
      headers,
      ...(signal ? { signal } : {}),
    });
    if (!res.ok) throw await apiErrorFrom(res);
    return res;
  },
};
