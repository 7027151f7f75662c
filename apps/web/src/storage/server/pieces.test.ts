import { describe, expect, it } from 'vitest';
import { pieceSource, piecesOf, readerOf, sealedPiecesOf, type PieceHooks } from './pieces.ts';

const streamOf = (parts: number[][]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new Uint8Array(p));
      c.close();
    },
  }).getReader();

/** A stand-in digest (the sum of the bytes), and a log of what the hooks saw. */
function hooks(events: string[] = []): PieceHooks {
  return {
    digest: (bytes) => {
      events.push(`digest ${bytes.length}`);
      return Promise.resolve({ bytes, digest: Uint8Array.of(bytes.reduce((a, b) => a + b, 0)) });
    },
    onEnd: (digests) => {
      events.push(`end ${digests.map((d) => d[0]).join(',')}`);
      return Promise.resolve();
    },
  };
}

async function readAll(r: ReturnType<typeof piecesOf>) {
  const out: number[][] = [];
  for (;;) {
    const x = await r.read();
    if (!x) return out;
    out.push([...x.bytes]);
  }
}

describe('piecesOf', () => {
  it('re-cuts reads into exact pieces, digests each, and calls onEnd before the last one', async () => {
    const events: string[] = [];
    const r = piecesOf(streamOf([[1, 2, 3], [4], [5, 6, 7, 8, 9]]), 4, 9, hooks(events));
    const first = await r.read();
    expect(first && [...first.bytes]).toEqual([1, 2, 3, 4]);
    expect(first && [...first.digest]).toEqual([10]);
    expect(await readAll(r)).toEqual([[5, 6, 7, 8], [9]]);
    expect(events).toEqual(['digest 4', 'digest 4', 'digest 1', 'end 10,26,9']);
  });
  it('takes a read of exactly one whole piece as that piece, without a copy', async () => {
    const whole = [new Uint8Array([1, 2, 3, 4]), new Uint8Array([5, 6, 7, 8])];
    const parts = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of whole) c.enqueue(p);
        c.enqueue(new Uint8Array([9, 10, 11, 12, 13]).subarray(0, 2)); // a view: copied
        c.close();
      },
    }).getReader();
    const r = piecesOf(parts, 4, 10, hooks());
    expect((await r.read())?.bytes).toBe(whole[0]);
    expect((await r.read())?.bytes).toBe(whole[1]);
    const last = await r.read();
    expect(last && [...last.bytes]).toEqual([9, 10]);
    expect(await r.read()).toBeNull();
  });
  it('fails when the stream is shorter or longer than declared', async () => {
    await expect(readAll(piecesOf(streamOf([[1, 2]]), 4, 3, hooks()))).rejects.toThrow(/before/);
    await expect(readAll(piecesOf(streamOf([[1, 2, 3, 4]]), 4, 3, hooks()))).rejects.toThrow(
      /longer/,
    );
    await expect(readAll(piecesOf(streamOf([[1, 2], [3]]), 2, 2, hooks()))).rejects.toThrow(
      /longer/,
    );
  });
});

/** A byte stream (as a fetch body is) that answers each read with at most `most` bytes. */
function byteStream(parts: number[][], most = Infinity) {
  const queue = parts.map((p) => new Uint8Array(p));
  const fresh: ArrayBufferLike[] = [];
  const stream = new ReadableStream(
    {
      type: 'bytes',
      pull(c) {
        const next = queue[0];
        if (!next) {
          c.close();
          c.byobRequest?.respond(0);
          return;
        }
        const req = c.byobRequest;
        if (!req?.view) {
          const chunk = next.slice();
          fresh.push(chunk.buffer);
          queue.shift();
          c.enqueue(chunk);
          return;
        }
        const view = new Uint8Array(req.view.buffer, req.view.byteOffset, req.view.byteLength);
        const n = Math.min(view.length, next.length, most);
        view.set(next.subarray(0, n));
        if (n < next.length) queue[0] = next.subarray(n);
        else queue.shift();
        req.respond(n);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream: stream as ReadableStream<Uint8Array>, fresh };
}

describe('piecesOf, read in place', () => {
  it("reads a byte stream into each piece's own buffer, with no buffer of the stream's", async () => {
    const { stream, fresh } = byteStream([[1, 2, 3], [4], [5, 6, 7, 8, 9]], 2);
    const reader = readerOf(stream);
    expect(reader).toBeInstanceOf(ReadableStreamBYOBReader);
    const events: string[] = [];
    const r = piecesOf(reader, 4, 9, hooks(events));
    expect(await readAll(r)).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
    expect(events).toEqual(['digest 4', 'digest 4', 'digest 1', 'end 10,26,9']);
    expect(fresh).toEqual([]);
  });
  it('fails when a byte stream is shorter or longer than declared', async () => {
    const short = byteStream([[1, 2]]).stream;
    await expect(readAll(piecesOf(readerOf(short), 4, 3, hooks()))).rejects.toThrow(/before/);
    const long = byteStream([[1, 2, 3, 4]]).stream;
    await expect(readAll(piecesOf(readerOf(long), 4, 3, hooks()))).rejects.toThrow(/longer/);
    const exact = byteStream([[1, 2], [3]]).stream;
    expect(await readAll(piecesOf(readerOf(exact), 2, 3, hooks()))).toEqual([[1, 2], [3]]);
  });
  it('falls back to a default reader on a stream that is not a byte stream', () => {
    expect(readerOf(new ReadableStream<Uint8Array>())).toBeInstanceOf(ReadableStreamDefaultReader);
  });
});

describe('piecesOf read-ahead', () => {
  it('reads the next piece while the current one is out, and no further', async () => {
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          pulled += 1;
          c.enqueue(new Uint8Array([pulled, pulled]));
          if (pulled === 3) c.close();
        },
      },
      { highWaterMark: 0 },
    ).getReader();
    const r = piecesOf(source, 2, 6, hooks());
    const first = await r.read();
    expect(first && [...first.bytes]).toEqual([1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pulled).toBe(2); // the second piece is ready before it is asked for; not the third
    expect(await readAll(r)).toEqual([
      [2, 2],
      [3, 3],
    ]);
  });
});

