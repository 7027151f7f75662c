// A backup directory (docs/backup.md): the database copy, the blobs and manifest.json, which is
// written last, so a directory without one is an unfinished backup and restore refuses it.
//   manifest.json
//   database.sqlite | database.pgdump    (better-sqlite3's online backup | pg_dump custom format)
//   auth-secret                          (only when the secret was generated into DATA_DIR)
//   opaque-server-setup                  (only when the OPAQUE setup was generated into DATA_DIR)
//   blobs/ab/cd/<key>                    (each blob's bytes, fanned out like the fs store)
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { BlobKey } from '../blobs/blob-store.ts';
import { DATA_FILE_MODE } from '../db/file-modes.ts';

export const MANIFEST = 'manifest.json';
export const AUTH_SECRET = 'auth-secret';
/** The generated OPAQUE server setup (auth/opaque.secret.ts): without it no password opens. */
export const OPAQUE_SETUP = 'opaque-server-setup';
export const FORMAT = 'sealvault-backup/1';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const blobKey = z.string().regex(/^[0-9a-f]{32}$/);
const size = z.number().int().nonnegative();

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  createdAt: z.iso.datetime(),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    file: z.enum(['database.sqlite', 'database.pgdump']),
    size,
    sha256: hex64,
  }),
  /** Whether `auth-secret` holds the generated Better Auth secret (none when it is configured). */
  authSecret: z.boolean(),
  /** Whether `opaque-server-setup` holds the generated OPAQUE setup (absent before OPAQUE). */
  opaqueSetup: z.boolean().default(false),
  /** The store the blobs came from; they may be restored into either. */
  blobStore: z.enum(['fs', 's3']),
  blobs: z.object({
    count: size,
    bytes: size,
    items: z.array(z.object({ key: blobKey, size, sha256: hex64 })),
  }),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Where a blob's bytes lie in the backup directory. */
export const blobFile = (dir: string, key: BlobKey | string) =>
  path.join(dir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const file = path.join(dir, MANIFEST);
  const handle = await fsp.open(`${file}.tmp`, 'w', DATA_FILE_MODE);
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(`${file}.tmp`, file);
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fsp.readFile(path.join(dir, MANIFEST), 'utf8');
  } catch {
    throw new Error(`${dir} holds no ${MANIFEST}: not a backup, or one that did not finish`);
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${MANIFEST} in ${dir} is not a ${FORMAT} manifest`);
  return parsed.data;
}
