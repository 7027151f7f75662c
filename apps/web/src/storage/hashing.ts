// Every put answers the content hash of what it stored ([Note: content hash] in
// packages/protocol/src/files.ts), whatever the provider: a provider that does not compute it
// itself (this browser, Dropbox, Google Drive) is wrapped here, and its bytes pass through
// contentHashing.ts on their way. A provider that states a content hash of its own (Dropbox's
// content_hash, the same construction) is held to it: a copy that differs is removed and the put
// fails, so a record never names bytes the provider does not hold. Our server computes the hash
// while it uploads (server/tus.ts) and checks it itself.
import type { BlobInfo, StorageProvider, StoredBlob } from './provider.ts';
import { StorageError } from './provider.ts';
import { contentHashing, contentHashTap, type DigestBlock } from './contentHashing.ts';
import { msg } from '../i18n/i18n.ts';

export const contentHashMismatch = msg(
  'Upload failed. Please try again. (The storage provider holds different bytes than were sent.)',
);

/** What a provider's own put answers before the content hash is known. */
export interface PutResult extends BlobInfo {
  /** The provider's own content hash of the bytes it holds, hex, where it computes one. */
  providerHash?: string;
}

/** A provider whose put does not compute the content hash itself. */
export type HashlessProvider = Omit<StorageProvider, 'put'> & {
  put(...args: Parameters<StorageProvider['put']>): Promise<PutResult>;
  /**
   * Its put hands each piece it cuts to `options.contentTap`, reading the source itself (in
   * place where it can: [Note: pieces read in place] in server/pieces.ts); else the source is
   * piped through the hashing first.
   */
  tapsPieces?: true;
};

export interface ContentHasher {
  /** SHA-256 of one 4 MiB block (in a crypto Worker in the app). */
  digest: DigestBlock;
  /** The content hash (hex) from the block digests, in order. */
  combine: (digests: Uint8Array<ArrayBuffer>[]) => Promise<string>;
}

export function withContentHash(inner: HashlessProvider, hasher: ContentHasher): StorageProvider {
  const { tapsPieces, ...rest } = inner;
  return {
    ...rest,
    async put(vaultId, blobId, length, source, options): Promise<StoredBlob> {
      let stored: PutResult;
      let contentHash: string;
      if (tapsPieces) {
        const tap = contentHashTap(hasher.digest, hasher.combine);
        stored = await inner.put(vaultId, blobId, length, source, {
          ...options,
          contentTap: (bytes) => tap.update(bytes),
        });
        contentHash = await tap.finish();
      } else {
        const hashing = contentHashing(hasher.digest, hasher.combine);
        stored = await inner.put(
          vaultId,
          blobId,
          length,
          source.pipeThrough(hashing.stream),
          options,
        );
        contentHash = await hashing.hash;
      }
      if (stored.providerHash !== undefined && stored.providerHash !== contentHash) {
        await inner.delete(vaultId, stored.ref).catch(() => undefined);
        throw new StorageError('failed', contentHashMismatch);
      }
      return { ref: stored.ref, size: stored.size, contentHash };
    },
  };
}
