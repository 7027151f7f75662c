// Test helpers for files and tus uploads: a files vault, fake vf1 ciphertext, hand-built tus
// requests (tus 1.0: Tus-Resumable, Upload-Length, Upload-Metadata, PATCH with Upload-Offset and
// the checksum extension's Upload-Checksum), the content hash computed independently of the server.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  ciphertextLength,
  errorBodySchema,
  filesResponseSchema,
  UPLOAD_CHECKSUM_HEADER,
  type UploadMetadata,
} from '@sealvault/protocol';
import type { FilesDeps } from '../files/files.service.ts';
import { createLogger } from '../logger.ts';
import { insertVault } from '../vaults/vaults.repository.ts';
import { contentHash } from './content-hash.ts';
import type { TestApp } from './harness.ts';
import { createUser, type TestUser } from './users.ts';

/** What sweepFiles and the files service need, on the test app's database, dirs and clock. */
export const filesDeps = (t: TestApp): FilesDeps => ({
  db: t.db,
  config: t.config,
  now: () => new Date(t.clock.now),
  logger: createLogger('silent'),
  files: t.files,
});

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** [Note: content hash], written out apart from the server's (testing/content-hash.ts). */
export { contentHash };

/** The Upload-Checksum header of a PATCH with this body: `sha256 <base64 SHA-256>`. */
export const uploadChecksum = (body: Uint8Array) => ({
  [UPLOAD_CHECKSUM_HEADER]: `sha256 ${createHash('sha256').update(body).digest('base64')}`,
});

/** Random bytes with the length vf1 gives a plaintext of `plain` bytes (the server cannot tell). */
export const fakeCiphertext = (plain: number) => randomBytes(ciphertextLength(plain));

export async function createFilesVault(
  t: TestApp,
  userId: string,
  values: { vault_type?: string; provider_type?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const now = t.clock.now.toISOString();
  await insertVault(t.db.kysely, {
    id,
    user_id: userId,
    name: 'Files',
    description: null,
    vault_type: values.vault_type ?? 'files',
    provider_type: values.provider_type ?? 'server',
    key_json: JSON.stringify({ format: 'vf1', slots: [] }),
    key_revision: 0,
    is_hidden: 0,
    last_accessed: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}

export async function setPlan(t: TestApp, userId: string, planId: string): Promise<void> {
  await t.db.kysely
    .updateTable('profiles' as never)
    .set({ current_plan_id: planId } as never)
    .where('id' as never, '=', userId as never)
    .execute();
}

export function uploadMetadata(
  vaultId: string,
  bytes: Uint8Array,
  over: Partial<UploadMetadata> = {},
): UploadMetadata {
  return {
    vaultId,
    fileId: randomUUID(),
    checksum: contentHash(bytes),
    encMeta: randomBytes(140).toString('base64'),
    lookup: randomBytes(32).toString('hex'),
    wrappedKey: randomBytes(60).toString('base64'),
    keyRevision: '0',
    ...over,
  };
}

/** The Upload-Metadata header: comma-separated `key base64(value)` pairs. */
export const metadataHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');

export interface Tus {
  create(
    meta: Record<string, string> | null,
    length: number | null,
    extra?: Record<string, string>,
  ): Promise<Response>;
  patch(
    location: string,
    offset: number,
    body: NonNullable<RequestInit['body']>,
    extra?: Record<string, string>,
  ): Promise<Response>;
  head(location: string): Promise<Response>;
  remove(location: string): Promise<Response>;
  /** Creates and sends everything in one PATCH; returns both answers. */
  upload(
    meta: UploadMetadata,
    bytes: Uint8Array,
  ): Promise<{ created: Response; patched: Response }>;
}

export function tus(t: TestApp, cookie: string): Tus {
  const base = { 'tus-resumable': '1.0.0', cookie };
  const api: Tus = {
    create: (meta, length, extra = {}) => {
      const headers = new Headers({ ...base, ...extra });
      if (length !== null) headers.set('upload-length', String(length));
      if (meta) headers.set('upload-metadata', metadataHeader(meta));
      return t.request('/api/uploads', { method: 'POST', headers });
    },
    patch: (location, offset, body, extra = {}) =>
      t.request(location, {
        method: 'PATCH',
        headers: {
          ...base,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
          ...extra,
        },
        body,
        duplex: 'half',
      }),
    head: (location) => t.request(location, { method: 'HEAD', headers: base }),
    remove: (location) => t.request(location, { method: 'DELETE', headers: base }),
    upload: async (meta, bytes) => {
      const created = await api.create(meta, bytes.length);
      const location = created.headers.get('location') ?? '';
      const patched = await api.patch(location, 0, bytes);
      return { created, patched };
    },
  };
  return api;
}

/** Every file under a directory of the test's data dir (blobs, uploads). */
export function filesIn(t: TestApp, sub: string): string[] {
  const root = path.join(t.config.dataDir, sub);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** A fresh user on `plan` with one files vault. */
export async function userWithVault(
  t: TestApp,
  plan = 'unlimited',
): Promise<{ user: TestUser; vaultId: string }> {
  const user = await createUser(t);
  await setPlan(t, user.id, plan);
  return { user, vaultId: await createFilesVault(t, user.id) };
}

/** The vault's file records, as the protocol's schema parses them. */
export async function listFiles(t: TestApp, user: TestUser, vaultId: string) {
  const res = await t.request(`/api/vaults/${vaultId}/files`, { headers: { cookie: user.cookie } });
  return filesResponseSchema.parse(await res.json()).files;
}

export async function fileContent(t: TestApp, user: TestUser, vaultId: string, fileId: string) {
  const res = await t.request(`/api/vaults/${vaultId}/files/${fileId}/content`, {
    headers: { cookie: user.cookie },
  });
  return Buffer.from(await res.arrayBuffer());
}

/** The vault's unfinished uploads (a 'done' row only remembers a finished one until its expiry). */
export const uploadRows = (t: TestApp, vaultId: string) =>
  t.db.kysely
    .selectFrom('file_uploads')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('state', '!=', 'done')
    .execute();

/** The tus files (bytes and info) of the upload at `location`. */
export const tusFiles = (t: TestApp, location: string) =>
  filesIn(t, 'uploads').filter((f) => f.includes(location.split('/').pop() || '-'));

/** An answer's `{ code, message }`, without the request's id ([Note: request id]). */
export const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

export const asMeta = (m: UploadMetadata): Record<string, string> => ({ ...m });
