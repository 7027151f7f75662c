// The per-upload hashing state both tus stores share (the directory's in uploads.store.ts, S3's in
// uploads.s3.ts): the SHA-256 a request declared for its body, and the running content hash. Why
// they exist: [Note: checksum per PATCH] and [Note: running hash] in uploads.store.ts.
import { ContentHasher } from './content-hash.ts';

/** Tus-Checksum-Algorithm: the algorithms a PATCH's Upload-Checksum may use. */
export const CHECKSUM_ALGORITHMS = ['sha256'] as const;

/**
 * What a request declared in Upload-Checksum (the tus checksum extension), for the store's write
 * of its body: uploads.service.ts parses it, the onIncomingRequest hook hands it to the store.
 */
export interface BodyCheck {
  /** The SHA-256 the body must have. */
  digest: Buffer;
  /** The request's Content-Length, if it had a valid one. */
  contentLength: number | null;
  /** The upload's declared length: the body can bring no more than what is left of it. */
  uploadLength: number;
}

/**
 * What both tus stores (uploads.store.ts, and S3's in uploads.s3.ts) keep per upload in this
 * process: the digest declared for the next body [Note: checksum per PATCH] and the running block
 * hashes [Note: running hash].
 */
export class UploadHashes {
  private readonly hashers = new Map<string, ContentHasher>();
  private readonly checks = new Map<string, BodyCheck>();

  /**
   * Declares the digest of the next body written to upload `id`. Keyed by upload only, as write()
   * sees no request: two requests racing on one upload (tus's lock lets one write at a time and
   * cancels the other) may swap declarations, so one may be refused with 460 although its body was
   * right, or written unchecked. An accepted race: the final content hash still covers every byte.
   */
  expectBody(id: string, check: BodyCheck): void {
    this.checks.set(id, check);
  }
  /** Drops `check` if no write took it (its request failed before reaching its body). */
  withdraw(check: BodyCheck): void {
    for (const [id, declared] of this.checks) if (declared === check) this.checks.delete(id);
  }
  /**
   * For a write of upload `id` from `offset`: its declared check, and the hasher to go on with
   * (a new one at 0, the kept one if it has hashed exactly `offset` bytes). Both are taken: the
   * hasher is kept again (keep) only once the write has succeeded.
   */
  takeForWrite(id: string, offset: number): { check?: BodyCheck; hasher?: ContentHasher } {
    const check = this.checks.get(id);
    this.checks.delete(id);
    const prior = this.hashers.get(id);
    this.hashers.delete(id);
    const hasher =
      offset === 0 ? new ContentHasher() : prior?.length === offset ? prior : undefined;
    return { check, hasher };
  }
  keep(id: string, hasher: ContentHasher): void {
    this.hashers.set(id, hasher);
  }
  /** The content hash (hex) of all `length` bytes if the running block hashes cover exactly them. */
  takeContentHash(id: string, length: number): string | null {
    const hasher = this.hashers.get(id);
    this.hashers.delete(id);
    return hasher?.length === length ? hasher.digest() : null;
  }
  forget(id: string): void {
    this.hashers.delete(id);
    this.checks.delete(id);
  }
}
