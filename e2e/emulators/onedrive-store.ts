// The OneDrive emulator's state and its drive (test tooling; see onedrive.ts): items, their
// driveItem JSON, names and conflicts, the quota. Shapes follow the driveItem, drive, quota and
// itemReference resources and "Addressing items" of OneDrive's API docs
// (github.com/OneDrive/onedrive-api-docs, docs/rest-api/resources/*.md, concepts/*.md).
import { createHash, randomBytes } from 'node:crypto';
import {
  fail,
  invalidRequest,
  MiB,
  notFound,
  timestamp,
  type JsonObject,
} from './onedrive-http.ts';
import { quickXorHash } from './quickxor.ts';

export const DRIVE_ID = 'e2e0ddc1a0f5eed5';
export const DEFAULT_QUOTA = 5 * 1024 * MiB; // a free Microsoft account's 5 GB
export const DEFAULT_LIFETIME_S = 3600;

export interface Item {
  id: string;
  name: string;
  parentId: string | null;
  /** null for a folder. */
  bytes: Buffer | null;
  quickXor: string | null;
  mimeType: string;
  created: string;
  modified: string;
  version: number;
  contentVersion: number;
  special?: 'approot';
}

export interface UploadSession {
  id: string;
  parentId: string;
  name: string;
  conflict: Conflict;
  total: number | null;
  parts: Buffer[];
  received: number;
  expiresAt: number;
}

export interface AuthCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  method: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
}

export interface AccessToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface RefreshToken {
  clientId: string;
  scopes: string[];
  /** SPA refresh tokens live 24 h from the sign-in, whatever the refreshes in between. */
  expiresAt: number;
  revoked: boolean;
}

export interface Fault {
  pathPrefix: string;
  status: number;
  retryAfter: number;
  remaining: number;
}

export interface State {
  items: Map<string, Item>;
  seq: number;
  rootId: string;
  approotId: string | null;
  appFolderName: string;
  sessions: Map<string, UploadSession>;
  downloads: Map<string, { itemId: string; expiresAt: number }>;
  codes: Map<string, AuthCode>;
  accessTokens: Map<string, AccessToken>;
  refreshTokens: Map<string, RefreshToken>;
  /** Each authorize request's scopes and each token request's scope parameter, in order. */
  scopeLog: { endpoint: 'authorize' | 'token'; clientId: string; scopes: string[] }[];
  denyNext: boolean;
  faults: Fault[];
  log: { method: string; path: string; status: number; authorization: boolean }[];
  quota: number;
  lifetimeS: number;
}

export function freshState(lifetimeS: number, appFolderName: string): State {
  const s: State = {
    items: new Map(),
    seq: 100,
    rootId: '',
    approotId: null,
    appFolderName,
    sessions: new Map(),
    downloads: new Map(),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    scopeLog: [],
    denyNext: false,
    faults: [],
    log: [],
    quota: DEFAULT_QUOTA,
    lifetimeS,
  };
  s.rootId = addItem(s, null, 'root', null).id;
  return s;
}

export const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');
export const sha256Hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Ids look like OneDrive personal's: the drive id, "!", a number. */
export function addItem(s: State, parentId: string | null, name: string, bytes: Buffer | null) {
  s.seq += 1;
  const now = timestamp();
  const item: Item = {
    id: `${DRIVE_ID.toUpperCase()}!${s.seq}`,
    name,
    parentId,
    bytes,
    quickXor: bytes ? quickXorHash(bytes) : null,
    mimeType: mimeTypeOf(name),
    created: now,
    modified: now,
    version: 1,
    contentVersion: 1,
  };
  s.items.set(item.id, item);
  return item;
}

export function setContent(item: Item, bytes: Buffer) {
  item.bytes = bytes;
  item.quickXor = quickXorHash(bytes);
  item.modified = timestamp();
  item.version += 1;
  item.contentVersion += 1;
}

function mimeTypeOf(name: string) {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const known: Record<string, string> = {
    txt: 'text/plain',
    json: 'application/json',
    jpg: 'image/jpeg',
    png: 'image/png',
    pdf: 'application/pdf',
  };
  return known[ext] ?? 'application/octet-stream';
}

export const childrenOf = (s: State, parentId: string) =>
  [...s.items.values()]
    .filter((i) => i.parentId === parentId)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));

/** A folder's size is the total of the files under it, as OneDrive reports it. */
export const sizeOf = (s: State, item: Item): number =>
  item.bytes?.length ?? childrenOf(s, item.id).reduce((n, c) => n + sizeOf(s, c), 0);

/** OneDrive names are case-insensitive. */
export const childNamed = (s: State, parentId: string, name: string) =>
  [...s.items.values()].find(
    (i) => i.parentId === parentId && i.name.toLowerCase() === name.toLowerCase(),
  );

export function getItem(s: State, id: string): Item {
  return s.items.get(id) ?? notFound('Item does not exist');
}

/** The app folder, /Apps/{app name}, created on first use (special folders, "approot"). */
export function approot(s: State): Item {
  const existing = s.approotId === null ? undefined : s.items.get(s.approotId);
  if (existing) return existing;
  const apps = childNamed(s, s.rootId, 'Apps') ?? addItem(s, s.rootId, 'Apps', null);
  const folder =
    childNamed(s, apps.id, s.appFolderName) ?? addItem(s, apps.id, s.appFolderName, null);
  folder.special = 'approot';
  s.approotId = folder.id;
  return folder;
}

