// What the Google Drive provider's modules share: the settings, the authorised calls (api.ts),
// the file ids found so far by folder and name, and files.list's page size.
import type { DriveSettings } from './auth.ts';
import { createDriveApi } from './api.ts';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const BLOB_MIME = 'application/octet-stream';

export interface DriveContext {
  api: ReturnType<typeof createDriveApi>;
  /** Drive v3's URL of `path` (after /drive/v3/). */
  url: (path: string) => string;
  /** The upload endpoint's URL (query included). */
  uploadUrl: (query: string) => string;
  /** File ids by folder and name: a blob read after it was listed or stored costs one request. */
  ids: Map<string, Map<string, string>>;
  pageSize: number;
}

export function driveContext(cfg: () => DriveSettings, pageSize: number): DriveContext {
  return {
    api: createDriveApi(cfg),
    url: (path) => `${cfg().api_url}/drive/v3/${path}`,
    uploadUrl: (query) => `${cfg().api_url}/upload/drive/v3/files?${query}`,
    ids: new Map(),
    pageSize,
  };
}

export const fileUrl = (ctx: DriveContext, id: string, query = '') =>
  ctx.url(`files/${encodeURIComponent(id)}${query}`);

export function idsOf(ctx: DriveContext, folder: string): Map<string, string> {
  let m = ctx.ids.get(folder);
  if (!m) ctx.ids.set(folder, (m = new Map<string, string>()));
  return m;
}

/** A string literal of Drive's query language: ' and \ escaped ("Search for files and folders"). */
export const quoted = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
