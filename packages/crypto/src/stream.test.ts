import { describe, expect, it } from 'vitest';
import { concat } from './bytes.ts';
import { ByteReader } from './stream.ts';
import { byteStreamOf, pattern, streamOf } from './testkit.ts';

describe('ByteReader', () => {
  it('reads a byte stream into its own buffers (BYOB), whole and owned', async () => {
    let byobReads = 0;
    const bytes = pattern(2500, 3);
    let at = 0;
    const source = new ReadableStream({
      type: 'bytes',
      pull(c) {
        const req = c.byobRequest;
        if (!req?.view) throw new Error('expected a BYOB read');
        byobReads += 1;
        if (at >= bytes.length) {
          c.close();
          req.respond(0);
          return;
        }
        const n = Math.min(300, bytes.length - at, req.view.byteLength);
        new Uint8Array(req.view.buffer, req.view.byteOffset, n).set(bytes.subarray(at, at + n));
        req.respond(n);
        at += n;
      },
    });
    const reader = new ByteReader(source);
    const first = await reader.read(1000);
    expect(first).toEqual(bytes.subarray(0, 1000));
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(1000); // transferable without a copy
    expect(byobReads).toBe(4); // 300 + 300 + 300 + 100 straight into the result
    expect(await reader.read(2000)).toEqual(bytes.subarray(1000));
    expect(await reader.read(10)).toEqual(new Uint8Array(0));
  });

  it('gives the same bytes from a byte stream and from a plain one', async () => {
    const bytes = pattern(10_000, 9);
    for (const make of [streamOf, byteStreamOf]) {
      const reader = new ByteReader(make(bytes, 777));
      const parts = [await reader.read(4096), await reader.read(4096), await reader.read(4096)];
      expect(parts.map((p) => p.length)).toEqual([4096, 4096, 1808]);
      expect(concat(...parts)).toEqual(bytes);
    }
  });
});
