import { describe, expect, it } from 'vitest';
import { contentHash, contentHashOfDigests, blockDigest } from '@sealvault/crypto';
import { contentHashing, contentHashTap } from './contentHashing.ts';

function bytes(n: number) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 251;
  return out;
}
const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

describe('contentHashing', () => {
  it('passes the bytes through unchanged and gives the content hash, whatever the pieces', async () => {
    for (const size of [0, 1, 4 * 1024 * 1024, 9 * 1024 * 1024 + 7]) {
      const data = bytes(size);
      const seen = new Set<ArrayBufferLike>();
      const { stream, hash } = contentHashing(async (block) => {
        seen.add(block.buffer);
        return { digest: await blockDigest(block), block };
      }, contentHashOfDigests);
      const source = new ReadableStream<Uint8Array>({
        start(c) {
          for (let at = 0; at < data.length; at += 300_001) c.enqueue(data.slice(at, at + 300_001));
          c.close();
        },
      });
      const out = new Uint8Array(await new Response(source.pipeThrough(stream)).arrayBuffer());
      expect(same(out, data)).toBe(true);
      expect(await hash).toBe(await contentHash(data));
      // Whole blocks are one buffer filled again (the last, partial one is its own copy).
      const whole = Math.floor(size / (4 * 1024 * 1024));
      expect(seen.size).toBe(whole === 0 ? (size > 0 ? 1 : 0) : size % (4 * 1024 * 1024) ? 2 : 1);
    }
  });
  it('gives the same hash as a tap fed pieces of any size, whose buffers it may reuse', async () => {
    const data = bytes(9 * 1024 * 1024 + 7);
    const tap = contentHashTap(
      async (block) => ({ digest: await blockDigest(block), block }),
      contentHashOfDigests,
    );
    const reused = new Uint8Array(3 * 1024 * 1024 + 1);
    for (let at = 0; at < data.length; at += reused.length) {
      const part = data.subarray(at, at + reused.length);
      reused.set(part);
      await tap.update(reused.subarray(0, part.length));
      reused.fill(0); // the tap copied what it needs
    }
    expect(await tap.finish()).toBe(await contentHash(data));
  });
});
