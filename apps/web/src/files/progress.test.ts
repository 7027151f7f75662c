import { expect, it } from 'vitest';
import { countingStream } from './progress.ts';

async function run(total: number, pieces: number[]) {
  const percents: number[] = [];
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const n of pieces) c.enqueue(new Uint8Array(n).fill(n % 251));
      c.close();
    },
  });
  const out: Uint8Array[] = [];
  const reader = source.pipeThrough(countingStream(total, (p) => percents.push(p))).getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    out.push(r.value);
  }
  return { percents, out };
}

it('reports each whole percent once, in order, and 100 at the end; bytes pass unchanged', async () => {
  const { percents, out } = await run(1000, [5, 5, 90, 400, 490, 10]);
  expect(percents).toEqual([0, 1, 10, 50, 99, 100]);
  expect(out.map((c) => c.length)).toEqual([5, 5, 90, 400, 490, 10]);
  expect(out[3]![0]).toBe(400 % 251);
});

it('an empty file reports 0 then 100', async () => {
  expect((await run(0, [])).percents).toEqual([0, 100]);
});
