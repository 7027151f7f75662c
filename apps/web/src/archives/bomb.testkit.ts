// Hostile archives for tests: a raw DEFLATE stream of zeros written by hand (RFC 1951, 3.2.6:
// one fixed-Huffman block, a literal 0 and then length-258 copies at distance 1, 13 bits per
// 258 bytes), wrapped in a ZIP whose headers say whatever the test wants.

/** Raw DEFLATE of at least `length` zeros (rounded up to 1 + a multiple of 258). */
export function deflatedZeros(length: number): Uint8Array {
  const copies = Math.max(0, Math.ceil((length - 1) / 258));
  const out = new Uint8Array(Math.ceil((3 + 8 + copies * 13 + 7) / 8) + 1);
  let bit = 0;
  const put = (value: number, bits: number) => {
    for (let i = 0; i < bits; i++, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  // Huffman codes go most significant bit first; put() writes least significant first.
  const code = (value: number, bits: number) => {
    let reversed = 0;
    for (let i = 0; i < bits; i++) reversed |= ((value >> i) & 1) << (bits - 1 - i);
    put(reversed, bits);
  };
  put(1, 1); // BFINAL
  put(1, 2); // BTYPE 01: fixed Huffman codes
  code(0b00110000, 8); // literal 0
  for (let i = 0; i < copies; i++) {
    code(0b11000101, 8); // length symbol 285: 258 bytes
    code(0, 5); // distance symbol 0: 1 byte back
  }
  code(0, 7); // end of block (256)
  return out;
}

export interface RawEntry {
  name: string;
  /** Raw DEFLATE data (method 8), or the stored bytes with `stored`. */
  data: Uint8Array;
  /** The uncompressed size the headers claim. */
  declaredSize: number;
  stored?: boolean;
}

/** A ZIP archive of already-compressed entries whose headers claim `declaredSize`. */
export function zipOfRaw(entries: readonly RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(6, 0x0800, true);
    l.setUint16(8, e.stored ? 0 : 8, true);
    l.setUint32(18, e.data.length, true);
    l.setUint32(22, e.declaredSize, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const c = new DataView(cd.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(8, 0x0800, true);
    c.setUint16(10, e.stored ? 0 : 8, true);
    c.setUint32(20, e.data.length, true);
    c.setUint32(24, e.declaredSize, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, e.data);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  const cdSize = central.reduce((n, p) => n + p.length, 0);
  const end = new Uint8Array(22);
  const d = new DataView(end.buffer);
  d.setUint32(0, 0x06054b50, true);
  d.setUint16(8, entries.length, true);
  d.setUint16(10, entries.length, true);
  d.setUint32(12, cdSize, true);
  d.setUint32(16, offset, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A ZIP holding `name`: `size` zeros, its headers claiming `declaredSize` (default: the truth). */
export function zipBomb(name: string, size: number, declaredSize?: number): Uint8Array {
  const data = deflatedZeros(size);
  const real = 1 + Math.max(0, Math.ceil((size - 1) / 258)) * 258;
  return zipOfRaw([{ name, data, declaredSize: declaredSize ?? real }]);
}
