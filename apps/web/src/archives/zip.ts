// Reading a ZIP archive the user hands us (an import's 1PUX or Proton Pass export, and any archive
// the app reads later) without trusting it. A few kilobytes of DEFLATE can expand to gigabytes,
// and a local header may lie about the sizes, so the archive is streamed through fflate's Unzip
// and each wanted entry inflated piece by piece while its produced bytes are counted; reading
// stops with a ZipLimitError naming the cap before more than one piece's output is held past it.
// Entries nobody asked for are never inflated (only counted). [Note: archive caps]
//
// [Note: archive caps]
// Caps (docs/product.md, "Secrets manager", Import): 10,000 entries, 64 MiB in one entry,
// 256 MiB in all the entries read. A 1PUX or Proton Pass export is one JSON file of a few MB (its
// attachments, which we do not read, are not inflated) and the import takes at most 50 MB of
// archive, so real exports stay far below them. What counts is the bytes inflate actually
// produces; a header's sizes only let us refuse earlier, never later.
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { i18n } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface ZipLimits {
  /** Entries (files and folders) the archive may hold. */
  maxEntries: number;
  /** Uncompressed bytes of one entry that is read. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all the entries read together. */
  maxTotalBytes: number;
}

const MiB = 1024 * 1024;
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 64 * MiB,
  maxTotalBytes: 256 * MiB,
};

/**
 * Compressed bytes handed to inflate at a time. DEFLATE expands at most about 1,032 to 1, so one
 * piece produces at most MAX_PIECE_OUTPUT bytes: how far past a cap reading can get.
 */
export const PIECE_BYTES = 16 * 1024;
export const MAX_PIECE_OUTPUT = PIECE_BYTES * 1032 + 32 * 1024;

export type ZipLimitKind = 'entries' | 'entry' | 'total';

/** An archive over one of the caps; `message` names the cap and is meant for the user. */
export class ZipLimitError extends Error {
  override name = 'ZipLimitError';
  constructor(
    readonly kind: ZipLimitKind,
    message: string,
    /** Uncompressed bytes produced before reading stopped (for tests and logs). */
    readonly inflated: number,
  ) {
    super(message);
  }
}

/** Not a ZIP archive we can read: truncated, corrupt, or an unknown compression method. */
export class ZipFormatError extends Error {
  override name = 'ZipFormatError';
}

const mb = (bytes: number) => `${formatNumber(Math.round(bytes / MiB))} MB`;
const shortName = (name: string) => (name.length > 80 ? `${name.slice(0, 77)}...` : name);

// The texts of docs/product.md, "Secrets manager", Import; translated when the limit is met.
export const limitMessage = (kind: ZipLimitKind, limits: ZipLimits, name = ''): string =>
  kind === 'entries'
    ? i18n.t(
        'This archive holds more than {{count}} files, more than any export we read. It was not opened.',
        { count: formatNumber(limits.maxEntries) },
      )
    : kind === 'entry'
      ? i18n.t(
          '"{{name}}" in this archive unpacks to more than {{size}}, more than any export we read. It was not opened.',
          { name: shortName(name), size: mb(limits.maxEntryBytes) },
        )
      : i18n.t(
          'This archive unpacks to more than {{size}}, more than any export we read. It was not opened.',
          { size: mb(limits.maxTotalBytes) },
        );

export interface ZipReadOptions {
  /** Which entries to inflate and hand back, by their path in the archive. Default: none. */
  select?: (name: string) => boolean;
  limits?: ZipLimits;
}

export interface ZipContents {
  /** Every entry's path, in archive order (read or not). */
  names: string[];
  /** The selected entries' bytes by path. */
  files: Map<string, Uint8Array>;
}

/**
 * Reads a ZIP archive pushed to it piece by piece (bytes in memory, or a stream). push() throws
 * ZipLimitError at the first cap passed, ZipFormatError for an archive it cannot read.
 */
