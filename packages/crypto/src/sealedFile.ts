// Files read and sealed inside the crypto Worker (issue 31, "uploads off the page thread").
//
// [Note: files read in the Worker] The page hands the crypto Worker the File itself (a Blob
// crosses postMessage as a handle, not its bytes). The Worker reads it, pads it with zeros to
// the padded size (vault-format.md "File-size padding"), seals its chunks and hands the page
// the ciphertext already cut into the pieces the storage sends (4 MiB, the content hash's
// blocks), one piece per message (batches.ts): the page's piece reader takes them as they are. The page no longer reads the file nor
// posts each 256 KiB chunk to the Worker and back, which made it the busiest thread of an
// upload while the Worker waited (bench/RESULTS.md, "Upload and download"). One Worker reads
// and seals the whole file: its chunks are not dealt over the pool.
//
// [Note: sealed pieces as Blobs] For our server's uploads (storage/server/tus.ts) the Worker
// also digests each piece (the tus checksum of its PATCH) and hands it over as a Blob made here
// (beginSealPieces): the page sends that Blob as the request's body and never touches the
// bytes. XMLHttpRequest copies an ArrayBuffer body on the page's thread (the largest cost left on
// it), while a Blob body is read by the browser's network code itself, about twice as fast
// (bench/RESULTS.md, "Speed II: uploads and downloads"). The Blob is made from the piece's
// buffer, which is then used for the next piece. Other providers take the bytes as before.
import { sealChunks } from './stream.ts';
import { batchJobs } from './batches.ts';
import { CryptoError } from './errors.ts';
import { blockDigest } from './contentHash.ts';
import type { CryptoService } from './service.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';
import type { EncryptJob } from './jobs.ts';

/** Chunks being sealed at once in the reading Worker. */
const CONCURRENCY = 4;
/** The padding's zeros are one buffer of at most this many bytes, repeated. */
const ZEROS = 2 ** 20;
export const UNREADABLE = 'The file could not be read.';

export interface SealedFiles {
  /**
   * Begins a new version (fresh FK) of `fileId` from `file`, zero-padded to `paddedSize` bytes
   * before it is sealed: encFK at once, the ciphertext (header first) from readSealed, cut into
   * pieces of `pieceBytes`.
   */
  beginSealFile(
    session: SessionId,
    fileId: FileId,
    file: Blob,
    paddedSize: number,
    pieceBytes: number,
  ): Promise<EncryptJob>;
  /**
   * The next piece of the ciphertext (all of it `pieceBytes` long but the last), in a batch of
   * about 1 MiB; empty once the last was read (the job is then over). INVALID_INPUT with
   * UNREADABLE if the file could not be read (it changed or went away on the way).
   */
  readSealed(job: JobId): Promise<Bytes[]>;
  /**
   * The same as beginSealFile, but the ciphertext comes from readSealedPieces, each piece a Blob
   * with its SHA-256 ([Note: sealed pieces as Blobs]).
   */
  beginSealPieces: SealedFiles['beginSealFile'];
  /** The next pieces of a beginSealPieces job, one at a time; empty once the last was read. */
  readSealedPieces(job: JobId): Promise<SealedPiece[]>;
  /** Stops a file being sealed early (either kind): its reading stops and its job ends. */
  endSealed(job: JobId): Promise<void>;
}

/** A piece of ciphertext made into a Blob where it was sealed, with its SHA-256. */
export interface SealedPiece {
  blob: Blob;
  digest: Bytes;
}

type Sealing = Pick<CryptoService, 'beginEncrypt' | 'sealChunk' | 'endJob'>;

/**
 * The file's bytes then zeros up to `padded`, as one Blob of the file and a zero buffer repeated
 * (no copy of either): its stream is a byte stream, which the sealer reads in place. A file that
 * changes after this was made fails to read (the browser checks), rather than giving other bytes.
 */
