// The content hash of an upload's ciphertext on the server ([Note: content hash] in
// packages/protocol/src/files.ts): SHA-256 of each 4 MiB block, then SHA-256 over the concatenated
// 32-byte block digests; Dropbox's `content_hash`. ContentHasher takes the bytes as they stream
// through a PATCH (uploads.hashes.ts keeps one per upload, [Note: running hash] in
// uploads.store.ts); contentHashOfFile is the fallback over a stored file. node:crypto only: the
// server never imports @sealvault/crypto.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';

const BLOCK = CONTENT_HASH_BLOCK_BYTES;

/** A point a ContentHasher can be rewound to (taken before a write that may be refused). */
export interface ContentHashMark {
  readonly blocks: number;
  readonly filled: number;
  readonly partial: Hash;
}

/** The block digests of the bytes so far, plus the running SHA-256 of the unfinished last block. */
export class ContentHasher {
  private readonly blocks: Buffer[] = [];
  private partial: Hash = createHash('sha256');
  /** Bytes in the unfinished block, 0 ≤ filled < BLOCK. */
  private filled = 0;

  /** How many bytes have been hashed. */
  get length(): number {
    return this.blocks.length * BLOCK + this.filled;
  }

  update(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(BLOCK - this.filled, bytes.length - at);
      this.partial.update(take === bytes.length ? bytes : bytes.subarray(at, at + take));
      this.filled += take;
      at += take;
      if (this.filled === BLOCK) {
        this.blocks.push(this.partial.digest());
        this.partial = createHash('sha256');
        this.filled = 0;
      }
    }
  }

  /**
   * The SHA-256 of the last `n` bytes hashed, when they started on a block boundary and fit in one
   * block: the digest the block hash already holds, so a PATCH of one aligned block is hashed once.
   */
  tailDigest(n: number): Buffer {
    if (n === 0) return createHash('sha256').digest();
    if (this.filled === n) return this.partial.copy().digest();
    const last = this.blocks.at(-1);
    if (this.filled === 0 && n === BLOCK && last) return last;
    throw new Error('tailDigest: the bytes do not start on a block boundary within one block');
  }

  mark(): ContentHashMark {
    return { blocks: this.blocks.length, filled: this.filled, partial: this.partial.copy() };
  }

  /** Forgets everything hashed after `mark`, a mark of this hasher; each mark is used once. */
  rewind(mark: ContentHashMark): void {
    this.blocks.length = mark.blocks;
    this.filled = mark.filled;
    this.partial = mark.partial;
  }

  /** The content hash of the bytes so far, lowercase hex; hashing may go on afterwards. */
  digest(): string {
    const outer = createHash('sha256');
    for (const block of this.blocks) outer.update(block);
    if (this.filled > 0) outer.update(this.partial.copy().digest());
    return outer.digest('hex');
  }
}

/** The content hash of stored bytes, read in order (a file in 4 MiB blocks, an S3 object). */
export async function contentHashOfStream(bytes: AsyncIterable<Uint8Array>): Promise<string> {
  const hasher = new ContentHasher();
  for await (const chunk of bytes)
    hasher.update(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return hasher.digest();
}

/** The content hash of a stored file, read in 4 MiB blocks. */
export function contentHashOfFile(file: string): Promise<string> {
  return contentHashOfStream(fs.createReadStream(file, { highWaterMark: BLOCK }));
}
