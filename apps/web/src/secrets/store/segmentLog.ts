// A secrets vault's segment log in its provider (ADR 0008), wired: reading the pinned segments
// through the vault's StorageProvider, writing a change as one new segment pinned by the manifest's
// compare-and-swap (a loser rebases, segments/rebase.ts), and compacting a long log. The rules are
// in secrets/segments/; this file adds the provider, the manifest and a cache of verified segments.
//
// [Note: segment cache] A segment is immutable and named by a fresh id, and the manifest pins it
// by the SHA-256 of its bytes: once a page has read and verified `id` at `digest`, the same pin
// always means the same records. So a reload after an edit fetches only the segment the edit
// added, not the whole vault.
import { vaultMovedMessage, type ProviderType } from '@sealvault/protocol';
import { msg } from '../../i18n/i18n.ts';
import { StorageError, type StorageProvider } from '../../storage/provider.ts';
import type { ManifestEntries } from '../../vaults/manifest/problems.ts';
import type { ManifestRecord, Verified } from '../../vaults/manifest/manifestCore.ts';
import {
  ORPHAN_GRACE_MS,
  orphans,
  planCompaction,
  snapshot,
  stillPinnable,
  supersededBy,
} from '../segments/compaction.ts';
import {
  checkAgainstEntries,
  foldSegments,
  readSegments,
  type EntryDigest,
  type LogStats,
  type ReadSegment,
  type SegmentProblem,
} from '../segments/fold.ts';
import { rebase, type Rebased } from '../segments/rebase.ts';
import {
  SEGMENT_PREFIX,
  sealSegment,
  type ItemRecord,
  type SealedSegment,
  type SegmentPin,
  type SegmentRecord,
} from '../segments/segment.ts';

/** What the log needs of the manifest protocol (manifestCore.ts), for one vault's session. */
export interface LogManifests {
  load(): Promise<Verified | null>;
  commit(
    change: (current: ManifestEntries) => ManifestEntries | Promise<ManifestEntries>,
  ): Promise<Verified | null>;
}

export interface LogDeps {
  vaultId: string;
  blobs: Pick<StorageProvider, 'put' | 'get' | 'delete' | 'list'>;
  /**
   * The provider `blobs` writes to: a change is pinned only while the manifest names it, so a
   * write to the provider a vault has just left (moved on another device, issue 27) is refused,
   * not lost. Absent in tests of the log alone.
   */
  providerType?: ProviderType;
  manifests: LogManifests;
  digestOf: EntryDigest;
  now?: () => number;
}

/** A read of the log: only what the manifest vouches for, and everything else named. */
export interface LogRead {
  /** The live items the manifest vouches for, sorted by id. */
  items: ItemRecord[];
  problems: SegmentProblem[];
  clean: boolean;
  stats: LogStats;
  /** The segment list of the manifest version read. */
  pins: SegmentPin[];
  /** The verified manifest the read was checked against. */
  manifest: ManifestRecord;
}

/** Another device changed these items since this change was made. */
export class LogConflictError extends Error {
  override readonly name = 'LogConflictError';
  constructor(readonly ids: string[]) {
    super(msg('These items were changed on another device.'));
  }
}

/** The vault has no manifest (opened without unlockChecked): a change could not be pinned. */
export class NoManifestError extends Error {
  override readonly name = 'NoManifestError';
}

// [Note: segment cache]
const verified = new Map<string, Map<string, SegmentRecord[]>>();
const cacheOf = (vaultId: string) => {
  let cache = verified.get(vaultId);
  if (!cache) verified.set(vaultId, (cache = new Map<string, SegmentRecord[]>()));
  return cache;
};
const pinKey = ([id, digest]: SegmentPin) => `${id}:${digest}`;

/** Forgets the segments this page verified for a vault (it was locked or deleted). */
export function forgetSegments(vaultId: string): void {
  verified.delete(vaultId);
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One chunk of bytes as the stream a provider's put takes. */
export const streamOf = (bytes: Uint8Array<ArrayBuffer>) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });

function fetcher(deps: Pick<LogDeps, 'vaultId' | 'blobs'>) {
  return async (segmentId: string): Promise<Uint8Array | null> => {
    try {
      return await bytesOf(await deps.blobs.get(deps.vaultId, `${SEGMENT_PREFIX}${segmentId}`));
    } catch (err) {
      if (err instanceof StorageError && err.code === 'not_found') return null;
      throw err;
    }
  };
}