function paddedBlob(file: Blob, padded: number): Blob {
  const pad = padded - file.size;
  if (pad === 0) return file;
  const zeros = new Blob([new Uint8Array(Math.min(pad, ZEROS))]);
  const parts: Blob[] = [file];
  for (let left = pad; left > 0; left -= ZEROS)
    parts.push(left >= ZEROS ? zeros : zeros.slice(0, left));
  return new Blob(parts);
}

/**
 * The ciphertext, header first, re-cut into pieces of exactly `size` bytes (the last shorter).
 * `reuse`: each piece's buffer is filled again for the next one once the consumer asks for it
 * (it must be done with the last by then).
 */
async function* piecesOf(
  header: Bytes,
  chunks: AsyncGenerator<Bytes, void, undefined>,
  size: number,
  reuse = false,
): AsyncGenerator<Bytes, void, undefined> {
  let piece = new Uint8Array(size);
  let used = 0;
  const add = function* (bytes: Bytes) {
    for (let at = 0; at < bytes.length;) {
      const n = Math.min(bytes.length - at, size - used);
      piece.set(bytes.subarray(at, at + n), used);
      used += n;
      at += n;
      if (used === size) {
        yield piece;
        if (!reuse) piece = new Uint8Array(size);
        used = 0;
      }
    }
  };
  try {
    yield* add(header);
    for await (const chunk of chunks) yield* add(chunk);
    if (used > 0) yield reuse ? piece.subarray(0, used) : piece.slice(0, used);
  } finally {
    await chunks.return(undefined);
  }
}

/** Each piece made into a Blob (a copy), with its digest; the piece's buffer is free after. */
async function* asBlobs(pieces: AsyncGenerator<Bytes, void, undefined>) {
  for await (const piece of pieces) {
    const blob = new Blob([piece]);
    yield { blob, digest: await blockDigest(piece) } satisfies SealedPiece;
  }
}

export function sealedFiles(files: Sealing): SealedFiles {
  const jobs = batchJobs();
  const blobJobs = batchJobs<SealedPiece>((p) => p.blob.size);

  /**
   * Starts sealing `file`: its job, and the pieces of its ciphertext as they are read (`reuse`:
   * into one buffer, see piecesOf).
   */
  async function begin(
    reuse: boolean,
    ...[session, fileId, file, paddedSize, pieceBytes]: Parameters<SealedFiles['beginSealFile']>
  ) {
    const sizes = [paddedSize, pieceBytes].every(Number.isSafeInteger);
    if (!(file instanceof Blob) || !sizes || paddedSize < file.size || pieceBytes < 1)
      throw new CryptoError('INVALID_INPUT');
    const begun = await files.beginEncrypt(session, fileId, 1);
    const source = paddedBlob(file, paddedSize).stream();
    const sealer = {
      seal: (index: number, plain: Bytes, final: boolean) =>
        files.sealChunk(begun.job, index, plain, final),
    };
    const sealed = sealChunks(source, sealer, CONCURRENCY);
    const pieces = piecesOf(begun.header, sealed, pieceBytes, reuse);
    const stop = async () => {
      await pieces.return(undefined).catch(() => undefined);
      await files.endJob(begun.job).catch(() => undefined);
    };
    return { begun, pieces, stop };
  }

  // A file that could not be read (moved, its permission gone) is not a crypto failure.
  const unreadable = () => new CryptoError('INVALID_INPUT', UNREADABLE);
  return {
    async beginSealFile(...args) {
      const { begun, pieces, stop } = await begin(false, ...args);
      jobs.add(begun.job, pieces, stop);
      return begun;
    },
    readSealed: (job) => jobs.read(job, unreadable()),
    async beginSealPieces(...args) {
      const { begun, pieces, stop } = await begin(true, ...args);
      blobJobs.add(begun.job, asBlobs(pieces), stop);
      return begun;
    },
    readSealedPieces: (job) => blobJobs.read(job, unreadable()),
    endSealed: async (job) => {
      await Promise.all([jobs.end(job), blobJobs.end(job)]);
    },
  };
}