export class ZipReader {
  private readonly names: string[] = [];
  private readonly files = new Map<string, Uint8Array>();
  /** Selected entries whose last bytes have not come yet. */
  private pending = 0;
  private readonly unzip: Unzip;
  private readonly limits: ZipLimits;
  private total = 0;
  private failure: Error | undefined;
  private done = false;

  constructor(options: ZipReadOptions = {}) {
    this.limits = options.limits ?? ZIP_LIMITS;
    const select = options.select ?? (() => false);
    this.unzip = new Unzip((file) => {
      if (this.names.length >= this.limits.maxEntries) {
        throw this.fail(
          new ZipLimitError('entries', limitMessage('entries', this.limits), this.total),
        );
      }
      this.names.push(file.name);
      if (select(file.name)) this.read(file);
    });
    this.unzip.register(UnzipInflate);
  }

  private throwIfFailed() {
    if (this.failure) throw this.failure;
  }

  private fail(error: Error): Error {
    this.failure ??= error;
    return this.failure;
  }

  private read(file: UnzipFile) {
    const { name } = file;
    const declared = file.originalSize ?? 0;
    // A header that admits a size over a cap is refused before anything is inflated.
    if (declared > this.limits.maxEntryBytes) {
      throw this.fail(
        new ZipLimitError('entry', limitMessage('entry', this.limits, name), this.total),
      );
    }
    if (this.total + declared > this.limits.maxTotalBytes) {
      throw this.fail(new ZipLimitError('total', limitMessage('total', this.limits), this.total));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    this.pending++;
    file.ondata = (err, data, final) => {
      // Our own ZipLimitError comes back here as `err` when inflate's wrapper catches it.
      if (err) throw this.failure ?? this.fail(new ZipFormatError(err.message));
      size += data.length;
      this.total += data.length;
      if (size > this.limits.maxEntryBytes) {
        throw this.fail(
          new ZipLimitError('entry', limitMessage('entry', this.limits, name), this.total),
        );
      }
      if (this.total > this.limits.maxTotalBytes) {
        throw this.fail(new ZipLimitError('total', limitMessage('total', this.limits), this.total));
      }
      if (data.length) chunks.push(data);
      if (final) {
        this.pending--;
        this.files.set(name, concat(chunks, size));
      }
    };
    file.start();
  }

  /** Reads the next bytes of the archive; `final` marks its end. */
  push(bytes: Uint8Array, final = false): void {
    this.throwIfFailed();
    if (this.done) throw new ZipFormatError('The archive was already read to its end.');
    try {
      let at = 0;
      do {
        const end = Math.min(at + PIECE_BYTES, bytes.length);
        this.unzip.push(bytes.subarray(at, end), final && end === bytes.length);
        at = end;
      } while (at < bytes.length);
    } catch (e) {
      const known = e instanceof ZipLimitError || e instanceof ZipFormatError;
      throw this.fail(known ? e : new ZipFormatError(e instanceof Error ? e.message : String(e)));
    }
    // An error thrown inside fflate's callbacks may have been swallowed on its way out.
    this.throwIfFailed();
    if (final) {
      this.done = true;
      // An entry whose compressed data stopped before its end is a truncated archive.
      if (this.pending > 0) throw this.fail(new ZipFormatError('The archive is truncated.'));
    }
  }

  /** What was read; call after the final push. */
  contents(): ZipContents {
    if (!this.done) throw new ZipFormatError('The archive was not read to its end.');
    return { names: this.names, files: this.files };
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Reads a whole archive held in memory (see ZipReader). */
export function readZip(bytes: Uint8Array, options: ZipReadOptions = {}): ZipContents {
  const reader = new ZipReader(options);
  reader.push(bytes, true);
  return reader.contents();
}

/** Whether bytes start like a ZIP archive (a local file header). */
export const isZip = (b: Uint8Array) =>
  b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
