// `npm run restore` (docs/backup.md): checks the whole backup against its manifest before it
// changes anything, puts every blob back under its key (each verified against its size and
// SHA-256 while it streams, so a damaged copy never becomes a blob), then replaces the database,
// and finally names the file records whose blob the backup did not have. The blobs go first:
// until the database is replaced, the old one (if any) still stands. The blob store may differ
// from the one backed up (fs to S3 or back): keys are the same in both.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import { createBlobStore } from '../blobs/create-blob-store.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../db/file-modes.ts';
import { blobKeyOf } from '../files/files.repository.ts';
import { sha256OfFile } from './backup.ts';
import { hasAccounts, loadDatabase } from './database.ts';
import { AUTH_SECRET, blobFile, OPAQUE_SETUP, readManifest, type Manifest } from './manifest.ts';

const IN_FLIGHT = 4;

export interface RestoreOptions {
  config: Config;
  dir: string;
  /** The store to write; the configured one by default. */
  blobs?: BlobStore;
  /** Replace a database that already holds accounts. */
  force?: boolean;
  log?: (message: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Ids of file records whose blob was not in the backup (deleted while it ran). */
  filesWithoutBlob: string[];
}

type Item = Manifest['blobs']['items'][number];

/** The backup's copy of a blob, failing before its end if it is not the bytes of the manifest. */
async function* verified(dir: string, item: Item): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(blobFile(dir, item.key), {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.byteLength;
    if (size > item.size) break;
    yield chunk;
  }
  if (size !== item.size || hash.digest('hex') !== item.sha256) {
    throw new Error(`blob ${item.key}: the backup's copy does not match its manifest`);
  }
}

/** Sizes first: a missing or cut-off blob file stops the restore before it changes anything. */
async function checkBackup(dir: string, manifest: Manifest): Promise<void> {
  const dbFile = path.join(dir, manifest.database.file);
  if ((await sha256OfFile(dbFile).catch(() => null)) !== manifest.database.sha256) {
    throw new Error(`${manifest.database.file} does not match the manifest`);
  }
  if (manifest.authSecret && !fs.existsSync(path.join(dir, AUTH_SECRET))) {
    throw new Error(`${AUTH_SECRET} is missing from the backup`);
  }
  if (manifest.opaqueSetup && !fs.existsSync(path.join(dir, OPAQUE_SETUP))) {
    throw new Error(`${OPAQUE_SETUP} is missing from the backup`);
  }
  for (const item of manifest.blobs.items) {
    const stat = await fsp.stat(blobFile(dir, item.key)).catch(() => null);
    if (stat?.size !== item.size) throw new Error(`blob ${item.key} is missing or cut short`);
  }
}

async function putBlobs(store: BlobStore, dir: string, items: Item[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      const item = items[i];
      if (item) await store.restore(item.key as BlobKey, verified(dir, item));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/**
 * The records that should have a blob here and have none in `keys`. A record a vault's provider
 * holds has no blob here ([Note: provider-held files] in files/files.repository.ts), nor one the
 * trash purge purged ([Note: trash] in the protocol's files.ts).
 */
async function filesWithout(config: Config, keys: Set<string>): Promise<string[]> {
  const db = openDatabase(config.database);
  try {
    const rows = await db.kysely
      .selectFrom('vault_files')
      .select(['id', 'blob_key', 'storage_ref'])
      .where('purged_at', 'is', null)
      .execute();
    return rows
      .filter((r) => {
        const key = blobKeyOf(r);
        return key !== null && !keys.has(key);
      })
      .map((r) => r.id);
  } finally {
    await db.close();
  }
}

export async function runRestore(options: RestoreOptions): Promise<RestoreResult> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const dir = path.resolve(options.dir);
  const manifest = await readManifest(dir);
  if (manifest.database.kind !== config.database.kind) {
    throw new Error(
      `This backup holds a ${manifest.database.kind} database, but the configuration uses ${config.database.kind}`,
    );
  }
  await checkBackup(dir, manifest);
  if (!options.force && (await hasAccounts(config.database))) {
    throw new Error(
      'The database already holds accounts, and a restore replaces it. Stop the server and ' +
        'run the restore again with --force to replace them.',
    );
  }

  await putBlobs(options.blobs ?? createBlobStore(config), dir, manifest.blobs.items);
  log(`${manifest.blobs.count} blobs (${manifest.blobs.bytes} bytes) restored`);
  await loadDatabase(config.database, path.join(dir, manifest.database.file));
  log(`database (${manifest.database.kind}) restored`);

  if (manifest.authSecret && config.auth.secret) {
    log('BETTER_AUTH_SECRET is set: kept instead of the generated secret in the backup');
  } else if (manifest.authSecret) {
    await fsp.mkdir(config.dataDir, { recursive: true, mode: DATA_DIR_MODE });
    const target = path.join(config.dataDir, AUTH_SECRET);
    await fsp.copyFile(path.join(dir, AUTH_SECRET), target);
    await fsp.chmod(target, DATA_FILE_MODE);
  }
  if (manifest.opaqueSetup && config.auth.opaqueServerSetup) {
    log('OPAQUE_SERVER_SETUP is set: kept instead of the generated setup in the backup');
  } else if (manifest.opaqueSetup) {
    await fsp.mkdir(config.dataDir, { recursive: true, mode: DATA_DIR_MODE });
    const target = path.join(config.dataDir, OPAQUE_SETUP);
    await fsp.copyFile(path.join(dir, OPAQUE_SETUP), target);
    await fsp.chmod(target, DATA_FILE_MODE);
  }

  const filesWithoutBlob = await filesWithout(
    config,
    new Set(manifest.blobs.items.map((i) => i.key)),
  );
  if (filesWithoutBlob.length > 0) {
    log(`${filesWithoutBlob.length} file record(s) have no blob in this backup`);
  }
  return { manifest, filesWithoutBlob };
}
