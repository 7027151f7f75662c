import { describe, expect, it } from 'vitest';
import { item, itemId, tombstone } from './log.testkit.ts';
import {
  asSegmentId,
  blobName,
  encodeSegment,
  newSegmentId,
  parseSegment,
  sealSegment,
  segmentDigest,
  segmentIdOfBlob,
} from './segment.ts';

const text = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const segment = (records: unknown[]) => text({ format: 'vf1-segments', records });

describe('segment bytes', () => {
  it('writes records sorted by id with their keys in one order, and parses them back', () => {
    const records = [
      tombstone(3, 4),
      {
        updated_at: item(1, 2).updated_at,
        data: item(1, 2).data,
        created_at: item(1, 2).created_at,
        revision: 2,
        id: itemId(1),
      },
      item(2, 1),
    ];
    const bytes = encodeSegment(records);
    expect(new TextDecoder().decode(bytes)).toBe(
      JSON.stringify({
        format: 'vf1-segments',
        records: [
          {
            id: itemId(1),
            revision: 2,
            data: item(1, 2).data,
            created_at: item(1, 2).created_at,
            updated_at: item(1, 2).updated_at,
          },
          item(2, 1),
          { id: itemId(3), revision: 4, deleted: true },
        ],
      }),
    );
    expect(parseSegment(bytes)).toEqual([item(1, 2), item(2, 1), tombstone(3, 4)]);
    expect(encodeSegment([...records].reverse())).toEqual(bytes);
  });

  it('refuses to write two records of one item or an invalid record', () => {
    expect(() => encodeSegment([item(1, 1), item(1, 2)])).toThrow(/one record per item/);
    expect(() => encodeSegment([{ ...item(1, 1), revision: 0 }])).toThrow(/invalid/);
    expect(() => encodeSegment([{ ...item(10, 1), id: itemId(10).toUpperCase() }])).toThrow();
  });

  it('parses an empty segment', () => {
    expect(parseSegment(encodeSegment([]))).toEqual([]);
  });

  it.each([
    ['not JSON', new TextEncoder().encode('{"format":')],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d])],
    ['another format', text({ format: 'vf1-segment', records: [] })],
    ['another key', text({ format: 'vf1-segments', records: [], extra: 1 })],
    ['records not a list', text({ format: 'vf1-segments', records: {} })],
    ['records out of order', segment([item(2, 1), item(1, 1)])],
    ['an id twice', segment([item(1, 1), tombstone(1, 1)])],
    ['an uppercase id', segment([{ ...item(10, 1), id: itemId(10).toUpperCase() }])],
    ['revision 0', segment([{ ...item(1, 1), revision: 0 }])],
    ['a fractional revision', segment([{ ...item(1, 1), revision: 1.5 }])],
    ['data not base64', segment([{ ...item(1, 1), data: 'not base64!' }])],
    ['empty data', segment([{ ...item(1, 1), data: '' }])],
    ['a tombstone with deleted false', segment([{ ...tombstone(1, 1), deleted: false }])],
    ['a tombstone with data', segment([{ ...tombstone(1, 1), data: item(1, 1).data }])],
    ['an item without its times', segment([{ ...item(1, 1), created_at: undefined }])],
    ['a time not in ISO form', segment([{ ...item(1, 1), updated_at: '2026-01-01' }])],
    ['a record with another key', segment([{ ...item(1, 1), title: 'x' }])],
  ])('refuses %s', (_, bytes) => {
    expect(parseSegment(bytes)).toBeNull();
  });
});

describe('segment names and digests', () => {
  it('names a blob seg-<id> and reads the id back, ignoring any other blob', () => {
    const id = newSegmentId(() => 'AAAAAAAA-0000-4000-8000-000000000001');
    expect(id).toBe('aaaaaaaa-0000-4000-8000-000000000001');
    expect(blobName(id)).toBe('seg-aaaaaaaa-0000-4000-8000-000000000001');
    expect(segmentIdOfBlob(blobName(id))).toBe(id);
    expect(segmentIdOfBlob('aaaaaaaa-0000-4000-8000-000000000001')).toBeNull();
    expect(segmentIdOfBlob('seg-not-a-uuid')).toBeNull();
    expect(segmentIdOfBlob('file-aaaaaaaa-0000-4000-8000-000000000001')).toBeNull();
    expect(asSegmentId('AAAAAAAA-0000-4000-8000-000000000001')).toBeNull();
    expect(() => newSegmentId(() => 'nope')).toThrow();
  });

  it('makes fresh lowercase UUIDs by default', () => {
    const a = newSegmentId();
    expect(asSegmentId(a)).toBe(a);
    expect(newSegmentId()).not.toBe(a);
  });

  it('digests with SHA-256 as 64 lowercase hex (FIPS 180-2 "abc" vector)', async () => {
    expect(await segmentDigest(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    shared.set([0x61, 0x62, 0x63]);
    expect(await segmentDigest(shared)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('seals records into bytes, a blob name and the pin of those bytes', async () => {
    const id = newSegmentId();
    const sealed = await sealSegment([item(2, 1), item(1, 3)], id);
    expect(sealed.name).toBe(`seg-${id}`);
    expect(sealed.pin).toEqual([id, await segmentDigest(sealed.bytes)]);
    expect(sealed.records).toEqual([item(1, 3), item(2, 1)]);
    expect(parseSegment(sealed.bytes)).toEqual(sealed.records);
  });
});
