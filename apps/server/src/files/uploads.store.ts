// The tus store of a single process: unfinished uploads as files in DATA_DIR/uploads (tus's own
// FileStore), each body hashed as it is written ([Note: running hash]), checked against the
// digest its request declared ([Note: checksum per PATCH]) and written a MiB at a time
// ([Note: body written in batches]). With several instances the uploads live in the S3 bucket
// instead (uploads.s3.ts); both offer the pipeline what UploadBytes (uploads.ts) promises.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/server';
import { CONTENT_HASH_BLOCK_BYTES, serverStorageFullMessage } from '@sealvault/protocol';
import { isDiskFull } from '../http/disk-full.ts';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import type { ContentHasher, ContentHashMark } from './content-hash.ts';
import type { SpaceReservations } from './reservations.ts';
import { CHECKSUM_MISMATCH_STATUS, texts, TusHttpError } from './uploads.errors.ts';
import { UploadHashes, type BodyCheck } from './uploads.hashes.ts';
import { UPLOAD_ID_PATTERN, type UploadBytes } from './uploads.ts';

const TUS_FILE = /^([0-9a-f]{32})(?:\.json)?$/;
const BLOCK = CONTENT_HASH_BLOCK_BYTES;
/** [Note: body written in batches]: about this many bytes of a body go to the file per writev. */
const WRITE_BATCH = 1024 * 1024;

/** `buffers` without their first `written` bytes (what a short writev left), without a copy. */
function unwritten(buffers: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (written >= buffers[i]!.length) written -= buffers[i++]!.length;
  return [buffers[i]!.subarray(written), ...buffers.slice(i + 1)];
}

/**
 * The tus file store, without creation-defer-length: a size must be declared and checked first.
 *
 * [Note: running hash] It computes the content hash while the bytes are written, so the last
 * PATCH need not read the whole file again: per upload, a ContentHasher (content-hash.ts) holds
 * the digests of the 4 MiB blocks received so far and the running SHA-256 of the unfinished one.
 * It is kept only while every byte from 0 went through successful writes in this process; after a
 * failed write, a restart or a PATCH on another instance it is dropped, and finishUpload hashes
 * the stored file instead, block by block.
 *
 * [Note: checksum per PATCH] With the tus checksum extension a request declares its body's
 * SHA-256 (Upload-Checksum). The body is all or nothing: when it does not match (corrupted, or
 * cut short by a dropped connection) the file is truncated back to where the body started, the
 * block hashes are rewound with it, and the request fails with 460; sent again, it appends at the
 * same offset. The app sends one 4 MiB block per PATCH, so a body that starts on a block boundary
 * and cannot pass the block's end is digested by the block hash itself (hashed once); any other
 * body, or one without block hashes to share, gets a hash of its own. Without the header a PATCH
 * is kept as it arrives (a dropped one resumes from what reached the disk) and only the final
 * content hash covers it.
 */
export class UploadStore extends FileStore implements UploadBytes {
  private readonly hashes = new UploadHashes();

  /** `reservations`: what the bytes written count against ([Note: space reservations]). */
  constructor(
    directory: string,
    private readonly reservations?: SpaceReservations,
  ) {
    super({ directory });
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum'];
  }

  expectBody(id: string, check: BodyCheck): void {
    this.hashes.expectBody(id, check);
  }
  withdraw(check: BodyCheck): void {
    this.hashes.withdraw(check);
  }
  takeContentHash(id: string, length: number): string | null {
    return this.hashes.takeContentHash(id, length);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { check, hasher } = this.hashes.takeForWrite(id, offset);
    const mark = check && hasher?.mark();
    // A body that starts a block and cannot pass its end (tus cuts a body at its Content-Length,
    // and always at the upload's end) is digested by the block hash; any other gets its own.
    const inOneBlock =
      !!check &&
      offset % BLOCK === 0 &&
      Math.min(check.contentLength ?? Infinity, check.uploadLength - offset) <= BLOCK;
    const own = check && !(hasher && inOneBlock) ? createHash('sha256') : undefined;
    let newOffset: number;
    try {
      newOffset = await this.writeBody(readable, id, offset, hasher, own);
    } catch (err) {
      if (check) await this.rollBack(id, offset, hasher, mark);
      throw err;
    }
    if (check) {
      const seen = newOffset - offset;
      const digest = own ? own.digest() : seen <= BLOCK ? hasher?.tailDigest(seen) : undefined;
      if (!digest?.equals(check.digest)) {
        await this.rollBack(id, offset, hasher, mark);
        throw new TusHttpError(CHECKSUM_MISMATCH_STATUS, 'bad_request', texts.pieceCorrupted);
      }
    }
    if (hasher) this.hashes.keep(id, hasher);
    return newOffset;
  }