/** The folders from the root down to `item`, excluding the root. */
export function ancestry(s: State, item: Item): Item[] {
  const chain: Item[] = [];
  for (let at: Item | undefined = item; at && at.parentId !== null;) {
    chain.unshift(at);
    at = s.items.get(at.parentId);
  }
  return chain;
}

export const isUnder = (s: State, item: Item, folderId: string) =>
  item.id === folderId || ancestry(s, item).some((a) => a.id === folderId);

const pathOf = (s: State, item: Item) =>
  `/drive/root:${ancestry(s, item)
    .map((a) => `/${a.name}`)
    .join('')}`;

// OneDrive's rules for names ("Invalid file names and file types" of the OneDrive help).
const BAD_NAME = /["*:<>?/\\|]/;

export function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    return invalidRequest('The name is missing or empty.', 'invalidPath');
  }
  if (BAD_NAME.test(name) || name === '.' || name === '..' || name !== name.trim()) {
    return invalidRequest(`The name "${name}" contains invalid characters.`, 'invalidPath');
  }
  if (name.length > 255) return invalidRequest('The name is too long.', 'pathIsTooLong');
  return name;
}

export type Conflict = 'fail' | 'rename' | 'replace';

export function conflictOf(value: unknown, fallback: Conflict): Conflict {
  if (value === undefined || value === null) return fallback;
  if (value === 'fail' || value === 'rename' || value === 'replace') return value;
  return invalidRequest(`Invalid @microsoft.graph.conflictBehavior: ${JSON.stringify(value)}.`);
}

/** "name 1.ext", "name 2.ext", ...: the first free one, as OneDrive renames. */
export function freeName(s: State, parentId: string, name: string) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} ${n}${ext}`;
    if (!childNamed(s, parentId, candidate)) return candidate;
  }
}

export function deleteTree(s: State, item: Item) {
  for (const child of childrenOf(s, item.id)) deleteTree(s, child);
  s.items.delete(item.id);
  if (item.id === s.approotId) s.approotId = null;
}

export const usedBytes = (s: State) =>
  [...s.items.values()].reduce((n, i) => n + (i.bytes?.length ?? 0), 0);

/** 507 quotaLimitReached if `adding` more bytes (net) would pass the quota. */
export function checkQuota(s: State, adding: number) {
  if (adding > 0 && usedBytes(s) + adding > s.quota) {
    fail(507, 'quotaLimitReached', 'Insufficient Space Available', 'quotaLimitReached');
  }
}

export function driveJson(s: State): JsonObject {
  const used = usedBytes(s);
  const remaining = Math.max(0, s.quota - used);
  const state =
    used >= s.quota
      ? 'exceeded'
      : remaining < s.quota / 100
        ? 'critical'
        : remaining < s.quota / 10
          ? 'nearing'
          : 'normal';
  return {
    id: DRIVE_ID,
    driveType: 'personal',
    owner: { user: { displayName: 'SealVault Emulator', id: DRIVE_ID } },
    quota: { deleted: 0, remaining, state, total: s.quota, used },
  };
}

const eTag = (item: Item) => `"{${item.id}},${item.version}"`;
const cTag = (item: Item) => `"c:{${item.id}},${item.contentVersion}"`;

/**
 * The driveItem resource. A file carries only quickXorHash among the hashes: OneDrive personal no
 * longer promises sha1Hash or sha256Hash, so a client must not come to rely on them here.
 */
export function itemJson(s: State, item: Item, downloadUrl: (item: Item) => string): JsonObject {
  const parent = item.parentId === null ? undefined : s.items.get(item.parentId);
  return {
    id: item.id,
    name: item.name,
    size: sizeOf(s, item),
    createdDateTime: item.created,
    lastModifiedDateTime: item.modified,
    eTag: eTag(item),
    cTag: cTag(item),
    fileSystemInfo: { createdDateTime: item.created, lastModifiedDateTime: item.modified },
    ...(parent
      ? {
          parentReference: {
            driveId: DRIVE_ID,
            driveType: 'personal',
            id: parent.id,
            path: pathOf(s, parent),
          },
        }
      : { root: {} }),
    ...(item.bytes
      ? {
          file: { mimeType: item.mimeType, hashes: { quickXorHash: item.quickXor ?? '' } },
          '@microsoft.graph.downloadUrl': downloadUrl(item),
        }
      : { folder: { childCount: childrenOf(s, item.id).length } }),
    ...(item.special ? { specialFolder: { name: item.special } } : {}),
  };
}

/** `If-Match` against the eTag or cTag: 412 resourceModified when it does not match. */
export function checkIfMatch(item: Item, ifMatch: string | undefined) {
  if (ifMatch === undefined || ifMatch === '*') return;
  if (ifMatch !== eTag(item) && ifMatch !== cTag(item)) {
    fail(
      412,
      'resourceModified',
      'ETag does not match current item value',
      'entityTagDoesNotMatch',
    );
  }
}
