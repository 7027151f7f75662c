// `npm run backup` (docs/backup.md): the database first (a consistent snapshot), then every blob
// the store lists, each written with its SHA-256, then manifest.json. Blobs are immutable and
// their keys never reused, so a blob copied after the snapshot is the same blob the snapshot
// names; a file deleted while the backup runs may lose its blob from the backup (restore names
// such files). Unfinished tus uploads are not backed up: their clients upload them again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobNotFoundError, type BlobStore, type StoredBlob } from '../blobs/blob-store.ts';
import { createBlobStore } from '../blobs/create-blob-store.ts';
import type { Config } from '../config.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../db/file-modes.ts';
import { dumpDatabase } from './database.ts';
import {
  AUTH_SECRET,
  blobFile,
  FORMAT,
  OPAQUE_SETUP,
  writeManifest,
  type Manifest,
} from './manifest.ts';

/** Blobs copied at once: overlaps the round trips of an S3 store. */
const IN_FLIGHT = 4;

export interface BackupOptions {
  config: Config;
  /** The backup directory: it must not exist yet, or be empty. */
  dir: string;
  /** The store to read; the configured one by default. */
  blobs?: BlobStore;
  now?: () => Date;
  log?: (message: string) => void;
}

type Item = Manifest['blobs']['items'][number];

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

async function syncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  await handle.sync().finally(() => handle.close());
}

async function emptyDir(dir: string): Promise<void> {
  const names = await fsp.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (names.length > 0) throw new Error(`${dir} is not empty: a backup goes into a new directory`);
  await fsp.mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
}

/** Copies one blob into the backup; null if it was deleted since the store listed it. */
async function copyBlob(store: BlobStore, dir: string, blob: StoredBlob): Promise<Item | null> {
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await store.get(blob.key);
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
  const file = blobFile(dir, blob.key);
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: DATA_DIR_MODE });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    Readable.fromWeb(stream),
    async function* (source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.byteLength;
        yield chunk;
      }
    },
    fs.createWriteStream(file, { flags: 'wx', mode: DATA_FILE_MODE }),
  );
  await syncFile(file);
  if (size !== blob.size) {
    throw new Error(`blob ${blob.key}: read ${size} bytes, the store listed ${blob.size}`);
  }
  return { key: blob.key, size, sha256: hash.digest('hex') };
}

async function copyBlobs(
  store: BlobStore,
  dir: string,
  log: (message: string) => void,
): Promise<Item[]> {
  const items: Item[] = [];
  const inFlight = new Set<Promise<void>>();
  const failures: unknown[] = [];
  for await (const blob of store.list()) {
    if (failures.length > 0) break;
    const task: Promise<void> = copyBlob(store, dir, blob)
      .then(
        (item) => {
          if (item) items.push(item);
          else log(`blob ${blob.key} was deleted while the backup ran: not in this backup`);
        },
        (err: unknown) => {
          failures.push(err);
        },
      )
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failures.length > 0) throw failures[0];
  return items.sort((a, b) => a.key.localeCompare(b.key));
}

export async function runBackup(options: BackupOptions): Promise<Manifest> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const dir = path.resolve(options.dir);
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  await emptyDir(dir);

  const kind = config.database.kind;
  const dbFile = kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
  await dumpDatabase(config.database, path.join(dir, dbFile));
  const dbPath = path.join(dir, dbFile);
  log(`database (${kind}) copied`);

  // A generated secret lives only in DATA_DIR; without it, sessions and TOTP secrets are lost.
  const secretFile = path.join(config.dataDir, AUTH_SECRET);
  const authSecret = !config.auth.secret && fs.existsSync(secretFile);
  if (authSecret) {
    await fsp.copyFile(secretFile, path.join(dir, AUTH_SECRET));
    await fsp.chmod(path.join(dir, AUTH_SECRET), DATA_FILE_MODE);
  }
  // Likewise a generated OPAQUE setup: without it, no stored password record opens.
  const setupFile = path.join(config.dataDir, OPAQUE_SETUP);
  const opaqueSetup = !config.auth.opaqueServerSetup && fs.existsSync(setupFile);
  if (opaqueSetup) {
    await fsp.copyFile(setupFile, path.join(dir, OPAQUE_SETUP));
    await fsp.chmod(path.join(dir, OPAQUE_SETUP), DATA_FILE_MODE);
  }

  const items = await copyBlobs(options.blobs ?? createBlobStore(config), dir, log);
  const manifest: Manifest = {
    format: FORMAT,
    createdAt,
    database: {
      kind,
      file: dbFile,
      size: (await fsp.stat(dbPath)).size,
      sha256: await sha256OfFile(dbPath),
    },
    authSecret,
    opaqueSetup,
    blobStore: config.blobs.kind,
    blobs: {
      count: items.length,
      bytes: items.reduce((sum, i) => sum + i.size, 0),
      items,
    },
  };
  await writeManifest(dir, manifest);
  log(`${items.length} blobs (${manifest.blobs.bytes} bytes) copied; manifest written`);
  return manifest;
}
