// What keeps uploads from exhausting storage (issue 15, item 1): the plan's storage quota, counted
// against the declared lengths of the user's unfinished uploads as well as their files; a cap on
// unfinished uploads per user; and a free-space watermark on the data dir under which uploads
// stop (507, code 'storage_full') while everything else, deletion included, keeps working.
import {
  isUnlimited,
  serverStorageFullMessage,
  storageQuotaMessage,
  tooManyUploadsMessage,
} from '@sealvault/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import * as repo from './files.repository.ts';
import type { FilesDeps } from './files.service.ts';
import type { FileStorage } from './uploads.ts';

/** Unfinished uploads one user may have at a time. */
export const MAX_UNFINISHED_UPLOADS = 10;
const MiB = 1024 * 1024;

export const storageFull = () => new HttpError(507, 'storage_full', serverStorageFullMessage);
const deletionStorageFull = () =>
  new HttpError(
    507,
    'storage_full',
    'The server is out of storage space and could not finish the deletion. Please try again in a moment.',
  );

/** A write refused for want of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full, ENOSPC. */
export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === 'SQLITE_FULL' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === '53100' ||
    /database or disk is full|no space left on device/i.test(err.message)
  );
}

/**
 * Runs a deletion's transaction; on a full disk (even SQLite's WAL needs room to delete), first
 * frees the blobs it is about to delete anyway, then tries once more; 507 if it still cannot.
 */
export async function deleteOnFullDisk<T>(
  remove: () => Promise<T>,
  freeBlobs: () => Promise<void>,
): Promise<T> {
  try {
    return await remove();
  } catch (err) {
    if (!isDiskFull(err)) throw err;
  }
  await freeBlobs();
  try {
    return await remove();
  } catch (err) {
    throw isDiskFull(err) ? deletionStorageFull() : err;
  }
}

/** 507 unless the data dir keeps the watermark free after `incoming` more bytes. */
export async function checkFreeSpace(
  deps: FilesDeps,
  storage: FileStorage,
  incoming = 0,
): Promise<void> {
  const free = await storage.freeBytes();
  if (free - incoming < deps.config.uploadMinFreeMb * MiB) throw storageFull();
}

/** A new upload of `length` bytes: within the cap of unfinished uploads and the storage quota. */
export async function checkUploadAllowance(
  deps: FilesDeps,
  userId: string,
  length: number,
  maxStorageMb: number | undefined,
): Promise<void> {
  const db = deps.db.kysely;
  const pending = await repo.unfinishedUploadsOf(db, userId, deps.now().toISOString());
  if (pending.count >= MAX_UNFINISHED_UPLOADS) {
    throw new HttpError(429, 'limit_reached', tooManyUploadsMessage(MAX_UNFINISHED_UPLOADS));
  }
  if (maxStorageMb === undefined || isUnlimited(maxStorageMb)) return;
  const used = await storageUsed(db, userId);
  if (used + pending.bytes + length > maxStorageMb * MiB) {
    throw new HttpError(413, 'payload_too_large', storageQuotaMessage(maxStorageMb));
  }
}

/**
 * The quota again at the record (in its transaction), against the bytes received: uploads that
 * passed their checks side by side cannot add up past it. Returns the message if it would pass.
 */
export async function quotaExceededAtRecord(
  trx: Kysely<Database> | Transaction<Database>,
  userId: string,
  size: number,
): Promise<string | null> {
  const { max_storage_mb: max } = await getLimits(trx, userId);
  if (max === undefined || isUnlimited(max)) return null;
  return (await storageUsed(trx, userId)) + size > max * MiB ? storageQuotaMessage(max) : null;
}
