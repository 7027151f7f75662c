// What keeps uploads from exhausting storage (issue 15, item 1): the plan's storage quota, counted
// against the declared lengths of the user's unfinished uploads as well as their files; a cap on
// unfinished uploads per user; and a free-space watermark on the data dir under which uploads
// stop (507, code 'storage_full') while everything else, deletion included, keeps working. The
// watermark counts the bytes accepted uploads have yet to send ([Note: space reservations] in
// reservations.ts).
import {
  isUnlimited,
  serverStorageFullMessage,
  storageQuotaMessage,
  tooManyUploadsMessage,
} from '@sealvault/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { isDiskFull } from '../http/disk-full.ts';
import { HttpError } from '../http/errors.ts';
import { getLimits, storageUsed } from '../plans/limits.service.ts';
import { unfinishedUploadsOf } from './uploads.repository.ts';
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

/**
 * 507 unless the data dir keeps the watermark free after `incoming` more bytes and the bytes that
 * accepted uploads have reserved ([Note: space reservations] in reservations.ts); `own` names a
 * reservation that `incoming` replaces (an upload's own, on its PATCH).
 */
export async function checkFreeSpace(
  deps: FilesDeps,
  storage: FileStorage,
  incoming = 0,
  own?: string,
): Promise<void> {
  assertRoom(deps, storage, await storage.freeBytes(), incoming, own);
}

function assertRoom(
  deps: FilesDeps,
  storage: FileStorage,
  free: number,
  incoming: number,
  own: string | undefined,
): void {
  const { reservations } = storage;
  const reserved = reservations.total() - (own === undefined ? 0 : reservations.of(own));
  if (free - reserved - incoming < deps.config.uploadMinFreeMb * MiB) throw storageFull();
}

/**
 * checkFreeSpace, then `key` reserves `bytes` ([Note: space reservations]): the check and the
 * reservation run in one synchronous step after statfs, so two requests cannot both take the
 * last room. `key` replaces what it held before.
 */
export async function reserveSpace(
  deps: FilesDeps,
  storage: FileStorage,
  key: string,
  bytes: number,
): Promise<void> {
  const free = await storage.freeBytes();
  assertRoom(deps, storage, free, bytes, key);
  storage.reservations.set(key, bytes);
}

/** A new upload of `length` bytes: within the cap of unfinished uploads and the storage quota. */
export async function checkUploadAllowance(
  deps: FilesDeps,
  userId: string,
  length: number,
  maxStorageMb: number | undefined,
): Promise<void> {
  const db = deps.db.kysely;
  const pending = await unfinishedUploadsOf(db, userId, deps.now().toISOString());
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
