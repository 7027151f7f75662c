import { describe, expect, it } from 'vitest';
import { pieceSource, piecesOf } from './pieces.ts';

const streamOf = (parts: number[][]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new Uint8Array(p));
      c.close();
    },
  }).getReader();

const bytesOf = async (blob: Blob | null | undefined) =>
  blob ? [...new Uint8Array(await blob.arrayBuffer())] : null;

async function readAll(r: ReturnType<typeof piecesOf>) {
  const out: (number[] | null)[] = [];
  for (;;) {
    const x = await r.read();
    if (x.done) return out;
    out.push(await bytesOf(x.value));
  }
}

describe('piecesOf', () => {
  it('re-cuts reads into exact pieces and calls onEnd before the last one', async () => {
    const events: string[] = [];
    const r = piecesOf(
      streamOf([[1, 2, 3], [4], [5, 6, 7, 8, 9]]),
      4,
      9,
      () => {
        events.push('end');
        return Promise.resolve();
      },
      1,
    );
    const first = await r.read();
    expect(first.done ? null : await bytesOf(first.value)).toEqual([1, 2, 3, 4]);
    expect(events).toEqual([]);
    expect(await readAll(r)).toEqual([[5, 6, 7, 8], [9]]);
    expect(events).toEqual(['end']);
  });
  it('fails when the stream is shorter or longer than declared', async () => {
    const ok = () => Promise.resolve();
    await expect(readAll(piecesOf(streamOf([[1, 2]]), 4, 3, ok))).rejects.toThrow(/before/);
    await expect(readAll(piecesOf(streamOf([[1, 2, 3, 4]]), 4, 3, ok))).rejects.toThrow(/longer/);
    await expect(readAll(piecesOf(streamOf([[1, 2], [3]]), 2, 2, ok))).rejects.toThrow(/longer/);
  });
});

describe('piecesOf read-ahead', () => {
  it('reads the next pieces while the current one is out, and no further', async () => {
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          pulled += 1;
          c.enqueue(new Uint8Array([pulled, pulled]));
          if (pulled === 4) c.close();
        },
      },
      { highWaterMark: 0 },
    ).getReader();
    const r = piecesOf(source, 2, 8, () => Promise.resolve());
    const first = await r.read();
    expect(first.done ? null : await bytesOf(first.value)).toEqual([1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pulled).toBe(3); // two pieces are ready before they are asked for; not the fourth
    expect(await readAll(r)).toEqual([
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });
});

describe('pieceSource', () => {
  it('serves Blob slices of the current piece, again after a retry, then ends', async () => {
    const source = pieceSource(
      piecesOf(streamOf([[1, 2, 3, 4, 5, 6, 7]]), 4, 7, () => Promise.resolve()),
      7,
    );
    expect(source.size).toBe(7);
    const first = await source.slice(0, 4);
    expect(first.value).toBeInstanceOf(Blob); // XMLHttpRequest sends a Blob without a copy
    expect(await bytesOf(first.value)).toEqual([1, 2, 3, 4]);
    expect(first.done).toBe(false);
    // A PATCH that broke after 2 bytes resumes inside the same piece.
    const retry = await source.slice(2, 6);
    expect(await bytesOf(retry.value)).toEqual([3, 4]);
    expect(await bytesOf((await source.slice(4, 8)).value)).toEqual([5, 6, 7]);
    expect(await source.slice(7, 11)).toEqual({ value: null, done: true });
    await expect(source.slice(0, 4)).rejects.toThrow(/before the current piece/);
  });
});
