// OneDrive's quickXorHash (issue 26), computed in the browser over the ciphertext an upload sends,
// to hold OneDrive to what it says it stored (driveItem.file.hashes.quickXorHash, base64). Written
// from Microsoft's published description and C# sample ("Code Snippets: QuickXorHash Algorithm" in
// OneDrive's API docs): a 160-bit little-endian vector; byte i of the input is XORed in at bit
// (i * 11) mod 160, wrapping around the end of the vector; at the end the input's length, as 8
// little-endian bytes, is XORed into the last 8 of the 20 bytes. Because 160 is a whole number of
// bytes, a byte shifted by p bits lands in byte p / 8 and the one after it (19 wraps to 0).
// quickxor.test.ts checks it against rclone's published vectors (the e2e emulator has its own copy).

const WIDTH_BYTES = 20; // 160 bits
const WIDTH_BITS = WIDTH_BYTES * 8;
const SHIFT = 11;

/** Incremental quickXorHash: `update` any number of times, then `digest` once. */
export class QuickXorHash {
  private readonly cells = new Uint8Array(WIDTH_BYTES);
  private length = 0;
  /** Bit position of the next byte: (bytes so far × 11) mod 160. */
  private position = 0;

  update(bytes: Uint8Array): this {
    const cells = this.cells;
    let position = this.position;
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i]!;
      const at = position >>> 3;
      const bit = position & 7;
      cells[at]! ^= (byte << bit) & 0xff;
      if (bit !== 0) cells[at === WIDTH_BYTES - 1 ? 0 : at + 1]! ^= byte >>> (8 - bit);
      position += SHIFT;
      if (position >= WIDTH_BITS) position -= WIDTH_BITS;
    }
    this.position = position;
    this.length += bytes.length;
    return this;
  }

  /** The 20 bytes of the hash. */
  digest(): Uint8Array {
    const out = this.cells.slice();
    // The length as a 64-bit little-endian integer (exact below 2^53 bytes).
    let n = this.length;
    for (let i = 0; i < 8; i += 1) {
      out[WIDTH_BYTES - 8 + i]! ^= n % 256;
      n = Math.floor(n / 256);
    }
    return out;
  }

  /** The hash in base64, as OneDrive states it. */
  base64(): string {
    return btoa(String.fromCharCode(...this.digest()));
  }
}

/** quickXorHash of `bytes`, base64. */
export const quickXorHash = (bytes: Uint8Array): string =>
  new QuickXorHash().update(bytes).base64();
