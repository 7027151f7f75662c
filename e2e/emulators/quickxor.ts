// OneDrive's quickXorHash, for the OneDrive emulator's driveItem.file.hashes (test tooling).
// Written from Microsoft's published description and C# sample ("Code Snippets: QuickXorHash
// Algorithm", docs/code-snippets/quickxorhash.md in github.com/OneDrive/onedrive-api-docs): a
// 160-bit little-endian vector; byte i of the input is XORed in at bit (i * 11) mod 160, rotating
// around the end of the vector; at the end the input's length, as 8 little-endian bytes, is XORed
// into the last 8 bytes of the 20; the result is sent in base64.
//
// Because 160 is a whole number of bytes, "rotate a byte left by p bits within 160 bits" is just
// two byte-wide XORs at p / 8 and the byte after it (wrapping from 19 to 0). The C# sample walks
// three 64-bit cells (the last one using 32 bits) to the same effect.

const WIDTH_BYTES = 20; // 160 bits
const WIDTH_BITS = WIDTH_BYTES * 8;
const SHIFT = 11;

/** Incremental quickXorHash: `update` any number of times, then `digest` once. */
export class QuickXorHash {
  private readonly cells = new Uint8Array(WIDTH_BYTES);
  private length = 0n;
  /** Bit position of the next byte: (bytes so far × 11) mod 160. */
  private position = 0;

  update(bytes: Uint8Array): this {
    const cells = this.cells;
    let position = this.position;
    for (const byte of bytes) {
      const at = position >>> 3;
      const bit = position & 7;
      cells[at] = (cells[at] ?? 0) ^ ((byte << bit) & 0xff);
      if (bit !== 0) {
        const next = (at + 1) % WIDTH_BYTES;
        cells[next] = (cells[next] ?? 0) ^ (byte >>> (8 - bit));
      }
      position = (position + SHIFT) % WIDTH_BITS;
    }
    this.position = position;
    this.length += BigInt(bytes.length);
    return this;
  }

  /** The 20 bytes of the hash. */
  digest(): Buffer {
    const out = Buffer.from(this.cells);
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt.asUintN(64, this.length));
    for (let i = 0; i < 8; i += 1) {
      out[WIDTH_BYTES - 8 + i] = (out[WIDTH_BYTES - 8 + i] ?? 0) ^ (length[i] ?? 0);
    }
    return out;
  }
}

/** quickXorHash of `bytes`, base64 as in driveItem.file.hashes.quickXorHash. */
export function quickXorHash(bytes: Uint8Array): string {
  return new QuickXorHash().update(bytes).digest().toString('base64');
}