/**
 * Reads into the cache the segments a manifest not verified yet names (the unlock's, fetched
 * while the key is derived: issue 31), and answers the live items they fold to, for the early
 * opening ([Note: early secrets opening] in ../earlyOpen.ts); their entry digests are computed
 * after that, in the background. A pin carries the digest its bytes are checked against, so a
 * list the server made up costs only fetches and decryptions: a read uses the cache only for
 * the pins its verified manifest names ([Note: segment cache]).
 */
export async function prefetchSegments(
  deps: Pick<LogDeps, 'vaultId' | 'blobs' | 'digestOf'>,
  pins: readonly SegmentPin[],
): Promise<ItemRecord[]> {
  const cache = cacheOf(deps.vaultId);
  const unknown = pins.filter((p) => !cache.has(pinKey(p)));
  const fetched = await readSegments(unknown, fetcher(deps));
  fetched.forEach((s, i) => {
    if ('records' in s) cache.set(pinKey(unknown[i]!), s.records);
  });
  const read = pins.flatMap((p): ReadSegment[] => {
    const records = cache.get(pinKey(p));
    return records ? [{ segment: p[0], records }] : [];
  });
  const items = [...foldSegments(read).items.values()];
  void digestSoon(items, deps.digestOf);
  return items;
}

/** The items' entry digests (kept by digestOf), a slice at a time between tasks. */
async function digestSoon(items: readonly ItemRecord[], digestOf: EntryDigest): Promise<void> {
  for (let i = 0; i < items.length; i += 500) {
    await Promise.all(items.slice(i, i + 500).map(digestOf));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the page stays responsive
  }
}

/** Reads the pinned segments (those not verified before, in parallel) and folds them. */
async function readPinned(deps: LogDeps, verifiedManifest: Verified): Promise<LogRead> {
  const { manifest } = verifiedManifest;
  const pins = (manifest.segments ?? []).map(([id, d]): SegmentPin => [id, d]);
  const cache = cacheOf(deps.vaultId);
  const unknown = pins.filter((p) => !cache.has(pinKey(p)));
  const fetched = await readSegments(unknown, fetcher(deps));
  fetched.forEach((s, i) => {
    if ('records' in s) cache.set(pinKey(unknown[i]!), s.records);
  });
  const byPin = new Map(fetched.map((s, i) => [pinKey(unknown[i]!), s]));
  const segments: ReadSegment[] = pins.map(
    (p) => byPin.get(pinKey(p)) ?? { segment: p[0], records: cache.get(pinKey(p))! },
  );
  const folded = foldSegments(segments);
  const itemProblems = await checkAgainstEntries(folded, manifest.secrets, deps.digestOf);
  const problems = [...folded.problems, ...itemProblems];
  return {
    items: [...folded.items.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    problems,
    clean: problems.length === 0,
    stats: { ...folded.stats, live: folded.items.size },
    pins,
    manifest,
  };
}

/**
 * The vault's items from its provider, checked against the verified manifest; null when the
 * manifest pins no segments (the items are still on our server: move.ts). A segment found
 * missing is looked for again under the next manifest if one was written meanwhile: another
 * device's compaction may have replaced it between the two reads.
 */
export async function readLog(deps: LogDeps): Promise<LogRead | null> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await deps.manifests.load();
    if (!current?.manifest.segments) return null;
    const read = await readPinned(deps, current);
    if (attempt === 2 || !read.problems.some((p) => p.kind === 'dropped')) return read;
    const again = await deps.manifests.load();
    if (!again || again.manifest.version === current.manifest.version) return read;
  }
}

/** Stores a sealed segment under its name in the vault's folder. */
export async function putSegment(deps: LogDeps, sealed: SealedSegment): Promise<void> {
  await deps.blobs.put(deps.vaultId, sealed.name, sealed.bytes.length, streamOf(sealed.bytes));
  cacheOf(deps.vaultId).set(pinKey(sealed.pin), sealed.records);
}

const removeBlob = (deps: LogDeps, name: string) =>
  deps.blobs.delete(deps.vaultId, name).catch(() => undefined);

