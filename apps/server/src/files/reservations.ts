// [Note: space reservations] The free-space watermark (UPLOAD_MIN_FREE_MB, storage-guard.ts)
// counts the bytes that accepted uploads have yet to send, not only the free space statfs sees
// now: without that, uploads created side by side each saw the same free space, all passed, and
// overflowed the disk together (ENOSPC mid-PATCH). Each upload reserves its declared length when
// it is created (check and reservation in one synchronous step, so that two requests cannot both
// take the last room), the reservation shrinks as the bytes are written (UploadStore, so that a
// PATCH in flight is not counted twice) and is set to what is left after each PATCH, and it is
// released when all bytes are in, on cancel, on a definite failure and when the sweep removes an
// expired upload. The reservations live in this process's memory (FileStorage.reservations): per
// instance, which is what the watermark guards, the instance's data dir (with BLOB_STORE=s3 the
// bytes go to the bucket and there is no watermark). After a restart an unfinished upload has no
// reservation until its next PATCH takes one again (uploads.routes.ts).

/** Bytes reserved per upload (or per creation not yet given its id). */
export class SpaceReservations {
  private readonly held = new Map<string, number>();

  /** The bytes every reservation still holds. */
  total(): number {
    let sum = 0;
    for (const bytes of this.held.values()) sum += bytes;
    return sum;
  }
  /** What `key` holds (0 without a reservation). */
  of(key: string): number {
    return this.held.get(key) ?? 0;
  }
  has(key: string): boolean {
    return this.held.has(key);
  }
  /** Sets what `key` holds; nothing left to come releases it. */
  set(key: string, bytes: number): void {
    if (bytes > 0) this.held.set(key, bytes);
    else this.held.delete(key);
  }
  /**
   * Bytes of `key` written to the disk (UploadStore counts them as they go), so that a PATCH in
   * flight is not counted twice, in the free space and in its reservation.
   */
  consume(key: string, bytes: number): void {
    const held = this.held.get(key);
    if (held !== undefined) this.set(key, held - bytes);
  }
  /** Moves a creation's reservation to the upload's id, once tus has chosen it. */
  rename(from: string, to: string): void {
    const bytes = this.held.get(from);
    this.held.delete(from);
    if (bytes !== undefined) this.held.set(to, bytes);
  }
  release(key: string): void {
    this.held.delete(key);
  }
}
