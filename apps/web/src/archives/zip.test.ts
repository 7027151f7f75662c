import { inflateSync, strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { deflatedZeros, zipBomb, zipOfRaw } from './bomb.testkit.ts';
import {
  MAX_PIECE_OUTPUT,
  readZip,
  ZIP_LIMITS,
  ZipFormatError,
  ZipLimitError,
  ZipReader,
  type ZipLimits,
} from './zip.ts';

const MiB = 1024 * 1024;
const all = () => true;

/** The error readZip throws, for assertions on its fields. */
function refusal(bytes: Uint8Array, limits?: ZipLimits): ZipLimitError {
  try {
    readZip(bytes, { select: all, ...(limits && { limits }) });
  } catch (e) {
    if (e instanceof ZipLimitError) return e;
    throw e;
  }
  throw new Error('the archive was read');
}

describe('readZip', () => {
  it('hands back the selected entries, stored and deflated, and names them all', () => {
    const big = strToU8(Array.from({ length: 20_000 }, (_, i) => i % 97).join(' '));
    const zip = zipSync({
      'export.data': [big, { level: 6 }],
      'plain.txt': [strToU8('hello'), { level: 0 }],
      'files/photo.jpg': strToU8('not read'),
    });
    const { names, files } = readZip(zip, { select: (n) => !n.startsWith('files/') });
    expect(names).toEqual(['export.data', 'plain.txt', 'files/photo.jpg']);
    expect([...files.keys()]).toEqual(['export.data', 'plain.txt']);
    expect(files.get('export.data')).toEqual(big);
    expect(new TextDecoder().decode(files.get('plain.txt'))).toBe('hello');
  });

  it('reads entries written with data descriptors (sizes after the data)', () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, data) => {
      if (err) throw err;
      chunks.push(data);
    });
    const entry = new ZipDeflate('Proton Pass/data.json');
    zip.add(entry);
    entry.push(strToU8('{"vaults":'), false);
    entry.push(strToU8('{}}'), true);
    zip.end();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
    const { files } = readZip(bytes, { select: all });
    expect(new TextDecoder().decode(files.get('Proton Pass/data.json'))).toBe('{"vaults":{}}');
  });

  it('reads a stream pushed in pieces of any size', () => {
    const zip = zipSync({ a: strToU8('a'.repeat(50_000)), b: strToU8('b') });
    const reader = new ZipReader({ select: all });
    for (let at = 0; at < zip.length; at += 777) reader.push(zip.subarray(at, at + 777));
    reader.push(new Uint8Array(), true);
    expect(reader.contents().files.get('a')?.length).toBe(50_000);
  });

  it('refuses a truncated or corrupt archive as unreadable, not as too large', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 10_007).join(',');
    const zip = zipSync({ 'export.data': strToU8(text) });
    expect(zip.length).toBeGreaterThan(2_000);
    expect(() => readZip(zip.subarray(0, 1_000), { select: all })).toThrow(ZipFormatError);
    const corrupt = zipOfRaw([
      { name: 'x', data: new Uint8Array([0xff, 0xff, 0xff]), declaredSize: 3 },
    ]);
    expect(() => readZip(corrupt, { select: all })).toThrow(ZipFormatError);
  });
});

describe('readZip caps (a crafted zip bomb)', () => {
  it('has the documented caps', () => {
    expect(ZIP_LIMITS).toEqual({
      maxEntries: 10_000,
      maxEntryBytes: 64 * MiB,
      maxTotalBytes: 256 * MiB,
    });
  });

  it(
    'stops an entry that inflates past 64 MB within one piece of output, whatever its header says',
    { timeout: 30_000 },
    () => {
      // About 560 KB of DEFLATE that expands to 90 MB of zeros; the header claims 10 bytes.
      const bomb = zipBomb('export.data', 90 * MiB, 10);
      expect(bomb.length).toBeLessThan(600_000);
      const error = refusal(bomb);
      expect(error.kind).toBe('entry');
      expect(error.message).toBe(
        '"export.data" in this archive unpacks to more than 64 MB, more than any export we read. It was not opened.',
      );
      expect(error.inflated).toBeGreaterThan(64 * MiB);
      expect(error.inflated).toBeLessThanOrEqual(64 * MiB + MAX_PIECE_OUTPUT);
    },
  );

  it('refuses before inflating anything when the header admits a size over a cap', () => {
    const bomb = zipBomb('data.json', 1000, 65 * MiB);
    const error = refusal(bomb);
    expect(error).toMatchObject({ kind: 'entry', inflated: 0 });
  });

  it('stops when the entries read together pass the total cap', () => {
    const limits = { maxEntries: 100, maxEntryBytes: 4 * MiB, maxTotalBytes: 10 * MiB };
    const data = deflatedZeros(3 * MiB);
    const entries = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, data, declaredSize: 1 }));
    const error = refusal(zipOfRaw(entries), limits);
    expect(error.kind).toBe('total');
    expect(error.message).toBe(
      'This archive unpacks to more than 10 MB, more than any export we read. It was not opened.',
    );
    expect(error.inflated).toBeLessThanOrEqual(10 * MiB + MAX_PIECE_OUTPUT);
  });

  it('refuses more than 10,000 entries, even ones it would not read', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= 10_000; i++) many[`f${i}`] = new Uint8Array();
    const zip = zipSync(many, { level: 0 });
    expect(() => readZip(zip)).toThrow(
      new ZipLimitError(
        'entries',
        'This archive holds more than 10,000 files, more than any export we read. It was not opened.',
        0,
      ),
    );
    delete many.f0;
    expect(readZip(zipSync(many, { level: 0 })).names).toHaveLength(10_000);
  });

  it('the crafted DEFLATE really is zeros (so the bomb tests test what they say)', () => {
    expect(inflateSync(deflatedZeros(1 + 258 * 4))).toEqual(new Uint8Array(1 + 258 * 4));
  });
});
