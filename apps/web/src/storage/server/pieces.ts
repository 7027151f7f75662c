// Re-cuts a byte stream into pieces of exactly `size` bytes (the last one shorter) for tus, so
// tus-js-client never has to concatenate small reads, and digests each piece as it is made: the
// upload sends one 4 MiB block of the content hash per PATCH, with the piece's digest as its tus
// checksum ([Note: content hash] in packages/protocol/src/files.ts). When the last piece is
// complete, the end of the stream is read and `onEnd` awaited with every digest before the piece
// is handed over: the content hash is then known before the completing PATCH is sent.
// One piece is read ahead: the next piece is encrypted and digested while the current one is
// being sent, so encryption, hashing and upload overlap (memory: one more piece).
//
// [Note: pieces read in place] Given a BYOB reader (readerOf, on a byte stream such as a fetch
// body: a move's source), a piece is read straight into its own buffer. A default reader hands
// over a fresh buffer per read (up to 2 MiB each for a fetch body), which Chromium's collector
// reclaims late: a GiB read that way grew the browser by 200-370 MiB, read in place by 64-78 MiB
// (bench/RESULTS.md, "Move a vault").

/** A piece's bytes, or (B = Blob) a Blob of them made in a crypto Worker ([Note: sealed pieces as Blobs]). */
export interface Piece<B extends Uint8Array<ArrayBuffer> | Blob = Uint8Array<ArrayBuffer>> {
  bytes: B;
  /** SHA-256 of `bytes`. */
  digest: Uint8Array<ArrayBuffer>;
}

const sizeOf = (bytes: Uint8Array | Blob) => (bytes instanceof Blob ? bytes.size : bytes.length);

export interface PieceReader<B extends Uint8Array<ArrayBuffer> | Blob = Uint8Array<ArrayBuffer>> {
  /** The next piece, or null after the last one. */
  read(): Promise<Piece<B> | null>;
  cancel(): Promise<void>;
}

export interface PieceHooks {
  /**
   * Digests one piece (SHA-256, in a crypto Worker in the app). May take the piece's buffer: the
   * piece to send is the one it hands back.
   */
  digest(piece: Uint8Array<ArrayBuffer>): Promise<Piece>;
  /** Called once with all the digests, in order, before the last piece is handed over. */
  onEnd(digests: Uint8Array<ArrayBuffer>[]): Promise<void>;
}

export type PieceSourceReader = ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;

/** A BYOB reader where the stream is a byte stream (a fetch body), else a default one. */
export function readerOf(stream: ReadableStream<Uint8Array>): PieceSourceReader {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return stream.getReader();
  }
}

const ENDED = 'The stream ended before its declared length';

/** Whether `bytes` is a whole buffer of exactly `length` bytes (so it can be a piece as it is). */
const isWhole = (bytes: Uint8Array, length: number): bytes is Uint8Array<ArrayBuffer> =>
  bytes.length === length &&
  bytes.byteOffset === 0 &&
  bytes.buffer instanceof ArrayBuffer &&
  bytes.buffer.byteLength === length;
const LONGER = 'The stream is longer than its declared length';

/**
 * A PieceReader over `readPiece`, one piece read ahead of the one handed over while `more()`
 * says pieces are left: the next is made while the current one is sent.
 */
