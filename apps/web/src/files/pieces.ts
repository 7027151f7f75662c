// Re-cuts a byte stream into pieces of exactly `size` bytes (the last one shorter) for tus, so
// tus-js-client never has to concatenate small reads. When the last piece is complete, the end
// of the stream is read and `onEnd` awaited before the piece is handed over: for an encryption
// that is when the ciphertext's checksum becomes known, before the completing PATCH is sent.
// One piece is read ahead: the next piece is encrypted while the current one is being sent, so
// encryption and upload overlap (memory: one more piece).

export interface PieceReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

export function piecesOf(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  size: number,
  total: number,
  onEnd: () => Promise<void>,
): PieceReader {
  let produced = 0;
  let carry: Uint8Array | null = null;
  type Result = ReadableStreamReadResult<Uint8Array>;
  let ahead: Promise<Result> | null = null;

  async function readPiece(): Promise<Result> {
    if (produced >= total) return { done: true, value: undefined };
    const want = Math.min(size, total - produced);
    const out = new Uint8Array(want);
    let filled = 0;
    while (filled < want) {
      let chunk = carry;
      carry = null;
      if (!chunk) {
        const next = await reader.read();
        if (next.done) throw new Error('The stream ended before its declared length');
        chunk = next.value;
      }
      const take = Math.min(chunk.length, want - filled);
      out.set(chunk.subarray(0, take), filled);
      filled += take;
      if (take < chunk.length) carry = chunk.subarray(take);
    }
    produced += want;
    if (produced === total) {
      if (carry?.length || !(await reader.read()).done) {
        throw new Error('The stream is longer than its declared length');
      }
      await onEnd();
    }
    return { done: false, value: out };
  }

  return {
    async read() {
      const current = ahead ?? readPiece();
      ahead = null;
      const result = await current;
      if (!result.done && produced < total) {
        ahead = readPiece();
        ahead.catch(() => undefined); // surfaces on the next read
      }
      return result;
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
