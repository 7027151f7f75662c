// One segment of a secrets vault's log (ADR 0008): an immutable blob `seg-<segmentId>` in the
// vault's storage provider holding UTF-8 JSON `{"format":"vf1-segments","records":[...]}`. A
// record is an item (the vf1 item ciphertext exactly as the server stores secrets, so its AAD
// already binds id and revision) or a tombstone. The manifest pins each segment by the SHA-256 of
// its bytes, so what is parsed here has already been vouched for by the digest, or is refused.
//
// [Note: revision steps] An item record's revision is one more than the revision it replaces (1
// for a new item), as the server's compare-and-swap on secrets has always counted; a tombstone
// carries the revision the item had when it was deleted. So every record names the revision it
// was written against (its base), and a rebase needs nothing beyond the segment itself.

export const SEGMENT_FORMAT = 'vf1-segments';
export const SEGMENT_PREFIX = 'seg-';

declare const brand: unique symbol;
/** A segment's id: a lowercase UUID, fresh for each blob (conventions.md, "Shape"). */
export type SegmentId = string & { readonly [brand]: 'SegmentId' };

/**
 * An item at one revision: the encrypted record (base64) as the server stores secrets, and when
 * the item was made and last changed (ISO 8601 UTC, as the server's records carry them; the
 * segment's pin in the manifest vouches for them, the entry digest does not cover them).
 */
export interface ItemRecord {
  id: string;
  revision: number;
  data: string;
  created_at: string;
  updated_at: string;
}

/** The item `id` was deleted while at `revision`. */
export interface Tombstone {
  id: string;
  revision: number;
  deleted: true;
}

export type SegmentRecord = ItemRecord | Tombstone;

/** A segment as the manifest pins it: [segment id, SHA-256 of its bytes as 64 lowercase hex]. */
export type SegmentPin = readonly [segmentId: string, digest: string];

/** A segment ready to upload: its name in the provider, its bytes and the pin naming them. */
export interface SealedSegment {
  id: SegmentId;
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  pin: [string, string];
  records: SegmentRecord[];
}

const UUID_LOWER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// RFC 4648 §4, padded, as the protocol checks base64 (packages/protocol/src/files.ts).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const isTombstone = (r: SegmentRecord): r is Tombstone => 'deleted' in r;

export const asSegmentId = (s: string): SegmentId | null =>
  UUID_LOWER.test(s) ? (s as SegmentId) : null;

/** A fresh segment id; `randomUUID` is replaceable so tests stay deterministic. */
export function newSegmentId(randomUUID: () => string = () => crypto.randomUUID()): SegmentId {
  const id = asSegmentId(randomUUID().toLowerCase());
  if (id === null) throw new Error('randomUUID did not give a UUID');
  return id;
}

export const blobName = (id: SegmentId): string => `${SEGMENT_PREFIX}${id}`;

/** The segment id a blob name carries, or null for any other blob in the vault's folder. */
export function segmentIdOfBlob(name: string): SegmentId | null {
  return name.startsWith(SEGMENT_PREFIX) ? asSegmentId(name.slice(SEGMENT_PREFIX.length)) : null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const hasKeys = (v: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(v).length === keys.length && keys.every((k) => Object.hasOwn(v, k));
const isRevision = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1;
// ISO 8601 UTC as Date.prototype.toISOString writes it.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isTime = (v: unknown): v is string => typeof v === 'string' && ISO_TIME.test(v);

/** Exactly an item or a tombstone: no other key, a lowercase UUID, a revision >= 1. */
export function isSegmentRecord(v: unknown): v is SegmentRecord {
  if (!isObject(v) || typeof v.id !== 'string' || !UUID_LOWER.test(v.id)) return false;
  if (!isRevision(v.revision)) return false;
  if (hasKeys(v, ['id', 'revision', 'deleted'])) return v.deleted === true;
  return (
    hasKeys(v, ['id', 'revision', 'data', 'created_at', 'updated_at']) &&
    typeof v.data === 'string' &&
    v.data !== '' &&
    BASE64.test(v.data) &&
    isTime(v.created_at) &&
    isTime(v.updated_at)
  );
}

/** Sorted by id, one record per id: the only order a segment is written in. */
const strictlyById = (records: readonly SegmentRecord[]) =>
  records.every((r, i) => i === 0 || records[i - 1]!.id < r.id);

const byId = (a: SegmentRecord, b: SegmentRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The segment's bytes: records sorted by id, each written with its keys in a fixed order (so the
 * same records always give the same bytes and digest). Throws on an invalid record or an id given
 * twice: a write holds one record per item.
 */
export function encodeSegment(records: readonly SegmentRecord[]): Uint8Array<ArrayBuffer> {
  const sorted = [...records].sort(byId);
  if (!sorted.every(isSegmentRecord)) throw new Error('invalid segment record');
  if (!strictlyById(sorted)) throw new Error('a segment holds one record per item');
  const canonical = sorted.map((r) =>
    isTombstone(r)
      ? { id: r.id, revision: r.revision, deleted: true }
      : {
          id: r.id,
          revision: r.revision,
          data: r.data,
          created_at: r.created_at,
          updated_at: r.updated_at,
        },
  );
  return new TextEncoder().encode(JSON.stringify({ format: SEGMENT_FORMAT, records: canonical }));
}

/**
 * The records of a segment's bytes, or null if they are not a valid segment (not UTF-8 JSON, any
 * other key or format, an invalid record, records out of order or an id twice).
 */
export function parseSegment(bytes: Uint8Array): SegmentRecord[] | null {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!isObject(v) || !hasKeys(v, ['format', 'records']) || v.format !== SEGMENT_FORMAT)
    return null;
  const { records } = v;
  if (!Array.isArray(records) || !records.every(isSegmentRecord)) return null;
  return strictlyById(records) ? records : null;
}

/** SHA-256 of a segment's bytes, 64 lowercase hex: what the manifest pins. */
export async function segmentDigest(bytes: Uint8Array): Promise<string> {
  // WebCrypto takes only ArrayBuffer-backed views; a provider's stream may give others.
  const view =
    bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', view));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Encodes `records` as a new segment under a fresh id, with the pin the manifest will carry. */
export async function sealSegment(
  records: readonly SegmentRecord[],
  id: SegmentId = newSegmentId(),
): Promise<SealedSegment> {
  const bytes = encodeSegment(records);
  return {
    id,
    name: blobName(id),
    bytes,
    pin: [id, await segmentDigest(bytes)],
    records: [...records].sort(byId),
  };
}
