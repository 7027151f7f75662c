// The content hash of a ciphertext as it streams to a provider that does not compute it for us
// ([Note: content hash] in packages/protocol/src/files.ts): the bytes pass through unchanged, and
// a copy is cut into 4 MiB blocks, each digested (in a crypto Worker in the app). The hash goes
// into the file's record so that the provider's copy can be checked later. One block is filled
// again and again: the digest answers it back (the crypto Worker takes it and gives it back), so
// a GiB streamed is not 256 fresh 4 MiB blocks for the garbage collector (bench/move, issue 27).
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';

/** SHA-256 of one block; answers the digest and the block back, to be filled again. */
export type DigestBlock = (
  block: Uint8Array<ArrayBuffer>,
) => Promise<{ digest: Uint8Array<ArrayBuffer>; block: Uint8Array<ArrayBuffer> }>;

export function contentHashing(
  digest: DigestBlock,
  hashOf: (digests: Uint8Array<ArrayBuffer>[]) => Promise<string>,
): { stream: TransformStream<Uint8Array, Uint8Array>; hash: Promise<string> } {
  const digests: Uint8Array<ArrayBuffer>[] = [];
  let block = new Uint8Array(CONTENT_HASH_BLOCK_BYTES);
  let filled = 0;
  // Settles once the whole stream has passed (await it only after the put succeeded).
  let settle: ((h: string) => void) | undefined;
  const hash = new Promise<string>((resolve) => (settle = resolve));
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      for (let at = 0; at < chunk.length;) {
        const take = Math.min(chunk.length - at, block.length - filled);
        block.set(chunk.subarray(at, at + take), filled);
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
    async flush() {
      if (filled > 0) digests.push((await digest(block.slice(0, filled))).digest);
      settle?.(await hashOf(digests));
    },
  });
  return { stream, hash };
}
