// The BlobStore interface (architecture.md, Server: Blobs): immutable ciphertext blobs under keys
// the store itself generates, never taken from user input. Implementations: fs-blob-store.ts
// (local disk, the embedded default); an S3 store can implement the same six methods later.

/** A key the store generated: opaque to everyone else, safe to keep in the database. */
export type BlobKey = string & { readonly __brand: 'BlobKey' };

/** An inclusive byte range within a blob, as in HTTP Range (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

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
}
