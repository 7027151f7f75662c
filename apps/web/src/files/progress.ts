// Progress of a byte stream: what long downloads show while they decrypt to disk.

/**
 * A pass-through TransformStream that reports the whole percent of `total` bytes gone by, once
 * per change (not once per chunk), and 100 when the stream ends.
 */
export function countingStream(
  total: number,
  onPercent: (percent: number) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  let last = -1;
  const report = (percent: number) => {
    if (percent !== last) {
      last = percent;
      onPercent(percent);
    }
  };
  return new TransformStream({
    start: () => report(0),
    transform(chunk, controller) {
      seen += chunk.byteLength;
      report(total > 0 ? Math.min(100, Math.floor((seen / total) * 100)) : 0);
      controller.enqueue(chunk);
    },
    flush: () => report(100),
  });
}