describe('pieceSource', () => {
  it('serves slices from the current piece without copying, again after a retry, then ends', async () => {
    const source = pieceSource(piecesOf(streamOf([[1, 2, 3, 4, 5, 6, 7]]), 4, 7, hooks()), 7);
    expect(source.size).toBe(7);
    const first = await source.slice(0, 4);
    expect([...(first.value ?? [])]).toEqual([1, 2, 3, 4]);
    expect(first.done).toBe(false);
    // A PATCH that broke after 2 bytes resumes inside the same piece.
    const retry = await source.slice(2, 6);
    expect([...(retry.value ?? [])]).toEqual([3, 4]);
    expect(retry.value?.buffer).toBe(first.value?.buffer); // a view, not a copy
    expect([...((await source.slice(4, 8)).value ?? [])]).toEqual([5, 6, 7]);
    expect(await source.slice(7, 11)).toEqual({ value: null, done: true });
    await expect(source.slice(0, 4)).rejects.toThrow(/before the current piece/);
  });

  it("gives a piece's digest only for a body that is exactly that piece", async () => {
    const source = pieceSource(piecesOf(streamOf([[1, 2, 3, 4, 5, 6, 7]]), 4, 7, hooks()), 7);
    await source.slice(0, 4);
    expect([...(source.digestOf(0, 4) ?? [])]).toEqual([10]);
    expect(source.digestOf(2, 6)).toBeNull(); // a resumed PATCH inside the piece
    await source.slice(4, 8);
    expect([...(source.digestOf(4, 8) ?? [])]).toEqual([18]); // the shorter last piece
  });
});

describe('sealedPiecesOf', () => {
  /** Blob pieces with stand-in digests (their first byte), as the crypto Worker hands them. */
  const sealedOf = (parts: number[][]) =>
    new ReadableStream<{ blob: Blob; digest: Uint8Array }>({
      start(c) {
        for (const p of parts)
          c.enqueue({ blob: new Blob([new Uint8Array(p)]), digest: Uint8Array.of(p[0] ?? 0) });
        c.close();
      },
    }).getReader();
  const bytesOf = async (blob: Blob | undefined) => [...new Uint8Array(await blob!.arrayBuffer())];

  it('hands over the Blobs as they are, with their digests, and calls onEnd before the last', async () => {
    const events: string[] = [];
    const onEnd = (digests: Uint8Array[]) => {
      events.push(`end ${digests.map((d) => d[0]).join(',')}`);
      return Promise.resolve();
    };
    const r = sealedPiecesOf(sealedOf([[1, 2], [3, 4], [5]]), 2, 5, onEnd);
    const first = await r.read();
    expect(first?.bytes).toBeInstanceOf(Blob);
    expect(await bytesOf(first?.bytes)).toEqual([1, 2]);
    expect([...(first?.digest ?? [])]).toEqual([1]);
    expect(events).toEqual([]);
    await r.read();
    const last = await r.read();
    expect(events).toEqual(['end 1,3,5']);
    expect(await bytesOf(last?.bytes)).toEqual([5]);
    expect(await r.read()).toBeNull();
  });

  it('fails pieces of another size than declared, and a stream longer than the total', async () => {
    const none = () => Promise.resolve();
    const short = sealedPiecesOf(sealedOf([[1], [2, 3]]), 2, 3, none);
    await expect(short.read()).rejects.toThrow(/ended before/);
    const long = sealedPiecesOf(
      sealedOf([
        [1, 2],
        [3, 4],
      ]),
      2,
      2,
      none,
    );
    await expect(long.read()).rejects.toThrow(/longer/);
    const ended = sealedPiecesOf(sealedOf([[1, 2]]), 2, 4, none);
    await ended.read();
    await expect(ended.read()).rejects.toThrow(/ended before/);
  });

  it('is served by pieceSource as Blob slices, with the digest of a whole piece', async () => {
    const source = pieceSource(
      sealedPiecesOf(sealedOf([[1, 2, 3], [4]]), 3, 4, () => Promise.resolve()),
      4,
    );
    const first = await source.slice(0, 3);
    expect(first.value).toBeInstanceOf(Blob);
    expect(await bytesOf(first.value as Blob)).toEqual([1, 2, 3]);
    expect([...(source.digestOf(0, 3) ?? [])]).toEqual([1]);
    expect(await bytesOf((await source.slice(1, 4)).value as Blob)).toEqual([2, 3]); // a retry
    expect(await bytesOf((await source.slice(3, 6)).value as Blob)).toEqual([4]);
    expect(await source.slice(4, 7)).toEqual({ value: null, done: true });
  });
});
