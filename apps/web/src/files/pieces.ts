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

/** What tus-js-client reads an upload from (its FileSource; tus-js-client declares no export). */
export interface SliceSource {
  size: number;
  slice(start: number, end: number): Promise<{ value: Uint8Array | null; done: boolean }>;
  close(): void;
}

/**
 * Serves tus-js-client's slices straight from the pieces, without the copies its own stream
 * source makes (it concatenates every read into one buffer and slices it twice). The current
 * piece is kept until a slice past it is asked for, so a retried PATCH that resumes inside it
 * (after a dropped connection) is served again without rereading the stream.
 */
export function pieceSource(pieces: PieceReader, total: number): SliceSource {
  let piece: Uint8Array | null = null;
  let pieceStart = 0;
  let ended = false;
  return {
    size: total,
    async slice(start, end) {
      if (start < pieceStart) throw new Error('Requested data is before the current piece');
      while (!ended && (piece === null || start >= pieceStart + piece.length)) {
        if (piece) pieceStart += piece.length;
        const next = await pieces.read();
        if (next.done) {
          ended = true;
          piece = null;
        } else piece = next.value;
      }
      if (!piece) return { value: null, done: true };
      const from = start - pieceStart;
      return { value: piece.subarray(from, Math.min(end - pieceStart, piece.length)), done: false };
    },
    close: () => void pieces.cancel(),
  };
}
