// The content hash of a ciphertext as it streams to a provider that does not compute it for us
// ([Note: content hash] in packages/protocol/src/files.ts): the bytes pass through unchanged, and
// a copy is cut into 4 MiB blocks, each digested (in a crypto Worker in the app). The hash goes
// into the file's record so that the provider's copy can be checked later. One block is filled
// again and again: the digest answers it back (the crypto Worker takes it and gives it back), so
// a GiB streamed is not 256 fresh 4 MiB blocks for the garbage collector (bench/move, issue 27).
// The same hashing is also a tap (contentHashTap) that a cloud upload hands each piece to as it
// cuts them, so its source need not be piped through a stream first ([Note: pieces read in place]
// in server/pieces.ts).
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';

/** SHA-256 of one block; answers the digest and the block back, to be filled again. */
export type DigestBlock = (
  block: Uint8Array<ArrayBuffer>,
) => Promise<{ digest: Uint8Array<ArrayBuffer>; block: Uint8Array<ArrayBuffer> }>;

/** The content hash taken from bytes handed to it in order, without a stream in between. */
export interface ContentHashTap {
  /** Takes the next bytes of the blob (copied: the caller may reuse them once it resolves). */
  update(bytes: Uint8Array): Promise<void>;
  /** The content hash of every byte given, once all of them were. */
  finish(): Promise<string>;
}

export function contentHashTap(
  digest: DigestBlock,
  hashOf: (digests: Uint8Array<ArrayBuffer>[]) => Promise<string>,
): ContentHashTap {
  const digests: Uint8Array<ArrayBuffer>[] = [];
  let block = new Uint8Array(CONTENT_HASH_BLOCK_BYTES);
  let filled = 0;
  return {
    async update(bytes) {
      for (let at = 0; at < bytes.length;) {
        const take = Math.min(bytes.length - at, block.length - filled);
        block.set(bytes.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === block.length) {
          const done = await digest(block);
          digests.push(done.digest);
          block = done.block;
          filled = 0;
        }
      }
    },
    async finish() {
      if (filled > 0) digests.push((await digest(block.slice(0, filled))).digest);
      filled = 0;
      return hashOf(digests);
    },
  };
}

export function contentHashing(
  digest: DigestBlock,
  hashOf: (digests: Uint8Array<ArrayBuffer>[]) => Promise<string>,
): { stream: TransformStream<Uint8Array, Uint8Array>; hash: Promise<string> } {
  const tap = contentHashTap(digest, hashOf);
  // Settles once the whole stream has passed (await it only after the put succeeded).
  let settle: ((h: string) => void) | undefined;
  const hash = new Promise<string>((resolve) => (settle = resolve));
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      await tap.update(chunk);
    },
    async flush() {
      settle?.(await tap.finish());
    },
  });
  return { stream, hash };
}