function readingAhead<B extends Uint8Array<ArrayBuffer> | Blob>(
  readPiece: () => Promise<Piece<B> | null>,
  more: () => boolean,
  reader: { cancel(): Promise<void> },
): PieceReader<B> {
  let ahead: Promise<Piece<B> | null> | null = null;
  return {
    async read() {
      const current = ahead ?? readPiece();
      ahead = null;
      const piece = await current;
      if (piece && more()) {
        ahead = readPiece();
        ahead.catch(() => undefined); // surfaces on the next read
      }
      return piece;
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

export function piecesOf(
  reader: PieceSourceReader,
  size: number,
  total: number,
  hooks: PieceHooks,
): PieceReader {
  let produced = 0;
  let carry: Uint8Array | null = null;
  const digests: Uint8Array<ArrayBuffer>[] = [];
  const byob =
    typeof ReadableStreamBYOBReader !== 'undefined' && reader instanceof ReadableStreamBYOBReader
      ? reader
      : null;
  const copied = byob ? null : (reader as ReadableStreamDefaultReader<Uint8Array>);

  /** Reads `want` bytes into a buffer of their own ([Note: pieces read in place]). */
  async function readInPlace(from: ReadableStreamBYOBReader, want: number) {
    let buffer = new ArrayBuffer(want);
    let filled = 0;
    while (filled < want) {
      // The read transfers the buffer: what comes back is a view of it, holding what was read.
      const { done, value } = await from.read(new Uint8Array(buffer, filled, want - filled));
      if (done || !value) throw new Error(ENDED);
      buffer = value.buffer;
      filled += value.byteLength;
    }
    return new Uint8Array(buffer);
  }

  async function readCopied(
    from: ReadableStreamDefaultReader<Uint8Array>,
    want: number,
  ): Promise<Uint8Array<ArrayBuffer>> {
    if (!carry) {
      // A read of exactly one piece is that piece, not copied: the crypto Worker cuts an
      // upload's ciphertext into the content hash's blocks ([Note: files read in the Worker]).
      const next = await from.read();
      if (next.done) throw new Error(ENDED);
      if (isWhole(next.value, want)) return next.value;
      carry = next.value;
    }
    const bytes = new Uint8Array(want);
    let filled = 0;
    while (filled < want) {
      let chunk: Uint8Array | null = carry;
      carry = null;
      if (!chunk) {
        const next = await from.read();
        if (next.done) throw new Error(ENDED);
        chunk = next.value;
      }
      const take = Math.min(chunk.length, want - filled);
      bytes.set(chunk.subarray(0, take), filled);
      filled += take;
      if (take < chunk.length) carry = chunk.subarray(take);
    }
    return bytes;
  }

  /** Whether the source has nothing after the declared length. */
  async function atEnd() {
    if (carry?.length) return false;
    if (copied) return (await copied.read()).done;
    const { done, value } = await byob!.read(new Uint8Array(1));
    return done && !value?.byteLength;
  }

  async function readPiece(): Promise<Piece | null> {
    if (produced >= total) return null;
    const want = Math.min(size, total - produced);
    const bytes = byob ? await readInPlace(byob, want) : await readCopied(copied!, want);
    produced += want;
    const piece = await hooks.digest(bytes);
    digests.push(piece.digest);
    if (produced === total) {
      if (!(await atEnd())) throw new Error(LONGER);
      await hooks.onEnd(digests);
    }
    return piece;
  }

  return readingAhead(readPiece, () => produced < total, reader);
}

/**
 * [Note: Blob pieces and the collector] A Blob's bytes live in the browser process for as long as
 * any Blob object for them does, and those objects go only when this page's collector runs. The
 * collector does not see the bytes: an upload that makes few other objects would keep every piece
 * of the file (a GiB upload grew the browser process by 1.2 GiB, bench/RESULTS.md "Speed II:
 * uploads and downloads"). For each piece, the page allocates an ArrayBuffer of its size and
 * drops it: never written, it costs no memory, but the engine counts it, and collects (and with
 * it the Blobs of pieces already sent) after every few tens of MiB, as it did when the pieces were
 * ArrayBuffers themselves.
 */
let held: ArrayBuffer | null = null;
function reportHeld(bytes: number) {
  held = new ArrayBuffer(bytes);
  return held;
}

/**
 * Pieces a crypto Worker sealed whole, each a Blob with its digest ([Note: sealed pieces as
 * Blobs] in packages/crypto/src/sealedFile.ts): checked to be exactly `size` bytes each (the
 * last shorter) and `total` in all, and, as piecesOf does, `onEnd` awaited with every digest
 * before the last is handed over. One piece is read ahead.
 */
export function sealedPiecesOf(
  reader: ReadableStreamDefaultReader<{ blob: Blob; digest: Uint8Array }>,
  size: number,
  total: number,
  onEnd: PieceHooks['onEnd'],
): PieceReader<Blob> {
  let produced = 0;
  const digests: Uint8Array<ArrayBuffer>[] = [];

  async function readPiece(): Promise<Piece<Blob> | null> {
    if (produced >= total) return null;
    const want = Math.min(size, total - produced);
    const next = await reader.read();
    if (next.done) throw new Error(ENDED);
    const { blob, digest } = next.value;
    if (blob.size !== want) throw new Error(blob.size > want ? LONGER : ENDED);
    reportHeld(want);
    produced += want;
    const piece = { bytes: blob, digest: new Uint8Array(digest) };
    digests.push(piece.digest);
    if (produced === total) {
      if (!(await reader.read()).done) throw new Error(LONGER);
      await onEnd(digests);
    }
    return piece;
  }

  return readingAhead(readPiece, () => produced < total, reader);
}

/** What tus-js-client reads an upload from (its FileSource; tus-js-client declares no export). */
export interface SliceSource<B extends Uint8Array | Blob = Uint8Array | Blob> {
  size: number;
  slice(start: number, end: number): Promise<{ value: B | null; done: boolean }>;
  close(): void;
}

/**
 * Serves tus-js-client's slices straight from the pieces, without the copies its own stream
 * source makes (it concatenates every read into one buffer and slices it twice). The current
 * piece is kept until a slice past it is asked for, so a retried PATCH (after a dropped
 * connection or a refused checksum) is served again without rereading the stream.
 */
export function pieceSource<B extends Uint8Array<ArrayBuffer> | Blob>(
  pieces: PieceReader<B>,
  total: number,
): SliceSource<B> & {
  /** The digest of bytes [start, end) if they are exactly the current piece, else null. */
  digestOf(start: number, end: number): Uint8Array<ArrayBuffer> | null;
} {
  let piece: Piece<B> | null = null;
  let pieceStart = 0;
  let ended = false;
  return {
    size: total,
    async slice(start, end) {
      if (start < pieceStart) throw new Error('Requested data is before the current piece');
      while (!ended && (piece === null || start >= pieceStart + sizeOf(piece.bytes))) {
        if (piece) pieceStart += sizeOf(piece.bytes);
        piece = await pieces.read();
        if (!piece) ended = true;
      }
      if (!piece) return { value: null, done: true };
      const from = start - pieceStart;
      const { bytes } = piece;
      const to = Math.min(end - pieceStart, sizeOf(bytes));
      const value = (bytes instanceof Blob ? bytes.slice(from, to) : bytes.subarray(from, to)) as B;
      return { value, done: false };
    },
    digestOf(start, end) {
      const p = piece;
      const whole =
        p && start === pieceStart && Math.min(end, total) === pieceStart + sizeOf(p.bytes);
      return whole ? p.digest : null;
    },
    close: () => void pieces.cancel(),
  };
}
