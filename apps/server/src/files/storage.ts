// The server's file storage for one app (one process): the blob store, the tus upload store and
// server, and what the finishing of uploads shares. Built once at start (server.ts) and handed to
// createApp and the sweep as `files` (http/context.ts), never looked up from a global.
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createBlobStore } from '../blobs/create-blob-store.ts';
import type { Config } from '../config.ts';
import { createTusServer, UploadStore, type FileStorage } from './uploads.ts';
import { finishUpload } from './uploads.finish.ts';

export function createFileStorage(config: Config): FileStorage {
  const uploads = new UploadStore(path.join(config.dataDir, 'uploads'));
  return {
    blobs: createBlobStore(config),
    uploads,
    tus: createTusServer(uploads, finishUpload),
    instance: randomBytes(8).toString('hex'),
    finishing: new Set(),
    freeBytes: async () => {
      const stats = await fsp.statfs(config.dataDir);
      return stats.bavail * stats.bsize;
    },
  };
}
