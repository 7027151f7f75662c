// The content hash of a ciphertext, the file checksum of new uploads ([Note: content hash] in
// packages/protocol/src/files.ts; docs/vault-format.md §2 has the vectors). The ciphertext is cut
// into blocks of 4 MiB, each block is digested with WebCrypto's native SHA-256, and the hash is
// SHA-256 over the concatenated block digests: the construction Dropbox publishes as
// `content_hash`. It replaced a whole-file SHA-256 in WebAssembly (WebCrypto has no incremental
// digest), which cost the upload about 4.7 CPU seconds per GiB (docs/adr/0005).
import { concat, toHex } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { sha256, type Bytes } from './primitives.ts';

/** Bytes per block; the last block of a ciphertext may be shorter. */
export const CONTENT_HASH_BLOCK_BYTES = 4 * 1024 * 1024;

/** SHA-256 of one block (at most CONTENT_HASH_BLOCK_BYTES bytes). */
export function blockDigest(block: Bytes): Promise<Bytes> {
  if (block.length > CONTENT_HASH_BLOCK_BYTES) {
    throw new CryptoError('INVALID_INPUT', 'A block is at most 4 MiB');
  }
  return sha256(block);
}

/** The content hash (lowercase hex) from the digests of all blocks, in order. */
export async function contentHashOfDigests(digests: readonly Bytes[]): Promise<string> {
  return toHex(await sha256(concat(...digests)));
}

/** The content hash of bytes held in memory (no blocks for an empty input). */
export async function contentHash(data: Bytes): Promise<string> {
  const digests: Bytes[] = [];
  for (let at = 0; at < data.length; at += CONTENT_HASH_BLOCK_BYTES) {
    digests.push(await blockDigest(data.subarray(at, at + CONTENT_HASH_BLOCK_BYTES)));
  }
  return contentHashOfDigests(digests);
}