/** Why a commit's change stopped: the rebase's verdict or an upload too old to pin. */
class Stop extends Error {
  constructor(
    readonly verdict:
      Exclude<Rebased, { kind: 'apply' }> | { kind: 'stale' } | { kind: 'moved'; to: ProviderType },
  ) {
    super(verdict.kind);
  }
}

/**
 * Writes a change (items at their next revision, tombstones) as one new segment, then pins it in
 * the manifest's next version; a lost race rebases the same segment on the winner's log. Throws
 * LogConflictError (and deletes the segment) when another device changed the same items.
 */
export async function writeLog(deps: LogDeps, records: readonly SegmentRecord[]): Promise<void> {
  const now = deps.now ?? Date.now;
  for (let attempt = 0; ; attempt += 1) {
    const sealed = await sealSegment(records);
    await putSegment(deps, sealed);
    const uploadedAt = now();
    try {
      const done = await deps.manifests.commit(async (m) => {
        // [Note: orphan grace] in compaction.ts: a blob this old may be deleted as an orphan.
        if (!stillPinnable(uploadedAt, now())) throw new Stop({ kind: 'stale' });
        if (deps.providerType && m.vault.provider_type !== deps.providerType)
          throw new Stop({ kind: 'moved', to: m.vault.provider_type as ProviderType });
        const r = await rebase(
          { pin: sealed.pin, records: sealed.records },
          { segments: m.segments ?? [], secrets: m.secrets },
          deps.digestOf,
        );
        if (r.kind !== 'apply') throw new Stop(r);
        return { ...m, segments: r.segments, secrets: r.secrets };
      });
      if (!done) {
        await removeBlob(deps, sealed.name);
        throw new NoManifestError(msg('This vault has no manifest yet.'));
      }
      return;
    } catch (err) {
      if (!(err instanceof Stop)) throw err; // the segment may be pinned: it is kept
      const { verdict } = err;
      if (verdict.kind === 'landed' && verdict.pinned) return;
      await removeBlob(deps, sealed.name);
      if (verdict.kind === 'landed') return;
      if (verdict.kind === 'conflict') throw new LogConflictError(verdict.ids);
      if (verdict.kind === 'moved') throw new Error(vaultMovedMessage(verdict.to), { cause: err });
      if (attempt >= 1)
        throw new Error(msg('The change could not be saved in time. Please try again.'), {
          cause: err,
        });
    }
  }
}

// Names this page has seen in the vault's folder, and when first: [Note: orphan grace].
const firstSeen = new Map<string, number>();

/**
 * Folds a long or mostly superseded log into one snapshot segment (ADR 0008, "Compaction"), pins
 * it if the list is still the one read, then deletes what it replaces and the old orphans. Only
 * after a clean read; answers whether it compacted. Best effort: a failure leaves the log as is.
 */
export async function compactLog(deps: LogDeps, read: LogRead): Promise<boolean> {
  if (!read.clean || !planCompaction(read.pins, read.stats)) return false;
  const now = deps.now ?? Date.now;
  const snap = await snapshot({ items: new Map(read.items.map((i) => [i.id, i])) });
  await putSegment(deps, snap);
  const same = (pins: readonly SegmentPin[]) =>
    pins.length === read.pins.length && pins.every((p, i) => pinKey(p) === pinKey(read.pins[i]!));
  try {
    const done = await deps.manifests.commit((m) => {
      // A vault moved meanwhile keeps the same pins, in its new provider: not compacted here.
      const moved = deps.providerType && m.vault.provider_type !== deps.providerType;
      if (moved || !same(m.segments ?? [])) throw new Stop({ kind: 'stale' });
      return { ...m, segments: [[...snap.pin]] };
    });
    if (!done) throw new Stop({ kind: 'stale' });
  } catch (err) {
    if (err instanceof Stop) await removeBlob(deps, snap.name);
    return false;
  }
  await Promise.all(
    supersededBy(read.pins, snap.pin).map((id) => removeBlob(deps, `${SEGMENT_PREFIX}${id}`)),
  );
  const names = (await deps.blobs.list(deps.vaultId).catch(() => [])).map((b) => b.ref);
  const at = now();
  for (const name of names) if (!firstSeen.has(name)) firstSeen.set(name, at);
  const stray = orphans(names, [snap.pin[0]], ORPHAN_GRACE_MS, at, (n) => firstSeen.get(n));
  await Promise.all(stray.map((name) => removeBlob(deps, name)));
  return true;
}
