// The BlobStore interface (architecture.md, Server: Blobs): immutable ciphertext blobs under keys
// the store itself generates, never taken from user input. Implementations: fs-blob-store.ts
// (local disk, the embedded default) and s3-blob-store.ts (any S3-compatible bucket), both held
// to blob-store.suite.ts; create-blob-store.ts picks one from the config.
import { randomBytes } from 'node:crypto';

/** A key the store generated: opaque to everyone else, safe to keep in the database. */
export type BlobKey = string & { readonly __brand: 'BlobKey' };

/** An inclusive byte range within a blob, as in HTTP Range (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/** 128 random bits in hex: every key a store generates has this form, and nothing else is one. */
const KEY_PATTERN = /^[0-9a-f]{32}$/;
export const isBlobKey = (value: string): value is BlobKey => KEY_PATTERN.test(value);
export const randomBlobKey = (): BlobKey => randomBytes(16).toString('hex') as BlobKey;

export interface StoredBlob {
  key: BlobKey;
  size: number;
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor() {
    super('Blob not found');
  }
}

export interface BlobStore {
  /** Stores every byte of `source` under a new key; the blob is visible only once complete and durable. */
  put(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<StoredBlob>;
  /** A fresh key that no blob has yet, for adopt(): a caller may name it (in a row) before the move. */
  newKey(): BlobKey;
  /** Takes ownership of a complete local file (moved when possible, else copied and removed) as a blob under `key` (a new one without). */
  adopt(filePath: string, key?: BlobKey): Promise<StoredBlob>;
  /** Streams bytes `range.start..range.end` inclusive (the whole blob without a range); BlobNotFoundError if missing. */
  get(key: BlobKey, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** The blob's size in bytes, or null when there is no such blob (or the key is not one of ours). */
  stat(key: BlobKey): Promise<{ size: number } | null>;
  /** Removes the blob; resolves also when it is already gone, so deletion can be retried. */
  delete(key: BlobKey): Promise<void>;
  /** Every blob with its size, in no promised order, read lazily (a backup walks a whole store). */
  list(): AsyncIterable<StoredBlob>;
  /** Stores `source` under `key`, replacing a blob there (a restore puts a backup back); BlobNotFoundError for a key not of our form. */
  restore(
    key: BlobKey,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<StoredBlob>;
  /** Removes what interrupted puts left behind, once older than `before`; returns how many. */
  removeStaleTemp(before: Date): Promise<number>;
}
