import { describe, expect, it } from 'vitest';
import { concat } from './bytes.ts';
import { CHUNK_BYTES } from './chunk.ts';
import { ByteReader, sealChunks } from './stream.ts';
import { byteStreamOf, diff, pattern, streamOf } from './testkit.ts';

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

  it('reads into a spare buffer when given one, from either kind of stream', async () => {
    const bytes = pattern(3000, 5);
    for (const make of [streamOf, byteStreamOf]) {
      const reader = new ByteReader(make(bytes, 700));
      const spare = new ArrayBuffer(1000);
      const first = await reader.read(1000, spare);
      expect(first).toEqual(bytes.subarray(0, 1000));
      expect(first.byteLength).toBe(1000);
      // The default reader fills `spare` itself; a BYOB read hands back the same memory moved
      // (the spare is detached), never a fresh allocation of another size.
      expect(first.buffer === spare || spare.byteLength === 0).toBe(true);
      const rest = await reader.read(2500, new ArrayBuffer(2500));
      expect(rest).toEqual(bytes.subarray(1000)); // a short last read is a copy of its own size
      expect(rest.buffer.byteLength).toBe(2000);
    }
  });
});

describe('sealChunks buffer reuse', () => {
  it('reads later chunks into the buffers the sealer handed back, never one still in use', async () => {
    const chunks = 9;
    const bytes = pattern(chunks * CHUNK_BYTES, 11);
    const seen = new Set<ArrayBuffer>();
    const inUse = new Set<ArrayBuffer>();
    const sealer = {
      seal: async (_index: number, plain: Uint8Array<ArrayBuffer>) => {
        expect(inUse.has(plain.buffer)).toBe(false);
        inUse.add(plain.buffer);
        seen.add(plain.buffer);
        const out = plain.slice(); // what the sealer keeps: a copy made at once, like WebCrypto's
        await new Promise((resolve) => setTimeout(resolve, 1));
        inUse.delete(plain.buffer);
        return { out, spare: plain };
      },
    };
    const out = [];
    for await (const c of sealChunks(streamOf(bytes, 100_000), sealer, 2)) out.push(c);
    expect(diff(concat(...out), bytes)).toEqual([0, -1]);
    expect(seen.size).toBeLessThan(chunks); // buffers came round again

    seen.clear();
    const fresh = [];
    for await (const c of sealChunks(streamOf(bytes, 100_000), sealer, 2, false)) fresh.push(c);
    expect(diff(concat(...fresh), bytes)).toEqual([0, -1]);
    expect(seen.size).toBe(chunks); // reuse off: a new buffer for every chunk
  });
});
