// Test helpers for the segment log: readable ids, a stand-in entry digest, and a provider folder
// kept in memory (the app reads and writes segments through its StorageProvider).
import type { EntryDigest, FetchSegment, SecretEntry } from './fold.ts';
import type { LogState } from './rebase.ts';
import {
  asSegmentId,
  sealSegment,
  type ItemRecord,
  type SealedSegment,
  type SegmentId,
  type SegmentRecord,
} from './segment.ts';

/** The n-th item id: a lowercase UUID that sorts by n. */
export const itemId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

let segments = 0;
/** A fresh segment id, counted (instead of random) so failures are readable. */
export function segId(): SegmentId {
  segments += 1;
  return asSegmentId(`5e000000-0000-4000-8000-${segments.toString(16).padStart(12, '0')}`)!;
}

/** Stand-in ciphertext: base64 of a text naming the item, its revision and a tag. */
export const cipher = (n: number, revision: number, tag = '') =>
  btoa(`item ${n} revision ${revision}${tag}`);

/** A fixed time per revision, so the same item at the same revision is the same record. */
const at = (revision: number) => new Date(Date.UTC(2026, 0, 1, 0, revision)).toISOString();

export const item = (n: number, revision: number, tag = ''): ItemRecord => ({
  id: itemId(n),
  revision,
  data: cipher(n, revision, tag),
  created_at: at(1),
  updated_at: at(revision),
});

export const tombstone = (n: number, revision: number): SegmentRecord => ({
  id: itemId(n),
  revision,
  deleted: true,
});

/** The stand-in for itemEntryDigest: any function that tells items apart will do here. */
export const digestOf: EntryDigest = ({ id, revision, data }) =>
  Promise.resolve(`${id}/${revision}/${data}`);

export const entryOf = async (i: ItemRecord): Promise<SecretEntry> => [
  i.id,
  i.revision,
  await digestOf(i),
];

/** A vault's folder in the provider: blob name -> bytes. */
export class MemoryFolder {
  readonly blobs = new Map<string, Uint8Array>();

  async upload(records: readonly SegmentRecord[]): Promise<SealedSegment> {
    const sealed = await sealSegment(records, segId());
    this.blobs.set(sealed.name, sealed.bytes);
    return sealed;
  }

  readonly fetch: FetchSegment = (id) => Promise.resolve(this.blobs.get(`seg-${id}`) ?? null);
}

/** The log part of the manifest as a server holds it, with compare-and-swap on its version. */
export class ManifestServer {
  version = 0;
  state: LogState = { segments: [], secrets: [] };

  read(): { version: number; state: LogState } {
    return { version: this.version, state: this.state };
  }

  /** false (the 409) if the version moved on since `expected`. */
  cas(expected: number, next: LogState): boolean {
    if (expected !== this.version) return false;
    this.version += 1;
    this.state = next;
    return true;
  }
}