  /**
   * [Note: body written in batches] The body appended at `offset`, each chunk hashed (the block
   * hashes, and the body's own digest if it has one) as it arrives; returns the new offset. The
   * socket's chunks (64 KiB at most) are gathered and written about a MiB at a time with one
   * writev, without a copy. A fs.WriteStream wrote each chunk with a write of its own, through
   * two Transforms: the server spent 10–20% more CPU on the app's checked uploads
   * (bench/RESULTS.md, "Speed II, sixth round: PATCH bodies written a MiB at a time").
   * Back-pressure is the same: nothing more is read while a batch is written. When the body fails
   * (a dropped connection) what arrived is still written, as before: a PATCH without a checksum
   * resumes from what reached the disk. A failed write keeps its cause: FileStore answered every
   * failed write with tus's FILE_WRITE_ERROR, a 500, so a full disk read as a server error instead
   * of 507.
   */
  private async writeBody(
    readable: Readable,
    id: string,
    offset: number,
    hasher: ContentHasher | undefined,
    own: Hash | undefined,
  ): Promise<number> {
    const reservations = this.reservations;
    let position = offset;
    let batch: Buffer[] = [];
    let batched = 0;
    let file: FileHandle | undefined;
    let writeFailed = false;
    const flush = async () => {
      let buffers = batch;
      let left = batched;
      if (left === 0) return;
      batch = [];
      batched = 0;
      try {
        file ??= await fsp.open(this.dataPath(id), 'r+');
        while (left > 0) {
          const { bytesWritten } = await file.writev(buffers, position);
          if (bytesWritten <= 0) throw new Error('the upload file took no bytes');
          position += bytesWritten;
          left -= bytesWritten;
          if (left > 0) buffers = unwritten(buffers, bytesWritten);
        }
      } catch (err) {
        writeFailed = true;
        throw err;
      }
    };
    try {
      try {
        for await (const chunk of readable as AsyncIterable<Buffer>) {
          hasher?.update(chunk);
          own?.update(chunk);
          reservations?.consume(id, chunk.length);
          batch.push(chunk);
          batched += chunk.length;
          if (batched >= WRITE_BATCH) await flush();
        }
      } catch (err) {
        if (writeFailed) throw err;
        await flush(); // the body failed: what arrived is kept all the same
        throw err;
      }
      await flush();
    } catch (err) {
      if (isDiskFull(err)) throw new TusHttpError(507, 'storage_full', serverStorageFullMessage);
      // Anything else (a dropped connection, mostly) as FileStore answers it.
      const { status_code, body } = ERRORS.FILE_WRITE_ERROR;
      throw Object.assign(new Error(body.trim()), { status_code, body });
    } finally {
      await file?.close();
    }
    return position;
  }

  /** Undoes a refused body: the file back to `offset`, the block hashes back to `mark`. */
  private async rollBack(
    id: string,
    offset: number,
    hasher: ContentHasher | undefined,
    mark: ContentHashMark | undefined,
  ): Promise<void> {
    await fsp.truncate(this.dataPath(id), offset);
    if (hasher && mark) {
      hasher.rewind(mark);
      this.hashes.keep(id, hasher);
    }
  }

  dataPath(id: string): string {
    if (!UPLOAD_ID_PATTERN.test(id)) throw new Error('not an upload id');
    return path.join(this.directory, id);
  }

  async received(id: string): Promise<{ size: number; mtime: Date } | null> {
    const stat = await fsp.stat(this.dataPath(id)).catch(() => null);
    return stat && { size: stat.size, mtime: stat.mtime };
  }

  bytesOf(id: string): AsyncIterable<Uint8Array> {
    return fs.createReadStream(this.dataPath(id), { highWaterMark: BLOCK });
  }

  async moveToBlob(id: string, blobs: BlobStore, key: BlobKey): Promise<void> {
    await blobs.adopt(this.dataPath(id), key);
  }

  async held(): Promise<{ id: string; mtime: Date }[]> {
    const names = await fsp.readdir(this.directory).catch(() => [] as string[]);
    const ids = [...new Set(names.flatMap((n) => TUS_FILE.exec(n)?.[1] ?? []))];
    return Promise.all(
      ids.map(async (id) => {
        const data = this.dataPath(id);
        const stats = await Promise.all(
          [fsp.stat(data), fsp.stat(`${data}.json`)].map((p) => p.catch(() => null)),
        );
        const mtime = Math.max(0, ...stats.map((s) => s?.mtime.getTime() ?? 0));
        return { id, mtime: new Date(mtime) };
      }),
    );
  }
  /** Removes the upload's bytes and tus info file, whichever of them exist. */
  async discard(id: string): Promise<void> {
    const data = this.dataPath(id);
    this.hashes.forget(id);
    await fsp.rm(data, { force: true });
    await fsp.rm(`${data}.json`, { force: true });
  }
}
