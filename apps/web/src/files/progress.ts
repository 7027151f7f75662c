// Progress of a byte stream: what long downloads show while they decrypt to disk.

/**
 * Reports the whole percent of `total` bytes that `bytes` is, once per change: 0 at once, 100 at
 * `done()`.
 */
export function percentReporter(total: number, onPercent: (percent: number) => void) {
  let last = -1;
  const report = (percent: number) => {
    if (percent !== last) {
      last = percent;
      onPercent(percent);
    }
  };
  report(0);
  return {
    bytes: (seen: number) =>
      report(total > 0 ? Math.min(100, Math.floor((seen / total) * 100)) : 0),
    done: () => report(100),
  };
}

/**
 * A pass-through TransformStream that reports the whole percent of `total` bytes gone by, once
 * per change (not once per chunk), and 100 when the stream ends.
 */
export function countingStream(
  total: number,
  onPercent: (percent: number) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  let reporter: ReturnType<typeof percentReporter> | null = null;
  return new TransformStream({
    start: () => {
      reporter = percentReporter(total, onPercent);
    },
    transform(chunk, controller) {
      seen += chunk.byteLength;
      reporter?.bytes(seen);
      controller.enqueue(chunk);
    },
    flush: () => reporter?.done(),
  });
}
