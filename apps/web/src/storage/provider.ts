// The storage-provider seam of the browser (architecture.md, Storage providers; ADR 0003): every
// place a vault's ciphertext can live implements this one interface, and the code that uploads,
// downloads, previews and deletes files talks to it only. Providers move opaque bytes: they never
// see a key, a name or plaintext. One line per method says what it promises; the contract suite
// (contract.testkit.ts) checks every implementation against the same tests.
import type { ProviderType, VaultFile } from '@sealvault/protocol';
import type { SealedPiece } from '@sealvault/crypto';

/** What a provider can do, for callers that must choose (e.g. range reads for video seeking). */
export interface Capabilities {
  /** Any byte range of a blob can be read without reading the bytes before it. */
  ranges: boolean;
  /** An interrupted put can resume where it stopped instead of starting again. */
  resumable: boolean;
  /** The largest blob it accepts, in bytes; null when only the plan or the quota limits it. */
  maxBlobBytes: number | null;
  /** The blobs live on this device only: another browser or device has the records, not the bytes. */
  deviceOnly: boolean;
}

/** Space as the backend reports it; null fields are unknown. */
export interface Quota {
  usedBytes: number | null;
  totalBytes: number | null;
}

export interface BlobInfo {
  /** The provider's own reference to the blob (the file record's storage path). */
  ref: string;
  size: number;
}

/** What a finished put answers: everything the caller records of the blob. */
export interface StoredBlob extends BlobInfo {
  /**
   * The content hash ([Note: content hash]) of the bytes stored, hex, computed on this device
   * from what was sent (and checked against the provider's own where it has one: hashing.ts).
   */
  contentHash: string;
  /** The file record, where the backend made it with the blob (our server); else the caller does. */
  record?: VaultFile;
}

export interface PutOptions {
  /** Bytes sent so far (0..length), as the put makes progress. */
  onProgress?: (sent: number) => void;
  /** true: the put lost its connection and is waiting to retry; false: bytes flow again. */
  onRetrying?: (retrying: boolean) => void;
  /** Aborts the put; nothing of the blob is left behind. */
  signal?: AbortSignal;
  /**
   * What the backend records with the blob, opaque to the provider: for our server, the file
   * record's encrypted metadata, name look-up and wrapped key (it creates the record when the
   * blob is complete). Providers that keep no records ignore it.
   */
  record?: Record<string, string>;
  /**
   * Hands every byte of the source to the content hash, in order, before it is sent: set by
   * hashing.ts for a provider that says `tapsPieces`, instead of piping the source through it.
   */
  contentTap?: (bytes: Uint8Array) => Promise<void>;
}

export type StorageErrorCode = 'not_found' | 'no_space' | 'aborted' | 'unavailable' | 'failed';

/** Every provider failure: a stable code and a message a user can read. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface StorageProvider {
  readonly type: ProviderType;
  readonly capabilities: Capabilities;
  /**
   * Cloud providers: makes a new vault's folder in the user's account, named `name` (or a
   * variant if taken), and answers what the vault records to find it (storage_folder).
   */
  makeFolder?(name: string): Promise<string>;
  /** Makes the vault's container (folder or prefix) exist; calling it again changes nothing. */
  prepare(vaultId: string): Promise<void>;
  /**
   * Stores `source`, exactly `length` bytes, as blob `blobId` of the vault; resolves once all of
   * it is stored. A failed or aborted put leaves nothing behind.
   */
  put(
    vaultId: string,
    blobId: string,
    length: number,
    source: ReadableStream<Uint8Array>,
    options?: PutOptions,
  ): Promise<StoredBlob>;
  /**
   * The same as `put`, from pieces a crypto Worker sealed, each a Blob with its SHA-256
   * ([Note: sealed pieces as Blobs] in packages/crypto/src/sealedFile.ts): the page sends them
   * without touching their bytes. Only our server has it (its PATCH bodies are these pieces);
   * an upload to any other provider goes through `put`.
   */
  putPieces?(
    vaultId: string,
    blobId: string,
    length: number,
    pieces: ReadableStream<SealedPiece>,
    options?: PutOptions,
  ): Promise<StoredBlob>;
  /** The blob's bytes, or bytes [start, end) of it; StorageError 'not_found' if it is missing. */
  get(
    vaultId: string,
    ref: string,
    range?: { start: number; end: number },
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>>;
  /**
   * A same-origin URL whose GET answers the whole blob with the page's cookies and nothing else,
   * for a crypto Worker to fetch and open itself ([Note: fetched downloads] in
   * packages/crypto/src/fetched.ts). Only our server has one; the others are read through `get`.
   */
  contentUrl?(vaultId: string, ref: string): string;
  /** The blob's size, or null if it is missing. */
  stat(vaultId: string, ref: string): Promise<BlobInfo | null>;
  /** Every blob of the vault. */
  list(vaultId: string): Promise<BlobInfo[]>;
  /** Removes a blob; removing a missing one is not an error. */
  delete(vaultId: string, ref: string): Promise<void>;
  /** Removes the vault's container and every blob in it. */
  removeContainer(vaultId: string): Promise<void>;
  /** Space used and available, where the backend says. */
  quota(): Promise<Quota>;
}
