// Files read and sealed inside the crypto Worker (issue 31, "uploads off the page thread").
//
// [Note: files read in the Worker] The page hands the crypto Worker the File itself (a Blob
// crosses postMessage as a handle, not its bytes). The Worker reads it, pads it with zeros to
// the padded size (vault-format.md "File-size padding"), seals its chunks and hands the page
// the ciphertext, about 1 MiB per message (batches.ts). The page no longer reads the file nor
// posts each 256 KiB chunk to the Worker and back, which made it the busiest thread of an
// upload while the Worker waited (bench/RESULTS.md, "Upload and download"). One Worker reads
// and seals the whole file: its chunks are not dealt over the pool. The storage provider on
// the page still cuts, hashes and sends the ciphertext as before.
import { toReadable, sealChunks } from './stream.ts';
import { batchJobs } from './batches.ts';
import { CryptoError } from './errors.ts';
import type { CryptoService } from './service.ts';
import type { FileId, JobId, SessionId } from './ids.ts';
import type { Bytes } from './primitives.ts';
import type { EncryptJob } from './jobs.ts';

/** Chunks being sealed at once in the reading Worker. */
const CONCURRENCY = 4;
/** Zeros are handed to the sealer in pieces of at most this many bytes. */
const ZEROS = 2 ** 20;
export const FILE_CHANGED = 'The file changed while it was being read.';

export interface SealedFiles {
  /**
   * Begins a new version (fresh FK) of `fileId` from `file`, zero-padded to `paddedSize` bytes
   * before it is sealed: the header and encFK at once, the sealed chunks from readSealed.
   */
  beginSealFile(
    session: SessionId,
    fileId: FileId,
    file: Blob,
    paddedSize: number,
  ): Promise<EncryptJob>;
  /**
   * The next sealed chunks, in order, about 1 MiB of them; empty once the last was sealed (the
   * job is then over). INVALID_INPUT with FILE_CHANGED if the file's size changed on the way.
   */
  readSealed(job: JobId): Promise<Bytes[]>;
  /** Stops a file being sealed early: its reading stops and its job ends. */
  endSealed(job: JobId): Promise<void>;
}

type Sealing = Pick<CryptoService, 'beginEncrypt' | 'sealChunk' | 'endJob'>;

/** The file's bytes, then zeros up to `padded`; INVALID_INPUT if it is not `file.size` long. */
function paddedSource(file: Blob, padded: number): ReadableStream<Uint8Array> {
  const size = file.size;
  const reader = file.stream().getReader();
  async function* all() {
    let seen = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value.length;
        yield value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    if (seen !== size) throw new CryptoError('INVALID_INPUT', FILE_CHANGED);
    for (let left = padded - size; left > 0; left -= ZEROS)
      yield new Uint8Array(Math.min(left, ZEROS));
  }
  return toReadable(all());
}

export function sealedFiles(files: Sealing): SealedFiles {
  const jobs = batchJobs();
  return {
    async beginSealFile(session, fileId, file, paddedSize) {
      if (!(file instanceof Blob) || !Number.isSafeInteger(paddedSize) || paddedSize < file.size)
        throw new CryptoError('INVALID_INPUT');
      const begun = await files.beginEncrypt(session, fileId, 1);
      const source = paddedSource(file, paddedSize);
      const sealer = {
        seal: (index: number, plain: Bytes, final: boolean) =>
          files.sealChunk(begun.job, index, plain, final),
      };
      const chunks = sealChunks(source, sealer, CONCURRENCY);
      const stop = async () => {
        await chunks.return(undefined).catch(() => undefined);
        await files.endJob(begun.job).catch(() => undefined);
      };
      jobs.add(begun.job, chunks, stop);
      return begun;
    },
    // A file that could not be read (moved, its permission gone) is not a crypto failure.
    readSealed: (job) =>
      jobs.read(job, new CryptoError('INVALID_INPUT', 'The file could not be read.')),
    endSealed: (job) => jobs.end(job),
  };
}
