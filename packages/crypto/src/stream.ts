// Streaming over any chunk sealer/opener (vault-format.md §2, §4): re-cuts a byte stream into
// vf1 chunks, keeps a few chunks in flight and hands results on strictly in order. Memory is
// bounded by (in-flight + 2) chunks whatever the file size. Keys never come here: the sealer and
// opener may be local functions or calls into the crypto Worker.
import { CryptoError } from './errors.ts';
import { CHUNK_BYTES, SEALED_CHUNK_BYTES } from './chunk.ts';
import type { Bytes } from './primitives.ts';
import type { ChunkResult } from './jobs.ts';

export interface ChunkSealer {
  /**
   * Seals chunk `index` (full-size unless `final`). May take ownership of `plain`; its buffer
   * comes back as `spare`, and the next chunks are read into it (no allocation per chunk).
   */
  seal(index: number, plain: Bytes, final: boolean): Promise<ChunkResult>;
}
export interface ChunkOpener {
  /** Opens chunk `index`; resolves only with authenticated plaintext. May take `sealed`. */
  open(index: number, sealed: Bytes, final: boolean): Promise<ChunkResult>;
}

/**
 * Spare input buffers of one size, to read the next chunks into. [Note: buffer reuse] In
 * Chromium, allocating a fresh 256 KiB ArrayBuffer for every chunk halved the stream's
 * throughput (zeroing, external-memory accounting and the garbage collections it triggers);
 * WebCrypto copies its input when a call begins, so a buffer is free again once its chunk is done.
 * `max` 0 turns reuse off (ClientOptions.reuseBuffers).
 */
class Spares {
  private readonly free: ArrayBuffer[] = [];
  constructor(
    private readonly size: number,
    private readonly max: number,
  ) {}
  take(): ArrayBuffer | undefined {
    return this.free.pop();
  }
  give(bytes: Bytes): void {
    const b = bytes.buffer;
    if (bytes.byteOffset === 0 && b.byteLength === this.size && this.free.length < this.max) {
      this.free.push(b);
    }
  }
}

/**
 * Reads exact byte counts from a stream; each result is a fresh buffer it no longer touches.
 * A byte stream (a File's or a fetch body's) is read with a BYOB reader straight into the
 * result, with no intermediate pieces to allocate and copy; any other stream through a default
 * reader, re-cutting its chunks.
 */
export class ByteReader {
  private readonly byob: ReadableStreamBYOBReader | null;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null;
  private head: Uint8Array = new Uint8Array(0);
  private done = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    let byob: ReadableStreamBYOBReader | null = null;
    try {
      byob = stream.getReader({ mode: 'byob' });
    } catch {
      // not a byte stream
    }
    this.byob = byob;
    this.reader = byob ? null : stream.getReader();
  }

  /**
   * `n` bytes, or fewer only when the stream ended. With `into` (a spare buffer of at least `n`
   * bytes, no longer used by anyone), the bytes are read into it instead of a new buffer.
   */
  async read(n: number, into?: ArrayBuffer): Promise<Bytes> {
    const own = into && into.byteLength >= n ? into : new ArrayBuffer(n);
    if (this.byob) return this.readInto(this.byob, n, own);
    const reader = this.reader!;
    const out = new Uint8Array(own, 0, n);
    let have = 0;
    while (have < n) {
      if (this.head.length === 0) {
        if (this.done) break;
        const r = await reader.read();
        if (r.done) {
          this.done = true;
          break;
        }
        this.head = r.value;
        continue;
      }
      const take = Math.min(n - have, this.head.length);
      out.set(this.head.subarray(0, take), have);
      this.head = this.head.subarray(take);
      have += take;
    }
    return have === n && own.byteLength === n ? out : out.slice(0, have);
  }

  private async readInto(byob: ReadableStreamBYOBReader, n: number, own: ArrayBuffer) {
    let buffer = own;
    let have = 0;
    while (have < n && !this.done) {
      // Each read takes the buffer and hands it back (transferred) with the bytes filled in.
      const r = await byob.read(new Uint8Array(buffer, have, n - have));
      if (r.value) {
        buffer = r.value.buffer;
        have += r.value.byteLength;
      }
      if (r.done) this.done = true;
    }
    return have === n && buffer.byteLength === n
      ? new Uint8Array(buffer)
      : new Uint8Array(buffer, 0, have).slice();
  }

  /** Stops reading and cancels the source (after an error or an early stop). */
  async cancel(reason?: unknown): Promise<void> {
    if (!this.done) {
      this.done = true;
      await (this.byob ?? this.reader)!.cancel(reason).catch(() => undefined);
    }
  }
}

