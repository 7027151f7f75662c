import { describe, expect, it } from 'vitest';
import { paddedSize } from '@sealvault/protocol';
import { padStream, trimStream } from './padding.ts';

const source = (parts: number[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      let v = 1;
      for (const n of parts) c.enqueue(new Uint8Array(n).map(() => v++ % 251 || 1));
      c.close();
    },
  });

async function collect(s: ReadableStream<Uint8Array>) {
  return new Uint8Array(await new Response(s).arrayBuffer());
}

describe('file-size padding', () => {
  it('appends zeros up to the padded size, and trimming gives the file back exactly', async () => {
    for (const parts of [[], [1], [1000], [300, 700, 1], [70_000, 5]]) {
      const size = parts.reduce((a, b) => a + b, 0);
      const original = await collect(source(parts));
      const padded = await collect(source(parts).pipeThrough(padStream(size, paddedSize(size))));
      expect(padded.length).toBe(paddedSize(size));
      expect(Buffer.compare(padded.subarray(0, size), original)).toBe(0);
      expect(padded.subarray(size).every((b) => b === 0)).toBe(true);
      const back = await collect(new Blob([padded]).stream().pipeThrough(trimStream(size)));
      expect(Buffer.compare(back, original)).toBe(0);
    }
  });

  it('refuses a source that is not the size it said (the file changed while read)', async () => {
    await expect(collect(source([10]).pipeThrough(padStream(11, 16)))).rejects.toThrow(
      'The file changed while it was being read.',
    );
  });

  it('trims nothing from a file stored before padding', async () => {
    const original = await collect(source([5, 5]));
    expect(await collect(source([5, 5]).pipeThrough(trimStream(10)))).toEqual(original);
  });
});