/**
 * A FIFO of in-flight results; rejections are observed at once so none goes unhandled. Each
 * result's spare input buffer goes back to `spares` when it is taken out.
 */
class InFlight {
  private readonly queue: Promise<ChunkResult>[] = [];
  constructor(private readonly spares: Spares) {}
  push(p: Promise<ChunkResult>): void {
    p.catch(() => undefined);
    this.queue.push(p);
  }
  get size(): number {
    return this.queue.length;
  }
  async shift(): Promise<Bytes> {
    const p = this.queue.shift();
    if (!p) throw new CryptoError('INTERNAL');
    const { out, spare } = await p;
    this.spares.give(spare);
    return out;
  }
}

/** Plaintext stream -> sealed chunks in order (the header is the caller's). */
export async function* sealChunks(
  source: ReadableStream<Uint8Array>,
  sealer: ChunkSealer,
  concurrency: number,
  reuse = true,
): AsyncGenerator<Bytes, void, undefined> {
  const reader = new ByteReader(source);
  const spares = new Spares(CHUNK_BYTES, reuse ? concurrency + 2 : 0);
  const inFlight = new InFlight(spares);
  try {
    let current = await reader.read(CHUNK_BYTES);
    for (let index = 0; ; index++) {
      // One chunk of look-ahead: a full chunk is final only if nothing follows it.
      const next =
        current.length === CHUNK_BYTES ? await reader.read(CHUNK_BYTES, spares.take()) : undefined;
      const final = next === undefined || next.length === 0;
      inFlight.push(sealer.seal(index, current, final));
      if (final || next === undefined) break;
      current = next;
      while (inFlight.size >= concurrency) yield await inFlight.shift();
    }
    while (inFlight.size > 0) yield await inFlight.shift();
  } finally {
    await reader.cancel();
  }
}

/**
 * Sealed chunks (after the header) -> plaintext in order; cancels `reader` when done. With `range`, reads exactly the chunks
 * a RangePlan names; without, reads to the end and treats the last chunk as final. A stream that
 * ends early, or has bytes past the final chunk, fails with DECRYPT_FAILED.
 */
export async function* openChunks(
  reader: ByteReader,
  opener: ChunkOpener,
  concurrency: number,
  range?: { firstChunk: number; chunkCount: number; finalChunk: number },
  reuse = true,
): AsyncGenerator<Bytes, void, undefined> {
  const spares = new Spares(SEALED_CHUNK_BYTES, reuse ? concurrency + 2 : 0);
  const inFlight = new InFlight(spares);
  try {
    const first = range?.firstChunk ?? 0;
    const last = range ? first + range.chunkCount - 1 : Infinity;
    let current =
      range?.chunkCount === 0 ? new Uint8Array(0) : await reader.read(SEALED_CHUNK_BYTES);
    for (let index = first; index <= last; index++) {
      if (current.length === 0) throw new CryptoError('DECRYPT_FAILED');
      const full = current.length === SEALED_CHUNK_BYTES;
      const next =
        full && index < last ? await reader.read(SEALED_CHUNK_BYTES, spares.take()) : undefined;
      const final = range ? index === range.finalChunk : next === undefined || next.length === 0;
      inFlight.push(opener.open(index, current, final));
      if (next === undefined || next.length === 0) {
        if (index !== last && range) throw new CryptoError('DECRYPT_FAILED');
        break;
      }
      current = next;
      while (inFlight.size >= concurrency) yield await inFlight.shift();
    }
    const extra = await reader.read(1);
    if (extra.length > 0) throw new CryptoError('DECRYPT_FAILED');
    while (inFlight.size > 0) yield await inFlight.shift();
  } finally {
    await reader.cancel();
  }
}

/** Keeps bytes [skip, skip + length) of a chunk sequence. */
export async function* trim(
  chunks: AsyncIterable<Bytes>,
  skip: number,
  length: number,
): AsyncGenerator<Bytes, void, undefined> {
  let toSkip = skip;
  let left = length;
  for await (const c of chunks) {
    const from = Math.min(toSkip, c.length);
    toSkip -= from;
    const part = c.subarray(from, from + Math.min(left, c.length - from));
    left -= part.length;
    if (part.length > 0) yield part;
  }
}

/** An async generator as a pull-driven ReadableStream (cancel stops the generator). */
export function toReadable<T = Uint8Array>(gen: AsyncGenerator<T, void, undefined>) {
  return new ReadableStream<T>(
    {
      async pull(controller) {
        const r = await gen.next();
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      },
      async cancel() {
        await gen.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
